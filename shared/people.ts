/** How a member's name is shown, on both sides: one rule, so every page, e-mail and feed names a person alike. */

/** First and last name, trimmed; `fallback` where both are empty (a page says "An artist", a list "Unnamed"). */
export function personName(person: { firstname: string; lastname: string }, fallback = ''): string {
  return `${person.firstname} ${person.lastname}`.trim() || fallback;
}
