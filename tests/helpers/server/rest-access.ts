/**
 * A call of each /api route valid apart from who makes it, one row per route; who may make it is the route's
 * declaration (`who`, decision 036), and docs/api.md is written from it. "owner" is the person the path names: the
 * account of /user/{token}/…, the author of the piece on /cell/{cellToken}, the holder of a reservation.
 * permissions-rest.test.ts walks every declared route with its row, and fails on a route without one or a row without
 * its route.
 */
import type { RestWho } from '#server/trpc.ts';
import type { Asker, ApiWorld } from './api-world.ts';

/** What each asker gets under a rule: through to the service, or refused with this code. */
export type Outcome = 'through' | 'unauthenticated' | 'forbidden' | 'own_art';

export function outcomeOf(who: RestWho, asker: Asker): Outcome {
  if (who === 'everyone') return 'through';
  if (asker === 'guest') return 'unauthenticated';
  switch (who) {
    case 'signed-in':
      return 'through';
    case 'owner':
      return asker === 'owner' ? 'through' : 'forbidden';
    case 'owner or admin':
      return asker === 'owner' || asker === 'admin' ? 'through' : 'forbidden';
    case 'signed-in, not the author':
      return asker === 'owner' ? 'own_art' : 'through';
  }
}

export interface RestAccessRow {
  /** The path to call (the owner's account, piece or reservation where it names one). */
  url: (w: ApiWorld) => string | Promise<string>;
  /** A JSON body, or form fields for the multipart routes. */
  body?: (w: ApiWorld) => Record<string, unknown>;
  multipart?: boolean;
}

const MISSING = 'm'.repeat(22);
const ownerToken = (w: ApiWorld) => w.people.owner.user.token;
const otherToken = (w: ApiWorld) => w.people.observer.user.token;
const pieceCell = (w: ApiWorld) => w.piece.cellToken;
/** A pending square: subscribing to it works for anyone signed in, reserving it is refused on the square. */
const pendingCell = async (w: ApiWorld) => (await w.cell(20, 1)).token;

