/** Randomness and colour for the generated artworks: a seeded generator and palettes, hand-made and generated. */
// ---------------------------------------------------------------------------------------------------------------
// Randomness: a small deterministic generator, never Math.random, so a seed is a picture.

/** mulberry32: 32 bits of state, fast and good enough for pictures. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes numbers into one well-spread 32-bit value, so seeds 1, 2, 3 give unrelated streams. */
export function hashSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = Math.imul(h ^ (Math.trunc(part) >>> 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

export class Rng {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  float(): number {
    return this.next();
  }

  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** An integer from min to max, both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Colour.

type Rgb = [number, number, number];

export function hexToRgb(hex: string): Rgb {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function rgbToHex([r, g, b]: Rgb): string {
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  return `#${((1 << 24) | (clamp(r) << 16) | (clamp(g) << 8) | clamp(b)).toString(16).slice(1)}`;
}

export function mix(a: string, b: string, t: number): string {
  const x = hexToRgb(a);
  const y = hexToRgb(b);
  return rgbToHex([x[0] + (y[0] - x[0]) * t, x[1] + (y[1] - x[1]) * t, x[2] + (y[2] - x[2]) * t]);
}

export function hsl(hue: number, saturation: number, lightness: number): string {
  const h = (((hue % 360) + 360) % 360) / 360;
  const s = saturation / 100;
  const l = lightness / 100;
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  return rgbToHex([channel(h + 1 / 3) * 255, channel(h) * 255, channel(h - 1 / 3) * 255]);
}

export function luminance(hex: string): number {
  const [r, g, b] = hexToRgb(hex);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

/** Colours from dark to light. */
export function byLuminance(colors: readonly string[]): string[] {
  return colors.slice().sort((a, b) => luminance(a) - luminance(b));
}

/** A colour along a ramp through several stops, t from 0 to 1. */
export function ramp(stops: readonly string[], t: number): string {
  const position = Math.max(0, Math.min(1, t)) * (stops.length - 1);
  const index = Math.min(stops.length - 2, Math.floor(position));
  return mix(stops[index]!, stops[index + 1]!, position - index);
}

export interface Palette {
  /** The ground the piece is painted on. */
  ground: string;
  /** Five colours, roughly from the most to the least important. */
  colors: string[];
  /** Lines and small accents: dark on a light ground, light on a dark one. */
  ink: string;
}

/** Palettes mixed by hand for this project; the other half of the pieces get a generated harmony. */
const HAND_PALETTES: Palette[] = [
  { ground: '#efe6d8', colors: ['#b5523b', '#e09f5a', '#2f4858', '#86a39b', '#f2c9a0'], ink: '#23211f' },
  { ground: '#15171f', colors: ['#f2b134', '#e5563c', '#3caea3', '#f4ead8', '#2f6fa0'], ink: '#f4ead8' },
  { ground: '#e9ede4', colors: ['#5b7553', '#a7b99e', '#2e3a30', '#d98e5f', '#f1d38c'], ink: '#1f2620' },
  { ground: '#0e2a3b', colors: ['#2a7f9e', '#9fcbc9', '#f3e6c8', '#e2745e', '#f0b44c'], ink: '#f3e6c8' },
  { ground: '#f6efe9', colors: ['#d94f70', '#f5a65b', '#3b3561', '#7fb7be', '#f3d9b1'], ink: '#2b2540' },
  { ground: '#23262e', colors: ['#c6a15b', '#8c5e58', '#e6d5b8', '#567d7a', '#b3432f'], ink: '#ece1cc' },
  { ground: '#f2ead3', colors: ['#1f4e79', '#d6462f', '#f2b705', '#2a2a2a', '#9bbfd6'], ink: '#1a1a1a' },
  { ground: '#faf3e6', colors: ['#6a994e', '#bc4749', '#f2cc6b', '#386641', '#e8a598'], ink: '#2c2a24' },
  { ground: '#1d1330', colors: ['#ff6f59', '#f9c74f', '#5e4ae3', '#e0c3fc', '#2ec4b6'], ink: '#f6ecff' },
  { ground: '#e4ecef', colors: ['#274c5e', '#5f8fa3', '#c9d9df', '#c97b4a', '#f0d6a8'], ink: '#182a33' },
  { ground: '#f4e4d4', colors: ['#7a2e3a', '#c2593f', '#e9a86a', '#4b5d67', '#d8c3a5'], ink: '#2a1c1f' },
  { ground: '#0b1d16', colors: ['#3f8f5f', '#b6d77a', '#f2f0d5', '#e86f4d', '#1e5c4a'], ink: '#eef0d8' },
  { ground: '#fbf0f0', colors: ['#ef8a8a', '#7d5ba6', '#f7c873', '#4a6fa5', '#cfe3e1'], ink: '#2d2433' },
  { ground: '#2b1a12', colors: ['#e89a4f', '#f6d7a7', '#a43b2b', '#6f8f72', '#f2c14e'], ink: '#f6e7cf' },
  { ground: '#eef1f6', colors: ['#30343f', '#ea526f', '#fac05e', '#4f9d9a', '#a2aebb'], ink: '#1b1d24' },
  { ground: '#dfe7d3', colors: ['#8f3f71', '#d88c9a', '#f1d3b3', '#3c6e71', '#284b63'], ink: '#1c2b33' },
  { ground: '#111111', colors: ['#e63b2e', '#f4f1e8', '#f2c230', '#2255a4', '#777777'], ink: '#f4f1e8' },
  { ground: '#f1e9da', colors: ['#3d5a80', '#98c1d9', '#ee6c4d', '#293241', '#e0c9a6'], ink: '#1d2430' },
];

export function generatedPalette(rng: Rng): Palette {
  const base = rng.range(0, 360);
  const scheme = rng.pick(['analogous', 'complementary', 'triadic', 'split'] as const);
  // Every scheme keeps one contrasting accent, so no piece is a single wash of one hue.
  const offsets = {
    analogous: [0, 30, -30, 180, -12],
    complementary: [0, 180, 20, 195, -25],
    triadic: [0, 120, 240, 15, 135],
    split: [0, 150, 210, 20, 165],
  }[scheme];
  const dark = rng.chance(0.4);
  const ground = dark
    ? hsl(base + rng.range(-30, 30), rng.range(20, 45), rng.range(7, 14))
    : hsl(base + rng.range(-40, 40), rng.range(18, 45), rng.range(87, 94));
  const lightness = rng.shuffle([
    rng.range(24, 36),
    rng.range(40, 52),
    rng.range(55, 64),
    rng.range(70, 82),
    rng.range(46, 58),
  ]);
  const colors = offsets.map((offset, i) => hsl(base + offset + rng.range(-8, 8), rng.range(38, 72), lightness[i]!));
  const ink = dark ? hsl(base, 25, 92) : hsl(base, 35, 13);
  return { ground, colors, ink };
}

export function paletteFor(seed: number): Palette {
  const rng = new Rng(hashSeed(seed, 0x9a1e77e));
  if (rng.chance(0.55)) {
    const chosen = rng.pick(HAND_PALETTES);
    // Keep the hand palettes fresh across many pieces: reorder their colours.
    return { ...chosen, colors: rng.shuffle(chosen.colors) };
  }
  return generatedPalette(rng);
}
