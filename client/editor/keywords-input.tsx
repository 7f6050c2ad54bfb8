/**
 * Keywords (docs/product.md, Limits): typed into one box, added with Enter or on leaving it, each shown as a chip with
 * a remove button; an entry that would break a limit stays in the box with the server's message (decision 011).
 */
import { useId, useState, type KeyboardEvent } from 'react';
import { ART_LIMITS } from '#shared/constants.ts';
import { ART_MESSAGES, splitKeywords } from '#shared/validation/art.ts';

export interface KeywordsInputProps {
  keywords: string[];
  error: string | undefined;
  onChange: (keywords: string[]) => void;
}

/** The list after adding an entry, or the message that refuses it. */
export function addKeywords(current: string[], entry: string): { keywords: string[] } | { error: string } {
  const next = splitKeywords([...current, entry]);
  if (next.length > ART_LIMITS.maxKeywords) return { error: ART_MESSAGES.tooManyKeywords };
  if (next.some((keyword) => keyword.length > ART_LIMITS.keyword)) return { error: ART_MESSAGES.keywordTooLong };
  return { keywords: next };
}

export function KeywordsInput({ keywords, error, onChange }: KeywordsInputProps) {
  const id = useId();
  const [text, setText] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const shown = refusal ?? error;

  /** Adds what the box holds: on Enter, and when the box loses focus (a keyword typed but not entered counts). */
  const commit = () => {
    if (text.trim() === '') return;
    const added = addKeywords(keywords, text);
    if ('error' in added) return setRefusal(added.error);
    setRefusal(null);
    setText('');
    onChange(added.keywords);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    commit();
  };

  return (
    <div className={shown ? 'field has-error' : 'field'}>
      <label className="field__label" htmlFor={id}>
        Keywords
      </label>
      {keywords.length > 0 && (
        <ul className="editor-chips" aria-label="Keywords added" data-testid="keywords">
          {keywords.map((keyword) => (
            <li key={keyword} className="editor-chip" data-testid="keyword">
              <span>{keyword}</span>
              <button
                type="button"
                className="editor-chip__remove"
                aria-label={`Remove keyword ${keyword}`}
                onClick={() => {
                  setRefusal(null);
                  onChange(keywords.filter((k) => k !== keyword));
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        id={id}
        className="field__input"
        type="text"
        value={text}
        placeholder="Type a keyword and press Enter"
        onChange={(event) => {
          setText(event.currentTarget.value);
          setRefusal(null);
        }}
        onKeyDown={onKeyDown}
        onBlur={commit}
        aria-invalid={shown ? true : undefined}
        aria-describedby={`${id}-hint${shown ? ` ${id}-error` : ''}`}
        data-testid="keyword-input"
      />
      {shown && (
        <p className="field__error" id={`${id}-error`} data-testid="error-keywords">
          {shown}
        </p>
      )}
      <p className="field__hint" id={`${id}-hint`}>
        Press Enter to add. Separate several with commas. Up to {ART_LIMITS.maxKeywords} keywords of at most{' '}
        {ART_LIMITS.keyword} characters.
      </p>
    </div>
  );
}
