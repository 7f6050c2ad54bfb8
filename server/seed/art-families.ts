/** The composition families of the generated artworks: each draws one kind of picture in a 1000 x 1000 view box. */
import { byLuminance, luminance, mix, ramp, type Palette, type Rng } from './palette.ts';

// ---------------------------------------------------------------------------------------------------------------
// Drawing helpers. Every family draws in a 1000 x 1000 view box.

export const VIEW = 1000;

const n1 = (v: number) => (Math.round(v * 10) / 10).toString();

function circle(cx: number, cy: number, r: number, fill: string, extra = ''): string {
  return `<circle cx="${n1(cx)}" cy="${n1(cy)}" r="${n1(Math.max(0, r))}" fill="${fill}"${extra}/>`;
}

function rect(x: number, y: number, w: number, h: number, fill: string, extra = ''): string {
  return `<rect x="${n1(x)}" y="${n1(y)}" width="${n1(w)}" height="${n1(h)}" fill="${fill}"${extra}/>`;
}

function polygon(points: [number, number][], fill: string, extra = ''): string {
  return `<path d="M${points.map(([x, y]) => `${n1(x)} ${n1(y)}`).join('L')}Z" fill="${fill}"${extra}/>`;
}

/** A colour from the list that differs from `avoid`. */
function pickOther(rng: Rng, colors: readonly string[], avoid: readonly string[]): string {
  const choices = colors.filter((c) => !avoid.includes(c));
  return rng.pick(choices.length > 0 ? choices : colors);
}

interface Composition {
  rng: Rng;
  palette: Palette;
  defs: string[];
}

type Family = (c: Composition) => string;

/** Rings inside rings: either one large target with satellites, or a grid of framed squares with rings. */
const orbits: Family = ({ rng, palette }) => {
  const { colors, ground } = palette;
  const out: string[] = [rect(0, 0, VIEW, VIEW, ground)];
  const ringSet = (cx: number, cy: number, radius: number, pool: readonly string[], count: number) => {
    let previous = '';
    for (let i = 0; i < count; i++) {
      const color = pickOther(rng, pool, [previous]);
      previous = color;
      const r = radius * (1 - i / count) * rng.range(0.96, 1.04);
      // Centres drift a little ring by ring, as a hand-drawn target would.
      out.push(circle(cx + rng.range(-1, 1) * radius * 0.04, cy + rng.range(-1, 1) * radius * 0.04, r, color));
    }
  };
  if (rng.chance(0.5)) {
    const n = rng.int(2, 4);
    const size = VIEW / n;
    for (let row = 0; row < n; row++) {
      for (let col = 0; col < n; col++) {
        const square = rng.pick([ground, ...colors]);
        out.push(rect(col * size, row * size, size + 0.5, size + 0.5, square));
        ringSet(
          col * size + size / 2 + rng.range(-0.06, 0.06) * size,
          row * size + size / 2 + rng.range(-0.06, 0.06) * size,
          size * rng.range(0.36, 0.44),
          colors.filter((c) => c !== square).concat(ground === square ? [] : [ground]),
          rng.int(3, 6),
        );
      }
    }
  } else {
    out.push(rect(0, VIEW * rng.range(0.6, 0.8), VIEW, VIEW, mix(ground, colors[4]!, 0.35)));
    ringSet(rng.range(330, 670), rng.range(330, 600), rng.range(260, 380), colors, rng.int(6, 10));
    const satellites = rng.int(2, 5);
    for (let i = 0; i < satellites; i++) {
      ringSet(rng.range(80, 920), rng.range(80, 920), rng.range(40, 120), colors, rng.int(2, 4));
    }
  }
  return out.join('');
};

