/**
 * A square's piece as its artist sees it: the editor's data and saving, connections, the details page, the
 * feed, removal requests, the atelier, and a published piece as other sites see it (sharing).
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export { checkArtSaveAccess, getArtDetails, getArtForEdit, publishedPieceForSharing, saveArt } from './art.ts';
export type { ArtSubmission, ImageSlot } from './art.ts';
export { getActiveConnections, listPossibleConnections, saveConnections } from './connections.ts';
export { newestPublished } from './feed.ts';
export { requestRemoval } from './removal-requests.ts';
export { drawSurroundings, SURROUNDINGS_RADIUS, sharedPieceWithSurroundings } from './sharing.ts';
export type { SharedPiece } from './sharing.ts';
export { listAtelier, listPublishedArt } from './user-art.ts';
