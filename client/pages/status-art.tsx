/** A small drawing for the status pages: a row of squares with one missing (404) or one locked (403). */

export function StatusArt({ variant }: { variant: 'missing' | 'locked' }) {
  return (
    <svg className="status-art" viewBox="0 0 136 40" aria-hidden="true" focusable="false">
      <rect className="art-square art-square--sage" x="0" y="6" width="28" height="28" rx="4" />
      <rect className="art-square art-square--ochre" x="36" y="6" width="28" height="28" rx="4" />
      {variant === 'missing' ? (
        <rect className="art-square art-square--empty" x="72" y="6" width="28" height="28" rx="4" />
      ) : (
        <g>
          <rect className="art-square art-square--bark" x="72" y="6" width="28" height="28" rx="4" />
          <rect className="status-art__lock" x="80" y="19" width="12" height="9" rx="1.5" />
          <path className="status-art__shackle" d="M82.5 19v-3a3.5 3.5 0 0 1 7 0v3" />
        </g>
      )}
      <rect className="art-square art-square--slate" x="108" y="6" width="28" height="28" rx="4" />
    </svg>
  );
}
