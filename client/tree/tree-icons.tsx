/** The tree panel's icons: simple strokes on a 24-unit grid, drawn in the current text colour. */
import type { ReactNode } from 'react';

function Icon({ children }: { children: ReactNode }) {
  return (
    <svg className="tree-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <g fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        {children}
      </g>
    </svg>
  );
}

export const ZoomInIcon = () => (
  <Icon>
    <path d="M12 5v14M5 12h14" />
  </Icon>
);

export const ZoomOutIcon = () => (
  <Icon>
    <path d="M5 12h14" />
  </Icon>
);

/** Find next free: a square with a plus, and an arrow towards it. */
export const FindFreeIcon = () => (
  <Icon>
    <rect x="9.5" y="3.5" width="11" height="11" rx="1.5" strokeDasharray="3 2.2" />
    <path d="M15 6.8v4.4M12.8 9h4.4" />
    <path d="M3.5 20.5l6-6M4.5 14.5h5v5" />
  </Icon>
);

export const SearchIcon = () => (
  <Icon>
    <circle cx="10.5" cy="10.5" r="6" />
    <path d="M15 15l5 5" />
  </Icon>
);

export const HelpIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M9.6 9.5a2.5 2.5 0 1 1 3.4 2.3c-.7.3-1 .8-1 1.5v.5" />
    <path d="M12 16.8v.2" strokeWidth="2.4" />
  </Icon>
);

/** Find my slots: a target. */
export const TargetIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="8.5" />
    <circle cx="12" cy="12" r="4.5" />
    <circle cx="12" cy="12" r="0.9" fill="currentColor" />
  </Icon>
);

export const CloseIcon = () => (
  <Icon>
    <path d="M6.5 6.5l11 11M17.5 6.5l-11 11" />
  </Icon>
);

/** Drag to pan: arrows out to four sides. */
export const PanIcon = () => (
  <Icon>
    <path d="M12 3v18M3 12h18" />
    <path d="M9.5 5.5L12 3l2.5 2.5M9.5 18.5L12 21l2.5-2.5M5.5 9.5L3 12l2.5 2.5M18.5 9.5L21 12l-2.5 2.5" />
  </Icon>
);

/** Scroll: a mouse with its wheel. */
export const MouseIcon = () => (
  <Icon>
    <rect x="6.5" y="3" width="11" height="18" rx="5.5" />
    <path d="M12 7v3.5" strokeWidth="2.2" />
  </Icon>
);

/** The keyboard's arrow keys. */
export const ArrowKeysIcon = () => (
  <Icon>
    <rect x="9" y="3.5" width="6" height="6" rx="1.2" />
    <rect x="2.5" y="12" width="6" height="6" rx="1.2" />
    <rect x="9" y="12" width="6" height="6" rx="1.2" />
    <rect x="15.5" y="12" width="6" height="6" rx="1.2" />
  </Icon>
);

const ARROW_TURN = { up: 0, right: 90, down: 180, left: 270 } as const;

/** A pan button's arrow, pointing the way the view moves. */
export const ArrowIcon = ({ direction }: { direction: keyof typeof ARROW_TURN }) => (
  <Icon>
    <g transform={`rotate(${ARROW_TURN[direction]} 12 12)`}>
      <path d="M12 19V5M6 11l6-6 6 6" />
    </g>
  </Icon>
);
