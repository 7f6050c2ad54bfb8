/** Shapes of the art answers: the editor's form data, the details page, connections, likes. */
import type { AiUse } from './constants.ts';
import type { ConnectionStatus } from './domain.ts';

export interface ArtPicture {
  token: string;
  /** Media URLs: the tree's thumbnail and the details page's large size. */
  thumb: string;
  image: string;
  width: number;
  height: number;
  /** What the picture shows, in the artist's words (its alt text); '' when the artist gave none. */
  description: string;
  /**
   * Every stored width of the large picture, narrowest first, the large size (`image`) among them as WebP, and AVIF
   * beside a width where it was smaller (decision 047); a picture stored before the widths has the large size only.
   */
  variants: PictureVariantUrl[];
  /**
   * The picture's deep-zoom pyramid (decision 048): `building` while the upload is cut into tiles, `ready` with the
   * descriptor's address (docs/api.md), `failed` when it could not be cut, `none` for a picture no larger than its
   * large size (or stored before pyramids). Pages offer the zoom only when it is ready.
   */
  deepZoom: { state: 'none' | 'building' | 'ready' | 'failed'; descriptor: string | null };
}

/** One stored width of a picture, for a `srcset`. */
export interface PictureVariantUrl {
  width: number;
  type: 'image/webp' | 'image/avif';
  url: string;
}

/** The text fields of a piece, named as the art save's form fields (docs/api.md, POST /api/cell/{cellToken}). */
export interface ArtFields {
  title: string;
  year: number | null;
  category: string;
  subject: string;
  style: string;
  medium: string[];
  materials: string[];
  keywords: string[];
  description: string;
  width: string;
  height: string;
  depth: string;
  units: string;
  no_size: boolean;
  ai_use: AiUse;
}

export interface ArtCellRef {
  token: string;
  row: number;
  column: number;
  status: number;
  treeToken: string;
}

/** art.forEdit: what the wizard loads. `art` is null when the viewer may not edit or the square has no piece yet. */
export interface ArtForEdit {
  cell: ArtCellRef;
  mayEdit: boolean;
  /** True when the square has no piece of the viewer's yet: the page title is 'add.', else 'edit.'. */
  isNew: boolean;
  art:
    | (ArtFields & {
        token: string;
        status: number;
        /** Staff's reason, shown while the status is CHANGES_REQUESTED (3). */
        reviewNote: string | null;
        pictures: ArtPicture[];
        /** A published piece's main image changes only through an admin (docs/product.md, Pieces (art)). */
        mainImageLocked: boolean;
      })
    | null;
}

export interface ArtAuthor {
  token: string;
  firstname: string;
  lastname: string;
  image: string | null;
  description: string;
}

/** A connection to a neighbouring piece (docs/product.md, Pieces (art)): token is the neighbouring CELL's token. */
export interface ArtConnection {
  token: string;
  status: ConnectionStatus;
  description: string;
  next_cell: {
    token: string;
    row: number;
    column: number;
    art: {
      token: string;
      title: string;
      year: number | null;
      picture: { thumb: string } | null;
      author: { token: string; firstname: string; lastname: string };
    };
  };
}

/** art.details: the details page. Published pieces are public; the author and admins also see the others. */
export interface ArtDetails extends ArtFields {
  token: string;
  status: number;
  created_at: number;
  cell: ArtCellRef;
  pictures: ArtPicture[];
  picture: { thumb: string } | null;
  author: ArtAuthor;
  activity: { likes: number; reviews: number };
  connections: ArtConnection[];
  /** Whether the EDIT button shows (author or admin). */
  mayEdit: boolean;
  /** The author's open removal request (null for everyone else, or when none is open). */
  removalRequest: { token: string; state: string; createdAt: number } | null;
}

export interface LikeStatus {
  liked: 0 | 1;
  likes: number;
}

/** One search result: a published piece with its square and artist (the search popup's row). */
export interface SearchHit {
  cellToken: string;
  row: number;
  column: number;
  cellType: number;
  cellStatus: number;
  artToken: string;
  title: string;
  category: string;
  artist: string;
  artistToken: string;
  artistFirstname: string;
  artistLastname: string;
  /** Thumbnail URL of the main picture, null when it has none. */
  thumb: string | null;
  /** When the piece went live (ms since the epoch): the table's "date added". */
  addedAt: number;
  aiUse: AiUse;
}
