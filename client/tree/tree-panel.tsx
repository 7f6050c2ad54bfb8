/**
 * The tree's top panel: zoom out and in (each disabled at its end of the range), the pan buttons (decision 029), find
 * next free, search, help, and find-my-slots for a visitor who has a square.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { SEARCH_MIN_LENGTH, TREE_VIEW } from '#shared/constants.ts';
import { SEARCH_MAX_LENGTH, SEARCH_PLACEHOLDER, isSearchable } from '#shared/validation/search.ts';
import { canZoomIn, canZoomOut } from '#shared/tree/camera.ts';
import {
  ArrowIcon,
  CloseIcon,
  FindFreeIcon,
  HelpIcon,
  PanIcon,
  SearchIcon,
  TargetIcon,
  ZoomInIcon,
  ZoomOutIcon,
} from './tree-icons.tsx';
import { useLatest, type LatestValue } from './signals.ts';
import { COVERS_TREE } from './use-covered-insets.ts';

export interface TreePanelProps {
  /** The camera's scale, as the engine reports it. */
  scale: LatestValue<number>;
  /**
   * How far zoom in may go: the tree's upper limit, or past it into the picture's own pixels of the piece the button
   * would zoom into (decision 048).
   */
  zoomLimit: LatestValue<number>;
  onZoom: (direction: 1 | -1) => void;
  /** Moves the view: dx, dy of -1, 0 or 1, the way it goes. */
  onPan: (dx: number, dy: number) => void;
  onFindFree: () => void;
  onSearch: (term: string) => void;
  onHelp: () => void;
  /** Present only for a signed-in visitor who has a square of their own. */
  onFindMine?: () => void;
}

const PANS = [
  { direction: 'left', label: 'Pan left', dx: -1, dy: 0 },
  { direction: 'up', label: 'Pan up', dx: 0, dy: -1 },
  { direction: 'down', label: 'Pan down', dx: 0, dy: 1 },
  { direction: 'right', label: 'Pan right', dx: 1, dy: 0 },
] as const;

export function TreePanel({
  scale,
  zoomLimit,
  onZoom,
  onPan,
  onFindFree,
  onSearch,
  onHelp,
  onFindMine,
}: TreePanelProps) {
  const [searching, setSearching] = useState(false);
  // A phone's pan buttons open under the panel (tree.css); a wide screen shows them in the panel and never this state.
  const [panning, setPanning] = useState(false);
  const searchButton = useRef<HTMLButtonElement>(null);
  const panButton = useRef<HTMLButtonElement>(null);
  const panGroupId = useId();
  const closeSearch = (returnFocus: boolean) => {
    setSearching(false);
    if (returnFocus) requestAnimationFrame(() => searchButton.current?.focus());
  };
  return (
    <div className="tree-panel-area" {...COVERS_TREE}>
      <div className="tree-panel" role="toolbar" aria-label="Tree view">
        <ZoomControls scale={scale} zoomLimit={zoomLimit} onZoom={onZoom} />
        <span className="tree-panel__divider" aria-hidden="true" />
        <button
          ref={panButton}
          type="button"
          className={
            panning
              ? 'tree-panel__button tree-panel__pan-toggle is-active'
              : 'tree-panel__button tree-panel__pan-toggle'
          }
          onClick={() => {
            setPanning(!panning);
            setSearching(false);
          }}
          aria-label="Pan buttons"
          aria-expanded={panning}
          aria-controls={panGroupId}
          title="Pan buttons"
        >
          <PanIcon />
        </button>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions -- the pan group passes its buttons' arrow keys on; each button is the interactive element */}
        <div
          id={panGroupId}
          className={panning ? 'tree-pan is-open' : 'tree-pan'}
          role="group"
          aria-label="Pan the view"
          onKeyDown={(event) => {
            if (event.key === 'Escape' && panning) {
              event.preventDefault();
              setPanning(false);
              panButton.current?.focus();
            }
          }}
        >
          {PANS.map((pan) => (
            <button
              key={pan.direction}
              type="button"
              className={`tree-panel__button tree-pan__${pan.direction}`}
              onClick={() => onPan(pan.dx, pan.dy)}
              aria-label={pan.label}
              title={pan.label}
            >
              <ArrowIcon direction={pan.direction} />
            </button>
          ))}
        </div>
        <span className="tree-panel__divider tree-panel__divider--pan" aria-hidden="true" />
        <button
          type="button"
          className="tree-panel__button"
          onClick={onFindFree}
          aria-label="Find next free square"
          title="Find next free square"
        >
          <FindFreeIcon />
        </button>
        {onFindMine && (
          <button
            type="button"
            className="tree-panel__button tree-panel__button--mine"
            onClick={onFindMine}
            aria-label="Find my squares"
            title="Find my squares"
          >
            <TargetIcon />
          </button>
        )}
        <button
          ref={searchButton}
          type="button"
          className={searching ? 'tree-panel__button is-active' : 'tree-panel__button'}
          onClick={() => {
            if (searching) return closeSearch(false);
            setSearching(true);
            setPanning(false);
          }}
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
            // The box goes: the keyboard waits on the Search button, where the results popup gives it back on closing.
            searchButton.current?.focus();
            closeSearch(false);
            onSearch(term);
          }}
        />
      )}
    </div>
  );
}

/**
 * Search's text box, with a cancel button. Enter with a searchable term hands it on (the page opens the search popup)
 * and closes the box, the keyboard going back to the Search button, where the popup gives it back when it closes.
 */
function SearchBox({ onCancel, onSubmit }: { onCancel: () => void; onSubmit: (term: string) => void }) {
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
        // The search runs only when the trimmed text is longer than 2 characters (docs/product.md, Limits); otherwise
        // nothing is sent.
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
        placeholder={SEARCH_PLACEHOLDER}
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
      <button
        type="button"
        className="tree-search__cancel"
        onClick={onCancel}
        aria-label="Cancel search"
        title="Cancel"
      >
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

/** Zoom out, the zoom level and zoom in: the one part of the panel that follows every frame of a zoom. */
function ZoomControls({
  scale: scaleSource,
  zoomLimit: zoomLimitSource,
  onZoom,
}: Pick<TreePanelProps, 'scale' | 'zoomLimit' | 'onZoom'>) {
  const scale = useLatest(scaleSource);
  const zoomLimit = useLatest(zoomLimitSource);
  return (
    <>
      <button
        type="button"
        className="tree-panel__button"
        onClick={() => onZoom(-1)}
        disabled={!canZoomOut(scale)}
        aria-label="Zoom out"
        title="Zoom out"
      >
        <ZoomOutIcon />
      </button>
      <output className="tree-panel__scale" aria-live="polite" aria-label="Zoom level">
        {Math.round(scale * 100)}%
        {zoomLimit > TREE_VIEW.zoomMax && !canZoomIn(scale, zoomLimit) && (
          <span className="visually-hidden">, the picture’s own pixels</span>
        )}
      </output>
      <button
        type="button"
        className="tree-panel__button"
        onClick={() => onZoom(1)}
        disabled={!canZoomIn(scale, zoomLimit)}
        aria-label="Zoom in"
        title="Zoom in"
      >
        <ZoomInIcon />
      </button>
    </>
  );
}
