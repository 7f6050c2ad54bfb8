/**
 * Shapes of the admin router's answers, for the staff dashboard at /admin/dashboard. Times are unix milliseconds.
 * Contact messages and reservations are named by their numeric id (only staff see it; messages have no token),
 * everything else by its token.
 */
import type { ArtFields, ArtPicture } from './art-api.ts';

/** Rows on one page of a dashboard list; pages are numbered from 1. */
export const ADMIN_PAGE_SIZE = 50;
export const OVERVIEW_WEEKS = 26;

/** What the staff_actions table records in its `action` column. */
export const StaffAction = {
  Publish: 'publish',
  RequestChanges: 'request_changes',
  AcceptRemoval: 'accept_removal',
  DeclineRemoval: 'decline_removal',
  MarkMessageHandled: 'mark_message_handled',
  SetRole: 'set_role',
  DisableUser: 'disable_user',
  EnableUser: 'enable_user',
  ReleaseReservation: 'release_reservation',
} as const;
export type StaffAction = (typeof StaffAction)[keyof typeof StaffAction];

export const REMOVAL_STATES = ['open', 'accepted', 'declined'] as const;
export type RemovalState = (typeof REMOVAL_STATES)[number];

/** A person as the dashboard lists them. */
export interface AdminPersonRef {
  token: string;
  name: string;
}

export interface AdminCounts {
  piecesPublished: number;
  submittedWaiting: number;
  reservationsActive: number;
  users: number;
  openRemovalRequests: number;
  unhandledMessages: number;
}

/** One week of the growth charts. */
export interface AdminWeek {
  /** Monday 00:00 UTC. */
  weekStart: number;
  published: number;
  reservationsMade: number;
  reservationsExpired: number;
  newUsers: number;
}

/** admin.overview: the counts and OVERVIEW_WEEKS weeks, oldest first, the current week last. */
export interface AdminOverview {
  counts: AdminCounts;
  weeks: AdminWeek[];
}

/** admin.queue: one SUBMITTED piece, oldest submission first. */
export interface QueueItem {
  artToken: string;
  cellToken: string;
  title: string;
  author: AdminPersonRef;
  submittedAt: number;
  /** The main picture's thumbnail URL. */
  thumb: string | null;
}

/** A proposed or active connection with the neighbour it points at. */
export interface ReviewConnection {
  cellToken: string;
  row: number;
  column: number;
  description: string;
  /** 1 active (published piece), 0 not. */
  status: number;
  /** The neighbour's current piece, when it has one. */
  neighbour: { artToken: string; title: string; thumb: string | null; author: AdminPersonRef } | null;
}

/** The artist's other pieces (any status) in the review view. */
export interface ArtistPiece {
  artToken: string;
  cellToken: string;
  title: string;
  status: number;
  thumb: string | null;
}

/** admin.reviewItem: everything staff need to decide on one piece. */
export interface ReviewItem {
  art: ArtFields & {
    token: string;
    status: number;
    reviewNote: string | null;
    submittedAt: number | null;
    publishedAt: number | null;
    createdAt: number;
    updatedAt: number;
  };
  /** Every image: `image` is the large size, width/height the original's. */
  pictures: ArtPicture[];
  connections: ReviewConnection[];
  cell: { token: string; treeToken: string; row: number; column: number; type: number; status: number };
  artist: AdminPersonRef & { firstname: string; lastname: string; email: string; role: number };
  otherPieces: ArtistPiece[];
}

/** admin.publish: the tokens of the squares the growth opened. */
export interface PublishResult {
  artToken: string;
  cellToken: string;
  openedCellTokens: string[];
}

/** admin.requestChanges */
export interface RequestChangesResult {
  artToken: string;
  status: number;
  reviewNote: string;
}

/** admin.removalRequests: one request with its piece. */
export interface AdminRemovalRequest {
  token: string;
  state: RemovalState;
  reason: string;
  email: string;
  createdAt: number;
  requester: AdminPersonRef | null;
  art: { token: string; cellToken: string; title: string; status: number; thumb: string | null };
  decidedBy: AdminPersonRef | null;
  decisionNote: string | null;
  decidedAt: number | null;
}

/** admin.messages: a contact message. */
export interface AdminMessage {
  id: number;
  email: string;
  reason: string;
  subject: string;
  message: string;
  createdAt: number;
  /** The signed-in sender, when there was one. */
  user: AdminPersonRef | null;
  handledAt: number | null;
  handledBy: AdminPersonRef | null;
}

export interface AdminUser {
  token: string;
  firstname: string;
  lastname: string;
  email: string;
  role: number;
  disabled: boolean;
  createdAt: number;
}

export interface AdminPage<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

/** admin.reservations: an active reservation. */
export interface AdminReservation {
  id: number;
  cell: { token: string; treeToken: string; row: number; column: number; type: number };
  user: AdminPersonRef & { email: string };
  createdAt: number;
  expiresAt: number;
  extended: boolean;
  /** The holder's piece on the square (ArtStatus: a draft, or changes requested), null when there is none. */
  artStatus: number | null;
}

/** admin.staffLog: one staff action, newest first. */
export interface StaffLogEntry {
  id: number;
  staff: AdminPersonRef;
  action: string;
  subjectType: string;
  subjectToken: string;
  note: string | null;
  createdAt: number;
}

/** What every mutation without a richer answer returns. */
export interface AdminOk {
  ok: true;
}