export const REST_ACCESS: Record<string, RestAccessRow> = {
  'GET /api/health': { url: () => '/api/health' },
  'GET /api/initial-params': { url: () => '/api/initial-params' },
  'GET /api/tree/:treeToken': { url: (w) => `/api/tree/${w.treeToken}` },
  'GET /api/tree/:treeToken/history': { url: (w) => `/api/tree/${w.treeToken}/history` },
  'GET /api/tree/:treeToken/changes': { url: (w) => `/api/tree/${w.treeToken}/changes?since=0` },
  // A stream never ends, and inject waits for the end: a malformed version answers at once, past the role check.
  'GET /api/tree/:treeToken/events': {
    url: (w) => `/api/tree/${w.treeToken}/events?since=not-a-version`,
  },
  'GET /api/tree/:treeToken/region': {
    url: (w) => `/api/tree/${w.treeToken}/region?row0=0&row1=5&col0=0&col1=4`,
  },
  'GET /api/cells/search': { url: () => '/api/cells/search?search=Neighbour' },
  'GET /api/cell/:cellToken': { url: (w) => `/api/cell/${pieceCell(w)}` },
  'GET /api/cell/:cellToken/art': { url: (w) => `/api/cell/${pieceCell(w)}/art` },
  // Anyone signed in may ask; the answer's may_edit says whether the wizard opens (else /forbidden).
  'GET /api/cell/:cellToken/art/edit': { url: (w) => `/api/cell/${pieceCell(w)}/art/edit` },
  // Edit access (docs/product.md, Who may do what): the author or an admin. The blank title is refused on the fields,
  // after the role check.
  'POST /api/cell/:cellToken': {
    url: (w) => `/api/cell/${pieceCell(w)}`,
    multipart: true,
    body: () => ({ title: '' }),
  },
  'GET /api/cell/:cellToken/connections': {
    url: (w) => `/api/cell/${pieceCell(w)}/connections`,
  },
  'GET /api/cell/:cellToken/connections/active': {
    url: (w) => `/api/cell/${pieceCell(w)}/connections/active`,
  },
  'POST /api/cell/:cellToken/connections': {
    url: (w) => `/api/cell/${pieceCell(w)}/connections`,
    body: () => ({ connections: [] }),
  },
  // Removal is asked for by the piece's author; staff decide on the dashboard (docs/product.md, Review and removal).
  'POST /api/cell/:cellToken/removal': {
    url: (w) => `/api/cell/${pieceCell(w)}/removal`,
    body: () => ({ reason: 'Please take it down.' }),
  },
  'POST /api/cell/:cellToken/reserve': { url: (w) => `/api/cell/${pieceCell(w)}/reserve` },
  'GET /api/cell/:cellToken/reserve/:reserveId': {
    url: (w) => `/api/cell/${w.holding.cellToken}/reserve/${w.holding.reminderToken}`,
  },
  'POST /api/cell/:cellToken/reserve/:reserveId': {
    url: (w) => `/api/cell/${w.holding.cellToken}/reserve/${w.holding.reminderToken}`,
  },
  'POST /api/cell/:cellToken/subscribe/available': {
    url: async (w) => `/api/cell/${await pendingCell(w)}/subscribe/available`,
  },
  'POST /api/cell/subscribe/available': { url: () => '/api/cell/subscribe/available' },
  'POST /api/branch/reserve': {
    url: () => '/api/branch/reserve',
    body: (w) => ({ treeToken: w.treeToken, row: 40, column: -30 }),
  },
  'GET /api/art/:artToken/like': { url: (w) => `/api/art/${w.piece.artToken}/like` },
  'PUT /api/art/:artToken/like': { url: (w) => `/api/art/${w.piece.artToken}/like` },
  'DELETE /api/art/:artToken/like': {
    url: (w) => `/api/art/${w.piece.artToken}/like`,
  },
  'PUT /api/art/:artToken/review': { url: (w) => `/api/art/${w.piece.artToken}/review` },
  // The signed-in user, 401 for a guest.
  'GET /api/user/current': { url: () => '/api/user/current' },
  'POST /api/auth/logout': { url: () => '/api/auth/logout' },
  // The client sends signed-in people away from these pages (docs/product.md, Screens and routes); the server answers
  // anyone (a second login replaces the session).
  'POST /api/auth/login': {
    url: () => '/api/auth/login',
    body: () => ({ username: 'nobody@rest.test', password: 'wrong&123' }),
  },
  'POST /api/register': {
    url: () => '/api/register',
    body: () => ({ firstname: '', lastname: '', email: 'x', password: '' }),
  },
  'POST /api/password/reset': {
    url: () => '/api/password/reset',
    body: () => ({ username: 'nobody@rest.test' }),
  },
  'POST /api/password/restore/:token': {
    url: () => `/api/password/restore/${MISSING}`,
    body: () => ({ password: 'new&better9' }),
  },
  'POST /api/misc/contact': {
    url: () => '/api/misc/contact',
    body: () => ({ subject: '', reason: 'Question', email: 'x', message: '' }),
  },
  'GET /api/misc/zip/:zip': { url: () => '/api/misc/zip/10001' },
  // The account and what it holds: its owner only, admins included (an admin changes roles on the dashboard).
  'POST /api/user/:token/account': {
    url: (w) => `/api/user/${ownerToken(w)}/account`,
    body: (w) => ({
      firstname: 'Owen',
      lastname: 'Owner',
      email: w.people.owner.user.email,
      show_email: false,
      password: '',
      confirm_password: '',
    }),
  },
  'GET /api/user/:token/reserve': { url: (w) => `/api/user/${ownerToken(w)}/reserve` },
  'GET /api/user/:id/profile': { url: (w) => `/api/user/${ownerToken(w)}/profile` },
  'POST /api/user/:id/profile': {
    url: (w) => `/api/user/${ownerToken(w)}/profile`,
    multipart: true,
    body: () => ({ city: '' }),
  },
  'GET /api/user/:id/fullprofile': { url: (w) => `/api/user/${ownerToken(w)}/fullprofile` },
  'GET /api/user/:token/art': { url: (w) => `/api/user/${ownerToken(w)}/art` },
  'GET /api/user/:token/art/published': { url: (w) => `/api/user/${ownerToken(w)}/art/published` },
  // Likes and follows name the acting user first: that must be the viewer (nobody acts for another).
  'GET /api/user/:userToken/like/:otherToken': {
    url: (w) => `/api/user/${ownerToken(w)}/like/${otherToken(w)}`,
  },
  'PUT /api/user/:userToken/like/:otherToken': {
    url: (w) => `/api/user/${ownerToken(w)}/like/${otherToken(w)}`,
  },
  'DELETE /api/user/:userToken/like/:otherToken': {
    url: (w) => `/api/user/${ownerToken(w)}/like/${otherToken(w)}`,
  },
  'GET /api/user/:token/follow': { url: (w) => `/api/user/${ownerToken(w)}/follow` },
  'GET /api/user/:token/follow/:otherToken': {
    url: (w) => `/api/user/${ownerToken(w)}/follow/${otherToken(w)}`,
  },
  'PUT /api/user/:token/follow/:otherToken': {
    url: (w) => `/api/user/${ownerToken(w)}/follow/${otherToken(w)}`,
  },
  'DELETE /api/user/:token/follow/:otherToken': {
    url: (w) => `/api/user/${ownerToken(w)}/follow/${otherToken(w)}`,
  },
};
