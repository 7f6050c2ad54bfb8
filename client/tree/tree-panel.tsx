/**
 * The tree's top panel (spec §2): zoom out and in (each disabled at its end of the range), find next free, search,
 * help, and find-my-slots for a visitor who has a square. Search opens a text box with a cancel button; Enter with
 * more than 2 trimmed characters hands the term on (the page opens the search popup) and closes the box; a shorter
 * term sends nothing.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { SEARCH_MIN_LENGTH } from '#shared/constants.ts';
import { SEARCH_MAX_LENGTH, isSearchable } from '#shared/validation/search.ts';
import { canZoomIn, canZoomOut } from '#shared/tree/camera.ts';
import { CloseIcon, FindFreeIcon, HelpIcon, SearchIcon, TargetIcon, ZoomInIcon, ZoomOutIcon } from './tree-icons.tsx';

export interface TreePanelProps {
  scale: number;
  onZoom(direction: 1 | -1): void;
  onFindFree(): void;
  onSearch(term: string): void;
  onHelp(): void;
  /** Present only for a signed-in visitor who has a square of their own. */
  onFindMine?: () => void;
}

export function TreePanel({ scale, onZoom, onFindFree, onSearch, onHelp, onFindMine }: TreePanelProps) {
  const [searching, setSearching] = useState(false);
  const searchButton = useRef<HTMLButtonElement>(null);
  const closeSearch = (returnFocus: boolean) => {
    setSearching(false);
    if (returnFocus) requestAnimationFrame(() => searchButton.current?.focus());
  };
  return (
    <div className="tree-panel-area">
      <div className="tree-panel" role="toolbar" aria-label="Tree view">
        <button type="button" className="tree-panel__button" onClick={() => onZoom(-1)} disabled={!canZoomOut(scale)} aria-label="Zoom out" title="Zoom out">
          <ZoomOutIcon />
        </button>
        <output className="tree-panel__scale" aria-live="polite" aria-label="Zoom level">
          {Math.round(scale * 100)}%
        </output>
        <button type="button" className="tree-panel__button" onClick={() => onZoom(1)} disabled={!canZoomIn(scale)} aria-label="Zoom in" title="Zoom in">
          <ZoomInIcon />
        </button>
        <span className="tree-panel__divider" aria-hidden="true" />
        <button type="button" className="tree-panel__button" onClick={onFindFree} aria-label="Find next free square" title="Find next free square">
          <FindFreeIcon />
        </button>
        {onFindMine && (
          <button type="button" className="tree-panel__button tree-panel__button--mine" onClick={onFindMine} aria-label="Find my squares" title="Find my squares">
            <TargetIcon />
          </button>
        )}
        <button
          ref={searchButton}
          type="button"
          className={searching ? 'tree-panel__button is-active' : 'tree-panel__button'}
          onClick={() => (searching ? closeSearch(false) : setSearching(true))}
          aria-label="Search"
          aria-expanded={searching}
          title="Search"
        >
          <SearchIcon />
        </button>
        <button type="button" className="tree-panel__button" onClick={onHelp} aria-label="Help" title="Help">
          <HelpIcon />
        </button>
      </div>
      {searching && (
        <SearchBox
          onCancel={() => closeSearch(true)}
          onSubmit={(term) => {
            closeSearch(false);
            onSearch(term);
          }}
        />
      )}
    </div>
  );
}

function SearchBox({ onCancel, onSubmit }: { onCancel(): void; onSubmit(term: string): void }) {
  const [text, setText] = useState('');
  const [tooShort, setTooShort] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  useEffect(() => input.current?.focus(), []);
  return (
    <form
      className="tree-search"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        // Spec §5: the search runs only when the trimmed text is longer than 2 characters; otherwise nothing is sent.
        if (isSearchable(text)) onSubmit(text.trim());
        else setTooShort(true);
      }}
    >
      <SearchIcon />
      <label className="visually-hidden" htmlFor={`${hintId}-input`}>
        Search the pieces
      </label>
      {/* The placeholder is short enough to be read whole in a 320-pixel phone's box. */}
      <input
        ref={input}
        id={`${hintId}-input`}
        className="tree-search__input"
        type="text"
        value={text}
        maxLength={SEARCH_MAX_LENGTH}
        placeholder="title, artist or keyword"
        autoComplete="off"
        enterKeyHint="search"
        aria-describedby={tooShort ? hintId : undefined}
        aria-invalid={tooShort || undefined}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setTooShort(false);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            onCancel();
          }
        }}
      />
      <button type="button" className="tree-search__cancel" onClick={onCancel} aria-label="Cancel search" title="Cancel">
        <CloseIcon />
      </button>
      {tooShort && (
        <p className="tree-search__hint" id={hintId} role="status">
          Type at least {SEARCH_MIN_LENGTH} letters.
        </p>
      )}
    </form>
  );
}
