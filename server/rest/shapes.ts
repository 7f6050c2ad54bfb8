/**
 * The REST answers in the product's shapes (decision 028). Every answer's keys become snake_case on the way out
 * (adapter.ts `answer`); the functions here rebuild the few answers whose shape differs from the procedure's. A
 * procedure's REST declaration names its shape from REST_SHAPES (decision 036).
 */
import type { CellSummary, CurrentUser } from '#shared/api-types.ts';
import type { ArtDetails, SearchHit } from '#shared/art-api.ts';
import { ArtStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { AtelierItem, PublishedArtCard, ZipPlace } from '#shared/profile-api.ts';
import { AppError } from '../errors.ts';

const pictureOf = (thumb: string | null) => (thumb ? { thumb } : null);

/** The piece as a cell carries it: the details page's piece without the cell, its connections and the viewer's rights. */
export function artOfDetails(details: ArtDetails) {
  const {
    cell: _cell,
    connections: _connections,
    mayEdit: _mayEdit,
    removalRequest: _removalRequest,
    ...art
  } = details;
  return art;
}

/** A cell with the piece the viewer may see on it (null when none) and that piece's connections. */
export function cellWithArt(cell: CellSummary, details: ArtDetails | null) {
  return { ...cell, art: details && artOfDetails(details), connections: details?.connections ?? [] };
}

/** A search hit as the cell it names, carrying what the results table shows of its piece. */
function searchCell(hit: SearchHit) {
  return {
    token: hit.cellToken,
    row: hit.row,
    column: hit.column,
    type: hit.cellType,
    status: hit.cellStatus,
    art: {
      token: hit.artToken,
      title: hit.title,
      category: hit.category,
      status: ArtStatus.Published,
      publishedAt: hit.addedAt,
      aiUse: hit.aiUse,
      picture: pictureOf(hit.thumb),
      author: { token: hit.artistToken, firstname: hit.artistFirstname, lastname: hit.artistLastname },
    },
  };
}

/** An ATELIER row as a cell with its piece; the reservation's deadline stays on the cell. */
function atelierCell(item: AtelierItem) {
  const { cellToken, row, column, cellType, cellStatus, treeToken, reservedUntil, artToken, thumb, ...piece } = item;
  return {
    token: cellToken,
    row,
    column,
    type: cellType,
    status: cellStatus,
    treeToken,
    reservedUntil,
    art: { token: artToken, ...piece, picture: pictureOf(thumb) },
  };
}

/** A public profile's ART card as a cell with its piece and its connections (the next cell and its thumbnail). */
function publishedCell(card: PublishedArtCard) {
  const { cellToken, row, column, cellType, cellStatus, artToken, thumb, connections, ...piece } = card;
  return {
    token: cellToken,
    row,
    column,
    type: cellType,
    status: cellStatus,
    art: { token: artToken, ...piece, picture: pictureOf(thumb) },
    connections: connections.map((next) => ({
      nextCell: { token: next.cellToken, art: { picture: pictureOf(next.thumb) } },
    })),
  };
}

/** A reservation names its count of reminder e-mails `reminder`. */
function withReminder<T extends { reminderCount: number }>(reservation: T) {
  const { reminderCount, ...rest } = reservation;
  return { ...rest, reminder: reminderCount };
}

/** The ZIP lookup answers as the external lookup it stands in for: city and state_short. */
function zipPlace(place: ZipPlace) {
  return place && { city: place.city, stateShort: place.state };
}

/** A reservation that may not exist: the held square, or null. */
function heldReservation<T extends { reminderCount: number }>(held: T | null) {
  return held && withReminder(held);
}

/** The current user over REST is for the signed-in: a guest gets 401 where tRPC's `auth.current` answers null. */
function signedInUser(user: CurrentUser | null): CurrentUser {
  if (!user) throw new AppError(ErrorCode.Unauthenticated, 'Nobody is signed in.');
  return user;
}

/** The shapes a procedure's REST declaration may name (`shape: 'reservation'`), each from the procedure's answer. */
export const REST_SHAPES = {
  searchCells: (hits: SearchHit[]) => hits.map(searchCell),
  reservation: withReminder,
  heldReservation,
  atelierCells: (items: AtelierItem[]) => items.map(atelierCell),
  publishedCells: (cards: PublishedArtCard[]) => cards.map(publishedCell),
  zipPlace,
  signedInUser,
};

export type RestShape = keyof typeof REST_SHAPES;
