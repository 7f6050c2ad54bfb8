/**
 * Pictures in the media storage: preparing uploads (sniffed, resized, re-encoded), writing them, and sweeping orphans.
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export { prepareArtImage, sniffImageType, sweepOrphanMedia, writePreparedPictures } from './art-media.ts';
export { MAX_INPUT_PIXELS, imageWork, storePicture, storedPictureColumns } from './images.ts';
export { buildQueuedPyramids, PYRAMID_JOB_EVERY_MS, pyramidFileNames } from './pyramids.ts';
export type { PreparedPicture, StoredPicture } from './images.ts';
