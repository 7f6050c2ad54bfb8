/**
 * The whole data model (docs/product.md, "Squares (cells)" and "Pieces (art)"). Numeric ids stay inside the server;
 * every row a URL names has a random token. Times are unix milliseconds. drizzle-kit generates migrations/ from it.
 */
import { sql } from 'drizzle-orm';
import { blob, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { RESERVATION_STATES } from '#shared/domain.ts';

const createdAt = () => integer('created_at').notNull();
const updatedAt = () => integer('updated_at').notNull();

export const users = sqliteTable(
  'users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    token: text('token').notNull().unique(),
    /** Stored lower-cased and trimmed: addresses compare case-insensitively. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstname: text('firstname').notNull(),
    lastname: text('lastname').notNull(),
    role: integer('role').notNull().default(1),
    showEmail: integer('show_email', { mode: 'boolean' }).notNull().default(false),
    /** Media key of the avatar, null for the placeholder. */
    image: text('image'),
    description: text('description').notNull().default(''),
    exhibitions: text('exhibitions').notNull().default(''),
    education: text('education').notNull().default(''),
    personalUrl: text('personal_url').notNull().default(''),
    fbUrl: text('fb_url').notNull().default(''),
    twUrl: text('tw_url').notNull().default(''),
    ttUrl: text('tt_url').notNull().default(''),
    inUrl: text('in_url').notNull().default(''),
    zipcode: text('zipcode').notNull().default(''),
    country: text('country').notNull().default(''),
    state: text('state').notNull().default(''),
    city: text('city').notNull().default(''),
    disabledAt: integer('disabled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email), index('users_role_idx').on(t.role)],
);

/** Sessions the Lucia way: the cookie holds `<id>.<secret>`; only the secret's SHA-256 is kept. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    secretHash: blob('secret_hash', { mode: 'buffer' }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastVerifiedAt: integer('last_verified_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at').notNull(),
    usedAt: integer('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('password_reset_user_idx').on(t.userId)],
);

/**
 * The networks (an IPv4 address, an IPv6 /64: networkOf) an account last signed in from, a few per account (decision
 * 040): once the account has had too many wrong passwords, only these (and a reset link) still get in.
 */
export const loginNetworks = sqliteTable(
  'login_networks',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    network: text('network').notNull(),
    lastAt: integer('last_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.network] })],
);

export const trees = sqliteTable('trees', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  token: text('token').notNull().unique(),
  name: text('name').notNull(),
  /** TreeSettings of shared/tree/geometry.ts as JSON. */
  settings: text('settings', { mode: 'json' }).notNull(),
  /** The last sequence number of the tree's change log (tree_changes): every change to its cells moves it. */
  version: integer('version').notNull().default(1),
  /** The oldest version the log can still bring up to date: an older one must fetch the whole snapshot again. */
  changesFrom: integer('changes_from').notNull().default(0),
  createdAt: createdAt(),
});

/**
 * The tree's change log (docs/decisions/023): one row per change to a cell the snapshot shows, written in the same
 * transaction as the change. A row without a cell marks a change too large to log cell by cell (a seed, a
 * generated tree): whoever is older than it fetches the snapshot again. Pruned by age and count.
 */
export const treeChanges = sqliteTable(
  'tree_changes',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    treeId: integer('tree_id')
      .notNull()
      .references(() => trees.id, { onDelete: 'cascade' }),
    cellId: integer('cell_id'),
    at: integer('at').notNull(),
  },
  (t) => [index('tree_changes_tree_seq_idx').on(t.treeId, t.seq)],
);

export const cells = sqliteTable(
  'cells',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    token: text('token').notNull().unique(),
    treeId: integer('tree_id')
      .notNull()
      .references(() => trees.id, { onDelete: 'cascade' }),
    row: integer('row').notNull(),
    column: integer('column').notNull(),
    type: integer('type').notNull(),
    status: integer('status').notNull(),
    /** The cell's current art (draft, under review or published); null when empty. */
    artId: integer('art_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('cells_position_unique').on(t.treeId, t.row, t.column),
    index('cells_tree_status_idx').on(t.treeId, t.status),
    index('cells_art_idx').on(t.artId),
  ],
);

export const art = sqliteTable(
  'art',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    token: text('token').notNull().unique(),
    cellId: integer('cell_id')
      .notNull()
      .references(() => cells.id),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id),
    status: integer('status').notNull().default(0),
    title: text('title').notNull().default(''),
    year: integer('year'),
    category: text('category').notNull().default(''),
    subject: text('subject').notNull().default(''),
    style: text('style').notNull().default(''),
    medium: text('medium', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    materials: text('materials', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    keywords: text('keywords', { mode: 'json' })
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'`),
    description: text('description').notNull().default(''),
    width: text('width').notNull().default(''),
    height: text('height').notNull().default(''),
    depth: text('depth').notNull().default(''),
    units: text('units').notNull().default('in'),
    noSize: integer('no_size', { mode: 'boolean' }).notNull().default(false),
    /** Honesty: 'none', 'assisted' or 'generated'. */
    aiUse: text('ai_use').notNull().default('none'),
    /** 0xRRGGBB of the main picture, computed at upload. */
    dominantColor: integer('dominant_color'),
    /** Staff's reason when changes were requested. */
    reviewNote: text('review_note'),
    submittedAt: integer('submitted_at'),
    publishedAt: integer('published_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('art_cell_idx').on(t.cellId),
    index('art_author_idx').on(t.authorId, t.createdAt),
    index('art_status_idx').on(t.status, t.submittedAt),
    // The dashboard's pieces published a week (admin overview): a range of the index, not every piece read.
    index('art_published_idx').on(t.publishedAt),
  ],
);

export const pictures = sqliteTable(
  'pictures',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    token: text('token').notNull().unique(),
    artId: integer('art_id')
      .notNull()
      .references(() => art.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    /** Content hash naming the stored files (thumbnail and large sizes). */
    mediaKey: text('media_key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** What the picture shows, in the artist's words, for people who cannot see it (alt text); '' when not given. */
    description: text('description').notNull().default(''),
    /**
     * The narrower widths stored beside the large size, named by the media key (decision 047): space-separated
     * `<width>.<format>` (`480.webp 480.avif 800.webp`); '' for pictures stored before them, shown by the large size.
     */
    sizes: text('sizes').notNull().default(''),
    /**
     * The deep-zoom tile pyramid of the picture at its uploaded resolution (decision 048): 'none' (the upload was no
     * larger than the large size, or was stored before pyramids), 'building' (queued or being cut), 'ready', 'failed'.
     */
    pyramid: text('pyramid').notNull().default('none'),
    /** The kept upload a 'building' pyramid is cut from (`<key>-src-<random>.orig`); null once built or failed. */
    pyramidSource: text('pyramid_source'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pictures_art_position_unique').on(t.artId, t.position),
    index('pictures_media_idx').on(t.mediaKey),
    // The pyramid job's queue: the few pictures being built, found without reading every picture.
    index('pictures_pyramid_idx').on(t.pyramid),
  ],
);

/** A proposed or active link from one piece to a neighbouring cell (8 connection points a square). */
export const connections = sqliteTable(
  'connections',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    token: text('token').notNull().unique(),
    artId: integer('art_id')
      .notNull()
      .references(() => art.id, { onDelete: 'cascade' }),
    nextCellId: integer('next_cell_id')
      .notNull()
      .references(() => cells.id),
    description: text('description').notNull(),
    /** 1 selected/active, 0 not. */
    status: integer('status').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('connections_pair_unique').on(t.artId, t.nextCellId),
    index('connections_next_idx').on(t.nextCellId),
  ],
);

/** A member's hold on one square (docs/product.md, Reservations); its token is the extend link's reminder token. */
export const reservations = sqliteTable(
  'reservations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    token: text('token').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    cellId: integer('cell_id')
      .notNull()
      .references(() => cells.id),
    state: text('state', { enum: RESERVATION_STATES }).notNull().default('active'),
    expiresAt: integer('expires_at').notNull(),
    reminderCount: integer('reminder_count').notNull().default(0),
    extended: integer('extended', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One held square a user and one holder a square, whatever the interleaving (decision 008).
    uniqueIndex('reservations_one_per_user')
      .on(t.userId)
      .where(sql`state = 'active'`),
    uniqueIndex('reservations_one_per_cell')
      .on(t.cellId)
      .where(sql`state = 'active'`),
    index('reservations_state_expiry_idx').on(t.state, t.expiresAt),
  ],
);

/** "Tell me when this square (or any square, cell null) becomes available." Used up when told. */
export const subscriptions = sqliteTable(
  'subscriptions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cellId: integer('cell_id').references(() => cells.id),
    createdAt: createdAt(),
    notifiedAt: integer('notified_at'),
  },
  (t) => [index('subscriptions_cell_idx').on(t.cellId, t.notifiedAt), index('subscriptions_user_idx').on(t.userId)],
);

export const artLikes = sqliteTable(
  'art_likes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    artId: integer('art_id')
      .notNull()
      .references(() => art.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.artId] }), index('art_likes_art_idx').on(t.artId)],
);