/** Layered hills under a sky, paler with distance, with a sun or moon. */
const strata: Family = ({ rng, palette, defs }) => {
  const { colors, ground, ink } = palette;
  const ordered = byLuminance(colors);
  const night = luminance(ground) < 0.3;
  const sky = night ? ground : mix(ground, ordered[4]!, 0.3);
  const skyTop = night ? mix(ground, ordered[0]!, 0.4) : mix(ground, ordered[3]!, 0.55);
  defs.push(
    `<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${skyTop}"/><stop offset="0.7" stop-color="${sky}"/></linearGradient>`,
  );
  const out: string[] = [rect(0, 0, VIEW, VIEW, 'url(#sky)')];
  const sunX = rng.range(180, 820);
  const sunY = rng.range(170, 400);
  const sunR = rng.range(55, 140);
  // The sun is the colour that stands out most from the sky.
  const sun = colors.reduce(
    (best, c) =>
      Math.abs(luminance(c) - luminance(sky)) + (c === colors[0] ? 0.1 : 0) > Math.abs(luminance(best) - luminance(sky))
        ? c
        : best,
    colors[0]!,
  );
  for (let i = 3; i >= 1; i--)
    out.push(circle(sunX, sunY, sunR * (1 + i * 0.35), sun, ` opacity="${n1(0.07 * (4 - i))}"`));
  out.push(circle(sunX, sunY, sunR, sun));
  if (night) {
    for (let i = 0; i < 70; i++)
      out.push(
        circle(rng.range(0, VIEW), rng.range(0, 480), rng.range(1, 2.8), ink, ` opacity="${n1(rng.range(0.3, 0.9))}"`),
      );
  }
  const layers = rng.int(4, 7);
  // Far hills take the light colours and fade into the sky; near ones the dark colours.
  const stops = rng.chance(0.5) ? [...ordered].reverse() : rng.shuffle(ordered.slice(1)).concat([ordered[0]!]);
  for (let layer = 0; layer < layers; layer++) {
    const t = layer / (layers - 1);
    const base = 420 + t * 450 + rng.range(-25, 25);
    const amplitude = rng.range(30, 120) * (1 - t * 0.45);
    const waves = [rng.range(0.004, 0.011), rng.range(0.013, 0.03)];
    const phases = [rng.range(0, 6.3), rng.range(0, 6.3)];
    const points: [number, number][] = [[0, VIEW]];
    for (let x = 0; x <= VIEW; x += 20) {
      const y =
        base - amplitude * (Math.sin(x * waves[0]! + phases[0]!) * 0.75 + Math.sin(x * waves[1]! + phases[1]!) * 0.25);
      points.push([x, y]);
    }
    points.push([VIEW, VIEW]);
    out.push(polygon(points, mix(ramp(stops, t), sky, 0.45 * (1 - t))));
  }
  return out.join('');
};

/** A grid of tiles, each with one bold motif turned a quarter at a time. */
const tiles: Family = ({ rng, palette }) => {
  const pool = [palette.ground, ...palette.colors.slice(0, rng.int(3, 5))];
  const n = rng.int(3, 7);
  const s = VIEW / n;
  const out: string[] = [];
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      const x = col * s;
      const y = row * s;
      const back = rng.pick(pool);
      const front = pickOther(rng, pool, [back]);
      const angle = rng.int(0, 3) * 90;
      const cx = x + s / 2;
      const cy = y + s / 2;
      let motif: string;
      switch (rng.int(0, 6)) {
        case 0: // quarter circle from a corner
          motif = `<path d="M${n1(x)} ${n1(y)}L${n1(x + s)} ${n1(y)}A${n1(s)} ${n1(s)} 0 0 1 ${n1(x)} ${n1(y + s)}Z" fill="${front}"/>`;
          break;
        case 1: // half circle on an edge
          motif = `<path d="M${n1(x)} ${n1(y + s)}A${n1(s / 2)} ${n1(s / 2)} 0 0 1 ${n1(x + s)} ${n1(y + s)}Z" fill="${front}"/>`;
          break;
        case 2: // diagonal half
          motif = polygon(
            [
              [x, y],
              [x + s, y],
              [x, y + s],
            ],
            front,
          );
          break;
        case 3: // disc with a smaller disc
          motif = circle(cx, cy, s * 0.36, front) + circle(cx, cy, s * 0.14, pickOther(rng, pool, [front]));
          break;
        case 4: // leaf: two quarter arcs
          motif = `<path d="M${n1(x)} ${n1(y + s)}A${n1(s)} ${n1(s)} 0 0 1 ${n1(x + s)} ${n1(y)}A${n1(s)} ${n1(s)} 0 0 1 ${n1(x)} ${n1(y + s)}Z" fill="${front}"/>`;
          break;
        case 5: // three bars
          motif = [0, 1, 2].map((i) => rect(x + s * (0.1 + i * 0.3), y + s * 0.1, s * 0.18, s * 0.8, front)).join('');
          break;
        default: // framed square
          motif = rect(x + s * 0.2, y + s * 0.2, s * 0.6, s * 0.6, front);
      }
      out.push(rect(x, y, s + 0.5, s + 0.5, back));
      out.push(angle ? `<g transform="rotate(${angle} ${n1(cx)} ${n1(cy)})">${motif}</g>` : motif);
    }
  }
  return out.join('');
};

