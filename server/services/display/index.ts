/**
 * How the other rooms show a piece and its people: picture URLs and the main picture, links put in e-mails and
 * feeds, display names, a square read with its piece. A leaf: it imports no other room.
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export { detailsLinkOf, editLinkOf, extendLinkOf, slotLinkOf, treeLinkOf } from './links.ts';
export {
  formatPictureSizes,
  mediaNameOf,
  parsePictureSizes,
  pyramidDescriptorNameOf,
  pyramidTileNameOf,
  sizedMediaNameOf,
} from './media-names.ts';
export type { PictureSize } from './media-names.ts';
export { personRef } from './names.ts';
export { mainPictureOf, pictureUrls, pictureVariants, readPictures, thumbOf } from './pictures.ts';
export { editFacts, fieldsOf, loadCellWithArt } from './piece.ts';
export type { CellWithArt } from './piece.ts';
