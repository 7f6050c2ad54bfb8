/** The Ground: the gallery's four principles, as the principles popup and the participate page tell them. */

export interface Principle {
  name: string;
  /** What the principle asks, in a few words, where the product fixes a rule (AI use: docs/product.md, Limits). */
  rule?: string;
  summary: string;
  body: string;
}

export const THE_GROUND_INTRO =
  'The Ground is what every square stands on: four simple principles we ask of everyone who adds to the tree, and that we keep ourselves.';

export const THE_GROUND: readonly Principle[] = [
  {
    name: 'honesty',
    rule: 'AI use must be disclosed',
    summary: 'Say how your piece was made.',
    body: 'If AI had a hand in your work, a little or a lot, disclose it when you upload. Honest labels let every visitor trust what they are looking at, and let AI-assisted work stand openly beside everything else.',
  },
  {
    name: 'connectivity',
    summary: 'Every piece answers its neighbours.',
    body: 'A square touches the work around it on four sides and four corners. When you place a piece, tell us how it connects: a shared colour, an echo of a shape, a reply to someone else’s story.',
  },
  {
    name: 'decency',
    summary: 'Make and speak as a good neighbour.',
    body: 'No hate, no harassment, nothing meant to hurt, and nothing that is not yours to share. The tree is a public place, open to everyone who wanders in.',
  },
  {
    name: 'community',
    summary: 'We grow it together.',
    body: 'The tree grows only as its artists do. Look closely, like generously, follow the people who move you, and leave room for the next square.',
  },
];
