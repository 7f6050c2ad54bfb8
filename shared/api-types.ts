/** Shapes of answers shared by the server and the client, beyond what tRPC infers. */

/**
 * How open tree pages follow the live tree (LIVE_TRANSPORT, decision 033): `events`, one event stream per viewer
 * (decision 023); `poll`, long-polls of /changes a shared cache in front can collapse into one.
 */
export type LiveTransport = 'events' | 'poll';

/** The page's initial parameters (docs/api.md, GET /api/initial-params), injected into index.html as JSON. */
export interface InitialParams {
  treeToken: string | null;
  settings: {
    imagePath: string;
    email: string;
    helpEmail: string;
    siteUrl: string;
    phone: string;
    /** The site's time zone: reservation deadlines are midnights there. */
    timeZone: string;
    /** How the tree page follows the live tree (the operator's LIVE_TRANSPORT). */
    liveTransport: LiveTransport;
  };
}

/** The signed-in user as the client sees it. */
export interface CurrentUser {
  token: string;
  firstname: string;
  lastname: string;
  email: string;
  role: number;
  showEmail: boolean;
  image: string | null;
  createdAt: number;
}

export interface CellSummary {
  token: string;
  row: number;
  column: number;
  type: number;
  status: number;
  treeToken: string;
}

/** The viewer's held square (docs/product.md, Reservations): the answer of a reserve and of user.reservedCell. */
export interface ReservedCell extends CellSummary {
  /** The draft (or submitted) piece on the square; status 0 is the draft the edit-reserved-cell popup asks about. */
  art: { token: string; status: number };
  expiresAt: number;
  /** How many reminder e-mails went out, and (updatedAt) when the last one, or the extension, happened. */
  reminderCount: number;
  updatedAt: number;
  extended: boolean;
  /** Whether POST /api/cell/{cellToken}/reserve/{reminderToken} would extend it now. */
  extensionAllowed: boolean;
  /** The reservation's own token (the reminder links' id): the holder's way to the extend page from the square. */
  reminderToken: string;
  /** The deadline an extension would give (decision 027). */
  extendedUntil: number;
}

/** The extend page's reservation (GET /api/cell/{cellToken}/reserve/{reminderToken}). */
export interface ReservationDetails {
  cellToken: string;
  /** 'active', 'submitted', 'expired' or 'released'. */
  state: string;
  expiresAt: number;
  reminderCount: number;
  updatedAt: number;
  extended: boolean;
  extensionAllowed: boolean;
  /** Why an extension is refused now (an error code of shared/errors.ts), or null when it is allowed. */
  refusal: 'extension_not_allowed' | 'reservation_expired' | null;
  /** The deadline the extension gives: midnight ending the day 7 days after the current deadline (decision 027). */
  extendedUntil: number;
}

/** The answer of a subscription to one square (cellToken) or to any square (null). */
export interface Subscription {
  cellToken: string | null;
  createdAt: number;
}
