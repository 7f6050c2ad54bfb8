/**
 * Staff review: the queue, one piece in full, publishing and asking for changes.
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export { getReviewItem, listReviewQueue, publishArt, requestChanges } from './review.ts';