/** Out-of-focus lights: soft discs of colour glowing on a dark ground. */
const lights: Family = ({ rng, palette, defs }) => {
  const deep = luminance(palette.ground) < 0.3 ? palette.ground : mix(palette.colors[2]!, '#05050a', 0.8);
  defs.push(
    `<radialGradient id="night" cx="${n1(rng.range(0.3, 0.7))}" cy="${n1(rng.range(0.3, 0.7))}" r="0.8"><stop offset="0" stop-color="${mix(deep, palette.colors[0]!, 0.25)}"/><stop offset="1" stop-color="${mix(deep, '#000000', 0.4)}"/></radialGradient>`,
  );
  palette.colors.forEach((color, i) => {
    defs.push(
      `<radialGradient id="glow${i}"><stop offset="0" stop-color="${mix(color, '#ffffff', 0.25)}" stop-opacity="0.95"/><stop offset="0.55" stop-color="${color}" stop-opacity="0.55"/><stop offset="1" stop-color="${color}" stop-opacity="0"/></radialGradient>`,
    );
  });
  const out: string[] = [rect(0, 0, VIEW, VIEW, 'url(#night)')];
  // Lights cluster along a loose diagonal band, as a street at night would.
  const slope = rng.range(-0.8, 0.8);
  const intercept = rng.range(350, 650);
  const count = rng.int(45, 85);
  for (let i = 0; i < count; i++) {
    const x = rng.range(-50, 1050);
    const y = intercept + slope * (x - 500) + rng.range(-1, 1) * rng.range(60, 380);
    const big = rng.chance(0.25);
    const r = big ? rng.range(90, 190) : rng.range(12, 70);
    const index = rng.int(0, palette.colors.length - 1);
    if (rng.chance(0.7)) {
      out.push(circle(x, y, r, `url(#glow${index})`));
    } else {
      const color = palette.colors[index]!;
      out.push(
        circle(
          x,
          y,
          r,
          color,
          ` opacity="${n1(rng.range(0.18, 0.4))}" stroke="${mix(color, '#ffffff', 0.4)}" stroke-width="2" stroke-opacity="0.5"`,
        ),
      );
    }
  }
  return out.join('');
};

/** Bands of colour whose edges roll like water, sometimes tilted. */
const tides: Family = ({ rng, palette }) => {
  const sequence = rng.shuffle([...palette.colors, palette.ground]);
  const bands = rng.int(7, 14);
  const angle = rng.chance(0.5) ? rng.range(-35, 35) : 0;
  const frequency = rng.range(0.006, 0.02);
  const drift = rng.range(0.2, 0.9);
  const amplitude = rng.range(25, 80);
  const out: string[] = [rect(-300, -300, 1600, 1600, sequence[0]!)];
  for (let band = 1; band <= bands; band++) {
    const base = -300 + (band / (bands + 1)) * 1600;
    const points: [number, number][] = [[-300, 1300]];
    for (let x = -300; x <= 1300; x += 25) {
      const y =
        base +
        amplitude * Math.sin(x * frequency + band * drift) +
        amplitude * 0.35 * Math.sin(x * frequency * 2.7 + band * 1.3);
      points.push([x, y]);
    }
    points.push([1300, 1300]);
    out.push(polygon(points, sequence[band % sequence.length]!));
  }
  const body = out.join('');
  return angle ? `<g transform="rotate(${n1(angle)} 500 500)">${body}</g>` : body;
};

