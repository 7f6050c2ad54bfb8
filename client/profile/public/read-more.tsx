/**
 * A profile section whose text may be long (EXHIBITIONS, EDUCATION; decision 015): the first lines, and 'read more' /
 * 'read less' when there is more. Cut at a word, never inside one. Rendered as text, line breaks kept.
 */
import { useId, useState } from 'react';
import { normalizeLineBreaks } from '#shared/validation/rules.ts';

/** Characters and lines shown before 'read more'. */
const EXCERPT_CHARS = 320;
const EXCERPT_LINES = 4;

/** The text's opening, or null when the whole text is short enough to show at once. */
export function excerptOf(text: string): string | null {
  const lines = text.split('\n');
  let opening = lines.length > EXCERPT_LINES ? lines.slice(0, EXCERPT_LINES).join('\n') : text;
  if (opening.length > EXCERPT_CHARS) {
    const cut = opening.slice(0, EXCERPT_CHARS);
    const lastSpace = cut.search(/\s\S*$/);
    opening = lastSpace > EXCERPT_CHARS / 2 ? cut.slice(0, lastSpace) : cut;
  }
  return opening.length < text.length ? `${opening.trimEnd()}…` : null;
}

export function ReadMoreSection({ title, text: stored, testId }: { title: string; text: string; testId: string }) {
  const [open, setOpen] = useState(false);
  const text = normalizeLineBreaks(stored);
  const bodyId = useId();
  const excerpt = excerptOf(text);
  return (
    <section className="profile-section" data-testid={testId}>
      <h2 className="profile-section__title">{title}</h2>
      <p id={bodyId} className="profile-section__text" data-testid={`${testId}-text`}>
        {open || excerpt === null ? text : excerpt}
      </p>
      {excerpt !== null && (
        <button
          type="button"
          className="profile-section__more"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen(!open)}
          data-testid={`${testId}-toggle`}
        >
          {open ? 'read less' : 'read more'}
        </button>
      )}
    </section>
  );
}
