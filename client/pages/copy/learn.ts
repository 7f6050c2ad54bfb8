/** The learn page's four slides, in order. */
import { RESERVATION_PERIOD } from '#shared/durations.ts';

export type LearnSlideKey = 'overview' | 'metaphor' | 'connection' | 'interaction';

export interface LearnSlide {
  key: LearnSlideKey;
  /** The tab's label, in the capitals the page shows (written, not styled: decision 011). */
  tab: 'OVERVIEW' | 'METAPHOR' | 'CONNECTION' | 'INTERACTION';
  heading: string;
  paragraphs: readonly string[];
}

export const LEARN_SLIDES: readonly LearnSlide[] = [
  {
    key: 'overview',
    tab: 'OVERVIEW',
    heading: 'A gallery that grows like a tree.',
    paragraphs: [
      'Gallery Tree is a free community art gallery. Instead of walls, it has a tree built from squares: rows of five up the trunk, with branches reaching out on either side.',
      'Every square holds one artwork by one artist. Wander the tree, zoom in, and open any piece to see it up close, read its story and meet the person who made it.',
    ],
  },
  {
    key: 'metaphor',
    tab: 'METAPHOR',
    heading: 'Seed, roots, trunk, branches.',
    paragraphs: [
      'The tree begins as a seed: a handful of open squares near the ground. From there it grows the way living things do, roots reaching down, the trunk climbing up, and branches spreading out once the trunk is strong.',
      'A square only opens when a piece is placed beside it, so the shape of the tree is the shape of its community’s work. No two trees would ever grow alike.',
    ],
  },
  {
    key: 'connection',
    tab: 'CONNECTION',
    heading: 'Every square has eight neighbours.',
    paragraphs: [
      'Each square touches the squares around it at four sides and four corners: eight points of connection. A new piece always joins a piece that is already there.',
      'When you add yours, you say how it connects: a shared colour, an echo of form, an answer to a story. Follow those threads and the tree reads like one long conversation between artists.',
    ],
  },
  {
    key: 'interaction',
    tab: 'INTERACTION',
    heading: 'Look closer, then take part.',
    paragraphs: [
      'Zoom in and out, drag to move around, search by title or artist, and open any piece for its details and connections. Once you have registered, you can like pieces and follow the artists you love.',
      `When you are ready to add your own, reserve an open square. It is yours for ${RESERVATION_PERIOD} while you make your piece. Comments on art are planned for a future phase.`,
    ],
  },
];