/** Constructivist composition: bars, a disc and lines on one tilted axis. */
const construction: Family = ({ rng, palette }) => {
  const { colors, ink } = palette;
  const ground = luminance(palette.ground) > 0.5 ? palette.ground : mix(colors[3]!, '#f3ede0', 0.85);
  const dark = luminance(ink) < 0.5 ? ink : '#1c1c1c';
  const axis = rng.pick([-30, -20, 20, 30, 45, -45, 60]);
  const out: string[] = [rect(0, 0, VIEW, VIEW, ground)];
  out.push(circle(rng.range(300, 700), rng.range(280, 650), rng.range(170, 300), colors[0]!));
  const inner: string[] = [];
  const bars = rng.int(3, 6);
  for (let i = 0; i < bars; i++) {
    const w = rng.range(300, 900);
    const h = rng.range(22, 110);
    const fill = i === 0 ? dark : rng.pick(colors.slice(1));
    inner.push(
      rect(
        500 - w / 2 + rng.range(-220, 220),
        rng.range(150, 850),
        w,
        h,
        fill,
        rng.chance(0.3) ? ' opacity="0.88"' : '',
      ),
    );
  }
  for (let i = 0; i < rng.int(2, 5); i++) {
    const y = rng.range(100, 900);
    inner.push(rect(rng.range(-100, 300), y, rng.range(500, 1000), rng.range(3, 7), dark));
  }
  const crossing = rng.range(200, 800);
  inner.push(
    `<g transform="rotate(90 ${n1(crossing)} 500)">${rect(crossing - 450, 500 + rng.range(-200, 200), 900, rng.range(30, 70), rng.pick(colors))}</g>`,
  );
  for (let i = 0; i < rng.int(3, 7); i++) {
    const size = rng.range(20, 70);
    inner.push(rect(rng.range(120, 860), rng.range(120, 860), size, size, rng.pick([dark, ...colors])));
  }
  out.push(`<g transform="rotate(${axis} 500 500)">${inner.join('')}</g>`);
  const arcR = rng.range(90, 160);
  const ax = rng.range(150, 850);
  const ay = rng.range(150, 850);
  out.push(
    `<path d="M${n1(ax - arcR)} ${n1(ay)}A${n1(arcR)} ${n1(arcR)} 0 0 1 ${n1(ax + arcR)} ${n1(ay)}Z" fill="${colors[2]!}" transform="rotate(${rng.int(0, 359)} ${n1(ax)} ${n1(ay)})"/>`,
  );
  return out.join('');
};

/** Rays from a low or off-centre sun, with rings at its heart. */
const radiance: Family = ({ rng, palette }) => {
  const { colors, ground } = palette;
  const cx = rng.pick([500, rng.range(150, 850)]);
  const cy = rng.pick([VIEW, rng.range(600, 1000), rng.range(300, 700)]);
  const rays = rng.pick([12, 16, 18, 24, 30, 36]);
  const pair = [colors[0]!, rng.chance(0.5) ? ground : colors[3]!];
  const start = rng.range(0, Math.PI);
  const out: string[] = [rect(0, 0, VIEW, VIEW, pair[1]!)];
  for (let i = 0; i < rays; i += 2) {
    const a0 = start + (i / rays) * Math.PI * 2;
    const a1 = start + ((i + 1) / rays) * Math.PI * 2;
    out.push(
      polygon(
        [
          [cx, cy],
          [cx + Math.cos(a0) * 1600, cy + Math.sin(a0) * 1600],
          [cx + Math.cos(a1) * 1600, cy + Math.sin(a1) * 1600],
        ],
        pair[0]!,
      ),
    );
  }
  const rings = rng.int(3, 6);
  const outer = rng.range(160, 330);
  const ringColors = rng.shuffle([colors[1]!, colors[2]!, colors[4]!, ground]);
  for (let i = 0; i < rings; i++) out.push(circle(cx, cy, outer * (1 - i / rings), ringColors[i % ringColors.length]!));
  if (rng.chance(0.5)) {
    const horizon = rng.range(780, 900);
    out.push(rect(0, horizon, VIEW, VIEW - horizon, colors[2]!));
    out.push(rect(0, horizon, VIEW, 6, colors[4]!));
  }
  return out.join('');
};

