/**
 * Shapes of the profile and social answers (server/routers/user*.ts, misc.zip): fields in snake_case where docs/api.md
 * names them so. Every image is a media URL or null (the placeholder avatar is the client's).
 */

/** GET /api/user/{token}/profile: what anyone may see (the e-mail only when the owner chose show_email). */
export interface PublicProfile {
  token: string;
  firstname: string;
  lastname: string;
  role: number;
  image: string | null;
  /** The address line's parts: city, zipcode, state (code for the US), country code and its English name. */
  city: string;
  zipcode: string;
  state: string;
  country: string;
  countryName: string;
  /** Null unless the owner set show_email. */
  email: string | null;
  personal_url: string;
  fb_url: string;
  tw_url: string;
  tt_url: string;
  in_url: string;
  /** The BIO. */
  description: string;
  exhibitions: string;
  education: string;
  /** MEMBER SINCE (epoch ms). */
  created_at: number;
  /** Counts never below 0: likes of this user, and how many follow them. */
  activity: { likes: number; followers: number };
}

/** The profile form's fields: the multipart fields of POST /api/user/{token}/profile without the image. */
export interface ProfileFields {
  zipcode: string;
  country: string;
  city: string;
  state: string;
  description: string;
  exhibitions: string;
  education: string;
  personal_url: string;
  fb_url: string;
  tw_url: string;
  tt_url: string;
  in_url: string;
}

/** GET /api/user/{token}/fullprofile (owner or admin), and the answer of a profile update. */
export interface FullProfile extends ProfileFields {
  token: string;
  /** The avatar's media URL, null for the placeholder. */
  image: string | null;
}

/** Size as a card or the atelier shows it: 'No size' when no_size, else 'W x H x D units'. */
export interface ArtSize {
  width: string;
  height: string;
  depth: string;
  units: string;
  no_size: boolean;
}

/** One row of ATELIER (GET /api/user/{token}/art): the user's squares with a piece, drafts included, newest first. */
export interface AtelierItem extends ArtSize {
  cellToken: string;
  /** The CellStatus (0 pending, 1 reserved, 2 published, 3 available). */
  cellStatus: number;
  /** The cell type (1 trunk, 3 branch). */
  cellType: number;
  treeToken: string;
  row: number;
  column: number;
  artToken: string;
  /** The art status (0 draft: UPLOAD ARTWORK; 1 submitted; 2 published; 3 changes requested). */
  status: number;
  title: string;
  category: string;
  /** The first picture's thumbnail, null for a draft without pictures. */
  thumb: string | null;
  created_at: number;
  updated_at: number;
  /** The reservation's deadline while the square is held for this draft, else null. */
  reservedUntil: number | null;
  activity: { likes: number; reviews: number };
}

/** One card of the public profile's ART list (GET /api/user/{token}/art/published), newest first. */
export interface PublishedArtCard extends ArtSize {
  cellToken: string;
  cellStatus: number;
  cellType: number;
  row: number;
  column: number;
  artToken: string;
  title: string;
  year: number | null;
  category: string;
  thumb: string | null;
  created_at: number;
  activity: { likes: number; reviews: number };
  /** Active connections: the connected square's token (for its artDetails) and its piece's thumbnail. */
  connections: { cellToken: string; thumb: string | null }[];
}

/** GET/PUT/DELETE /api/user/{userToken}/like/{otherToken}. */
export interface UserLikeStatus {
  liked: 0 | 1;
  likes: number;
}

/** GET/PUT/DELETE /api/user/{token}/follow/{otherToken}. */
export interface FollowStatus {
  following: 0 | 1;
  followers: number;
}

/** One row of FOLLOWING (GET /api/user/{token}/follow), most recently followed first. */
export interface FollowedUser {
  token: string;
  firstname: string;
  lastname: string;
  image: string | null;
  city: string;
  country: string;
  /** When the viewer followed them (DATE FOLLOWED). */
  created_at: number;
}

/** GET /api/misc/zip/{zip}: a US ZIP's place, or null when unknown (never an error). */
export type ZipPlace = { city: string; state: string } | null;