export const userLikes = sqliteTable(
  'user_likes',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    likedUserId: integer('liked_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.likedUserId] }), index('user_likes_liked_idx').on(t.likedUserId)],
);

export const follows = sqliteTable(
  'follows',
  {
    followerId: integer('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followedId: integer('followed_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.followerId, t.followedId] }), index('follows_followed_idx').on(t.followedId)],
);

/** Views of a piece ("reviews" in the API; docs/product.md, Glossary): one a viewer, a user or a hashed visitor key. */
export const artViews = sqliteTable(
  'art_views',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    artId: integer('art_id')
      .notNull()
      .references(() => art.id, { onDelete: 'cascade' }),
    viewerKey: text('viewer_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('art_views_viewer_unique').on(t.artId, t.viewerKey)],
);

export const removalRequests = sqliteTable(
  'removal_requests',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    token: text('token').notNull().unique(),
    artId: integer('art_id')
      .notNull()
      .references(() => art.id),
    requesterId: integer('requester_id').references(() => users.id),
    email: text('email').notNull(),
    reason: text('reason').notNull(),
    /** 'open', 'accepted', 'declined'. */
    state: text('state').notNull().default('open'),
    decidedBy: integer('decided_by').references(() => users.id),
    decisionNote: text('decision_note'),
    decidedAt: integer('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [index('removal_requests_state_idx').on(t.state, t.createdAt)],
);

export const contactMessages = sqliteTable(
  'contact_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').references(() => users.id),
    email: text('email').notNull(),
    reason: text('reason').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    handledAt: integer('handled_at'),
    handledBy: integer('handled_by').references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_handled_idx').on(t.handledAt, t.createdAt)],
);

/** Every e-mail goes through here and is sent by the job runner: a crash loses none and sends none twice. */
export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Makes enqueueing idempotent: the same key is queued once. */
    dedupeKey: text('dedupe_key').unique(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    kind: text('kind').notNull(),
    /** 'queued', 'sending', 'sent', 'failed'. */
    state: text('state').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: integer('next_attempt_at').notNull(),
    createdAt: createdAt(),
    sentAt: integer('sent_at'),
    /** The process sending it while state is 'sending' (decision 025); another may take it over after claim_until. */
    claimedBy: text('claimed_by'),
    claimUntil: integer('claim_until'),
  },
  (t) => [index('mail_outbox_state_idx').on(t.state, t.nextAttemptAt)],
);

/**
 * One row per background job (decision 025): the process running it now and until when its claim holds, and when
 * the job is next due, so that however many processes share the database each run happens once.
 */
export const jobLeases = sqliteTable('job_leases', {
  name: text('name').primaryKey(),
  owner: text('owner'),
  leaseUntil: integer('lease_until').notNull().default(0),
  nextRunAt: integer('next_run_at').notNull().default(0),
  lastRunAt: integer('last_run_at'),
});

/** Who on the staff did what, and when (the admin dashboard shows it). */
export const staffActions = sqliteTable(
  'staff_actions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    staffId: integer('staff_id')
      .notNull()
      .references(() => users.id),
    action: text('action').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectToken: text('subject_token').notNull(),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [index('staff_actions_created_idx').on(t.createdAt)],
);

/** Attempts per key and window for the rate limits (docs/product.md, Limits), kept in the database across restarts. */
export const rateLimitHits = sqliteTable(
  'rate_limit_hits',
  {
    key: text('key').notNull(),
    windowStart: integer('window_start').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);