/** A plane cut again and again into rectangles, some coloured, some marked, divided by dark lines. */
const partition: Family = ({ rng, palette }) => {
  const { colors, ground, ink } = palette;
  const line = luminance(ground) > 0.5 ? ink : mix(ground, '#000000', 0.6);
  const light = luminance(ground) > 0.5 ? ground : mix(colors[3]!, '#f5f0e6', 0.8);
  const gap = rng.range(8, 18);
  const out: string[] = [rect(0, 0, VIEW, VIEW, line)];
  const split = (x: number, y: number, w: number, h: number, depth: number) => {
    const canSplit = depth < 6 && (w > 160 || h > 160) && (depth < 2 || rng.chance(0.75));
    if (canSplit) {
      const vertical = w > h ? rng.chance(0.8) : rng.chance(0.2);
      const at = rng.range(0.3, 0.7);
      if (vertical) {
        split(x, y, w * at, h, depth + 1);
        split(x + w * at, y, w * (1 - at), h, depth + 1);
      } else {
        split(x, y, w, h * at, depth + 1);
        split(x, y + h * at, w, h * (1 - at), depth + 1);
      }
      return;
    }
    const fill = rng.chance(0.45) ? light : rng.pick(colors);
    out.push(rect(x + gap / 2, y + gap / 2, w - gap, h - gap, fill));
    if (rng.chance(0.25) && w > 120 && h > 120) {
      out.push(circle(x + w / 2, y + h / 2, Math.min(w, h) * 0.3, pickOther(rng, colors, [fill])));
    } else if (rng.chance(0.12)) {
      out.push(
        polygon(
          [
            [x + gap / 2, y + h - gap / 2],
            [x + w - gap / 2, y + gap / 2],
            [x + w - gap / 2, y + h - gap / 2],
          ],
          pickOther(rng, colors, [fill]),
        ),
      );
    }
  };
  split(0, 0, VIEW, VIEW, 0);
  return out.join('');
};

/** Contour lines of an imaginary island, each band a step of one colour ramp. */
const topography: Family = ({ rng, palette }) => {
  const ordered = byLuminance(palette.colors);
  const stops = rng.chance(0.5) ? ordered : ordered.reverse();
  const cx = rng.range(300, 700);
  const cy = rng.range(300, 700);
  const levels = rng.int(9, 16);
  const harmonics = [2, 3, 5].map((k) => ({ k, a: rng.range(0.05, 0.16) / (k * 0.6), p: rng.range(0, 6.3) }));
  const line = mix(palette.ink, stops[0]!, 0.3);
  const out: string[] = [rect(0, 0, VIEW, VIEW, stops[0]!)];
  const maxR = 920;
  for (let level = 0; level < levels; level++) {
    const t = level / (levels - 1);
    const r = maxR * (1 - t * 0.92);
    const points: [number, number][] = [];
    for (let step = 0; step < 120; step++) {
      const a = (step / 120) * Math.PI * 2;
      let wobble = 1;
      for (const h of harmonics) wobble += h.a * Math.sin(h.k * a + h.p + t * 2.2);
      points.push([cx + Math.cos(a) * r * wobble, cy + Math.sin(a) * r * wobble]);
    }
    out.push(
      polygon(
        points,
        ramp(stops, t),
        ` stroke="${line}" stroke-opacity="0.55" stroke-width="${level % 4 === 0 ? 5 : 2.5}"`,
      ),
    );
  }
  return out.join('');
};

export const FAMILIES = [
  { name: 'orbits', motif: 'concentric rings', draw: orbits },
  { name: 'strata', motif: 'layered hills under a low sun', draw: strata },
  { name: 'tiles', motif: 'a grid of quarter-turned tiles', draw: tiles },
  { name: 'lights', motif: 'soft lights drifting out of focus', draw: lights },
  { name: 'tides', motif: 'rolling bands of colour', draw: tides },
  { name: 'construction', motif: 'bars, a disc and lines on a tilted axis', draw: construction },
  { name: 'radiance', motif: 'rays around a ringed sun', draw: radiance },
  { name: 'partition', motif: 'a plane divided into rectangles', draw: partition },
  { name: 'topography', motif: 'contour lines of an imagined island', draw: topography },
] as const;

export type ArtworkFamily = (typeof FAMILIES)[number]['name'];

export const ARTWORK_FAMILY_COUNT = FAMILIES.length;
