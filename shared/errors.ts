/**
 * Error codes shared by the server (tRPC and REST answer with them) and the client (which maps them to the
 * locale table). Never match on message text: match on these.
 */

export const ErrorCode = {
  BadRequest: 'bad_request',
  ValidationFailed: 'validation_failed',
  Unauthenticated: 'unauthenticated',
  Forbidden: 'forbidden',
  CsrfFailed: 'csrf_failed',
  NotFound: 'not_found',
  TreeNotFound: 'tree_not_found',
  CellNotFound: 'cell_not_found',
  Conflict: 'conflict',
  RateLimited: 'rate_limited',
  InvalidCredentials: 'invalid_credentials',
  InvalidResetToken: 'invalid_reset_token',
  EmailTaken: 'email_taken',
  PayloadTooLarge: 'payload_too_large',
  /** The request's header section is over the server's limit (the HTTP parser refuses it). */
  HeadersTooLarge: 'headers_too_large',
  /** The request did not arrive whole in time. */
  RequestTimeout: 'request_timeout',
  /** A tRPC query sent as POST, or a mutation as GET. */
  MethodNotAllowed: 'method_not_allowed',
  /** A body in a type the route does not read (not JSON where JSON is expected). */
  UnsupportedMediaType: 'unsupported_media_type',
  Internal: 'internal_error',
  /** The server is at its limit for costly work (password hashing, image decoding): try again shortly. */
  Busy: 'busy',
  /** A write failed, or an upload was refused, for lack of disk space. */
  InsufficientStorage: 'insufficient_storage',
  // Reservations and subscriptions: the reserve, subscribe and extend calls answer these in r.error.
  CellNotAvailable: 'cell_not_available',
  AlreadyReserved: 'already_reserved',
  CellTaken: 'cell_taken',
  OutsideBranchArea: 'outside_branch_area',
  SlotOccupied: 'slot_occupied',
  SlotNotConnected: 'slot_not_connected',
  SlotTooConnected: 'slot_too_connected',
  ReservationNotFound: 'reservation_not_found',
  ExtensionNotAllowed: 'extension_not_allowed',
  ReservationExpired: 'reservation_expired',
  AlreadySubscribed: 'already_subscribed',
  AlreadyAvailable: 'already_available',
  // Art: saving, connections, likes.
  ArtNotFound: 'art_not_found',
  MainImageLocked: 'main_image_locked',
  PicturesLocked: 'pictures_locked',
  OwnArt: 'own_art',
  ConnectionNotAllowed: 'connection_not_allowed',
  // Staff review and the admin dashboard.
  ArtNotSubmitted: 'art_not_submitted',
  RemovalAlreadyDecided: 'removal_already_decided',
  OwnAccount: 'own_account',
  // Profiles, user likes and follows.
  UserNotFound: 'user_not_found',
  OwnProfile: 'own_profile',
  AlreadyFollowing: 'already_following',
  NotFollowing: 'not_following',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Field errors as a failed answer carries them (docs/api.md, Answers and errors): field name to its messages. */
export type FieldErrors = Record<string, string[]>;

/** The `r` of a failed REST answer, and the `data.app` of a failed tRPC call (docs/api.md, Answers and errors). */
export interface ErrorBody {
  error: ErrorCode;
  errors?: FieldErrors;
  message?: string;
}

/** HTTP status for each code; tRPC codes are derived from the same table on the server. */
export const httpStatusOf: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  unauthenticated: 401,
  forbidden: 403,
  csrf_failed: 403,
  not_found: 404,
  tree_not_found: 404,
  cell_not_found: 404,
  conflict: 409,
  rate_limited: 429,
  invalid_credentials: 401,
  invalid_reset_token: 400,
  email_taken: 409,
  payload_too_large: 413,
  headers_too_large: 431,
  request_timeout: 408,
  method_not_allowed: 405,
  unsupported_media_type: 415,
  internal_error: 500,
  busy: 503,
  insufficient_storage: 507,
  cell_not_available: 409,
  already_reserved: 409,
  cell_taken: 409,
  outside_branch_area: 400,
  slot_occupied: 409,
  slot_not_connected: 409,
  slot_too_connected: 409,
  reservation_not_found: 404,
  extension_not_allowed: 409,
  reservation_expired: 409,
  already_subscribed: 409,
  already_available: 409,
  art_not_found: 404,
  main_image_locked: 403,
  pictures_locked: 403,
  own_art: 403,
  connection_not_allowed: 400,
  art_not_submitted: 409,
  removal_already_decided: 409,
  own_account: 403,
  user_not_found: 404,
  own_profile: 403,
  already_following: 409,
  not_following: 409,
};
