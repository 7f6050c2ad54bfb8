/** Our drawings for the learn slides: each shows its idea with the same rounded squares as the mark. */
import type { LearnSlideKey } from '../copy/learn.ts';

type Tone = 'accent' | 'sage' | 'ochre' | 'clay' | 'slate' | 'plum' | 'bark' | 'root' | 'open' | 'empty';

function Square({ x, y, tone, size = 22 }: { x: number; y: number; tone: Tone; size?: number }) {
  return <rect className={`art-square art-square--${tone}`} x={x} y={y} width={size} height={size} rx={3.5} />;
}

/** A small tree: trunk rows of five, branches out to the sides, a few open squares waiting. */
function OverviewArt() {
  const rows: [number, Tone][][] = [
    [
      [3, 'sage'],
      [4, 'accent'],
      [5, 'ochre'],
    ],
    [
      [1, 'plum'],
      [3, 'clay'],
      [4, 'slate'],
      [5, 'sage'],
      [7, 'open'],
    ],
    [
      [0, 'open'],
      [2, 'ochre'],
      [3, 'accent'],
      [4, 'plum'],
      [5, 'clay'],
      [6, 'slate'],
    ],
    [
      [2, 'sage'],
      [3, 'ochre'],
      [4, 'accent'],
      [5, 'slate'],
      [6, 'ochre'],
      [7, 'open'],
    ],
    [
      [2, 'clay'],
      [3, 'slate'],
      [4, 'sage'],
      [5, 'plum'],
      [6, 'accent'],
    ],
    [
      [2, 'accent'],
      [3, 'bark'],
      [4, 'bark'],
      [5, 'bark'],
      [6, 'clay'],
    ],
    [
      [3, 'root'],
      [5, 'root'],
    ],
  ];
  return (
    <svg className="slide-art" viewBox="0 0 240 200" aria-hidden="true" focusable="false">
      {rows.flatMap((row, r) =>
        row.map(([c, tone]) => <Square key={`${r}:${c}`} x={12 + c * 25} y={14 + r * 25} tone={tone} />),
      )}
      <line className="art-ground" x1="20" x2="220" y1="187" y2="187" />
    </svg>
  );
}

/** The bands of the tree, from branches down to roots, labelled. */
function MetaphorArt() {
  const bands: { label: string; rows: [number, Tone][][] }[] = [
    {
      label: 'branches',
      rows: [
        [
          [0, 'plum'],
          [1, 'sage'],
          [2, 'accent'],
          [3, 'ochre'],
          [4, 'clay'],
        ],
      ],
    },
    {
      label: 'trunk',
      rows: [
        [
          [1, 'slate'],
          [2, 'sage'],
          [3, 'accent'],
        ],
        [
          [1, 'ochre'],
          [2, 'clay'],
          [3, 'slate'],
        ],
      ],
    },
    {
      label: 'seed',
      rows: [
        [
          [1, 'open'],
          [2, 'bark'],
          [3, 'open'],
        ],
      ],
    },
    {
      label: 'roots',
      rows: [
        [
          [0, 'root'],
          [2, 'root'],
          [4, 'root'],
        ],
      ],
    },
  ];
  let y = 10;
  const parts = bands.map((band, b) => {
    const top = y;
    const squares = band.rows.flatMap((row, r) =>
      row.map(([c, tone]) => <Square key={`${b}:${r}:${c}`} x={20 + c * 25} y={top + r * 25} tone={tone} size={21} />),
    );
    y += band.rows.length * 25 + 10;
    return (
      <g key={band.label}>
        {squares}
        <line className="art-band" x1="150" x2="160" y1={top + 10} y2={top + 10} />
        <text className="art-label" x="166" y={top + 14}>
          {band.label}
        </text>
        {b < bands.length - 1 && <line className="art-divider" x1="12" x2="228" y1={y - 6} y2={y - 6} />}
      </g>
    );
  });
  return (
    <svg className="slide-art" viewBox="0 0 240 200" aria-hidden="true" focusable="false">
      {parts}
    </svg>
  );
}

/** One square and its eight neighbours, with the four side and four corner connection points marked. */
function ConnectionArt() {
  const cell = 46;
  const gap = 10;
  const x0 = 120 - cell * 1.5 - gap;
  const y0 = 100 - cell * 1.5 - gap;
  const tones: Tone[] = ['plum', 'sage', 'ochre', 'slate', 'accent', 'clay', 'ochre', 'open', 'sage'];
  const cx = x0 + cell + gap;
  const cy = y0 + cell + gap;
  const points = [
    [cx + cell / 2, cy],
    [cx + cell, cy + cell / 2],
    [cx + cell / 2, cy + cell],
    [cx, cy + cell / 2],
    [cx, cy],
    [cx + cell, cy],
    [cx + cell, cy + cell],
    [cx, cy + cell],
  ] as const;
  return (
    <svg className="slide-art" viewBox="0 0 240 200" aria-hidden="true" focusable="false">
      {tones.map((tone, i) => (
        <rect
          key={i}
          className={`art-square art-square--${i === 4 ? 'accent' : tone} ${i === 4 ? 'art-square--focus' : 'art-square--quiet'}`}
          x={x0 + (i % 3) * (cell + gap)}
          y={y0 + Math.floor(i / 3) * (cell + gap)}
          width={cell}
          height={cell}
          rx={6}
        />
      ))}
      {points.map(([x, y], i) => (
        <circle key={i} className={i < 4 ? 'art-point' : 'art-point art-point--corner'} cx={x} cy={y} r={4.5} />
      ))}
    </svg>
  );
}

/** A piece under a magnifying glass, with the zoom buttons of the tree's panel. */
function InteractionArt() {
  return (
    <svg className="slide-art" viewBox="0 0 240 200" aria-hidden="true" focusable="false">
      <Square x={30} y={40} tone="sage" size={40} />
      <Square x={76} y={40} tone="ochre" size={40} />
      <Square x={30} y={86} tone="slate" size={40} />
      <Square x={76} y={86} tone="open" size={40} />
      <Square x={30} y={132} tone="plum" size={40} />
      <Square x={76} y={132} tone="clay" size={40} />
      <circle className="art-lens" cx="148" cy="92" r="40" />
      <line className="art-lens-handle" x1="177" y1="121" x2="206" y2="150" />
      <rect className="art-square art-square--accent" x="128" y="72" width="40" height="40" rx="5" />
      <g className="art-panel">
        <rect x="178" y="22" width="46" height="24" rx="6" />
        <text x="190" y="39">
          +
        </text>
        <text x="208" y="39">
          −
        </text>
      </g>
    </svg>
  );
}

export function SlideArt({ slide }: { slide: LearnSlideKey }) {
  switch (slide) {
    case 'overview':
      return <OverviewArt />;
    case 'metaphor':
      return <MetaphorArt />;
    case 'connection':
      return <ConnectionArt />;
    case 'interaction':
      return <InteractionArt />;
  }
}
