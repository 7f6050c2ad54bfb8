/**
 * Text placed in markup the server writes (the Atom feed, page heads, Open Graph tags): escaped for XML and HTML alike,
 * without the characters XML 1.0 forbids, which would make the whole document ill-formed (decision 024). Input refuses
 * them too (shared/validation/rules.ts); this keeps output right for text stored before that rule.
 */
import { FORBIDDEN_TEXT_CHARACTERS } from '#shared/validation/rules.ts';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeMarkup(text: string): string {
  return text.replace(FORBIDDEN_TEXT_CHARACTERS, '').replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
