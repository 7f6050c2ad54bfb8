/** The welcome page's words. */

export const WELCOME = {
  eyebrow: 'a free community art gallery',
  lead: 'Gallery Tree is a gallery shaped as a growing tree of squares. Every square holds one artwork, and every artwork connects to its neighbours, so the tree grows only as fast as its artists do.',
  body: 'Wander the branches, open any piece that catches your eye, and when you feel ready, reserve a square of your own. Taking part is free, for everyone.',
  facts: [
    { figure: '1', label: 'piece in every square' },
    { figure: '8', label: 'neighbours each square can touch' },
    { figure: '2', label: 'weeks to make your piece' },
    { figure: '0', label: 'cost, for artists and visitors' },
  ],
} as const;
