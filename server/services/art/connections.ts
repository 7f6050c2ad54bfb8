/**
 * Connections between neighbouring pieces (docs/product.md, Pieces (art)): a piece may connect to the published pieces
 * among its square's 8 neighbours, each with a description. Saved ones show on the details of both pieces.
 */
import { and, between, eq, inArray, ne, or } from 'drizzle-orm';
import { art, cells, connections, pictures, users, tableAlias } from '#drizzle/tables.ts';
import type { ArtConnection } from '#shared/art-api.ts';
import { ArtStatus, ConnectionStatus } from '#shared/domain.ts';
import { ErrorCode, type FieldErrors } from '#shared/errors.ts';
import { write, type Db, type Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import { mayEditArt, type Viewer } from '../../permissions.ts';
import type { MediaUrlOf } from '../../storage/index.ts';
import { newToken } from '../../tokens.ts';
import type { ServiceContext } from '../context.ts';
import { mediaNameOf, editFacts, loadCellWithArt } from '../display/index.ts';

type NextCell = ArtConnection['next_cell'] & { cellId: number };

/** The published pieces on the 8 squares around (row, column), with what a connection shows of each. */
async function publishedNeighbours(
  q: Queryable,
  cell: { treeId: number; row: number; column: number },
  urlOf: MediaUrlOf,
): Promise<NextCell[]> {
  return (
    await q
      .select({
        cellId: cells.id,
        token: cells.token,
        row: cells.row,
        column: cells.column,
        artToken: art.token,
        title: art.title,
        year: art.year,
        mediaKey: pictures.mediaKey,
        authorToken: users.token,
        firstname: users.firstname,
        lastname: users.lastname,
      })
      .from(cells)
      .innerJoin(art, and(eq(art.id, cells.artId), eq(art.status, ArtStatus.Published)))
      .innerJoin(users, eq(users.id, art.authorId))
      .leftJoin(pictures, and(eq(pictures.artId, art.id), eq(pictures.position, 0)))
      .where(
        and(
          eq(cells.treeId, cell.treeId),
          between(cells.row, cell.row - 1, cell.row + 1),
          between(cells.column, cell.column - 1, cell.column + 1),
          or(ne(cells.row, cell.row), ne(cells.column, cell.column)),
        ),
      )
  ).map((n) => ({
    cellId: n.cellId,
    token: n.token,
    row: n.row,
    column: n.column,
    art: {
      token: n.artToken,
      title: n.title,
      year: n.year,
      picture: n.mediaKey ? { thumb: urlOf(mediaNameOf(n.mediaKey, 'thumb')) } : null,
      author: { token: n.authorToken, firstname: n.firstname, lastname: n.lastname },
    },
  }));
}

const withoutId = ({ cellId: _cellId, ...next }: NextCell): ArtConnection['next_cell'] => next;

async function editableCell(q: Queryable, viewer: Viewer, cellToken: string) {
  const found = await loadCellWithArt(q, cellToken);
  if (!mayEditArt(viewer, editFacts(found)))
    throw new AppError(ErrorCode.Forbidden, 'You may not edit the art of this square.');
  return found;
}

/** GET /api/cell/{cellToken}/connections: every possible connection, with this piece's choice and description. */
export async function listPossibleConnections(
  ctx: ServiceContext,
  viewer: Viewer,
  cellToken: string,
): Promise<ArtConnection[]> {
  const found = await editableCell(ctx.db, viewer, cellToken);
  const chosen = new Map(
    found.art
      ? (
          await ctx.db
            .select()
            .from(connections)
            .where(and(eq(connections.artId, found.art.id), eq(connections.status, ConnectionStatus.Selected)))
        ).map((c) => [c.nextCellId, c])
      : [],
  );
  return (await publishedNeighbours(ctx.db, found.cell, ctx.media.urlOf)).map((next) => {
    const saved = chosen.get(next.cellId);
    return {
      token: next.token,
      status: saved ? 1 : 0,
      description: saved?.description ?? '',
      next_cell: withoutId(next),
    };
  });
}

/**
 * POST /api/cell/{cellToken}/connections: the selected connections replace the piece's own, in one transaction.
 * Only the published neighbours may be chosen; the wizard sends this after the art itself is saved.
 */
export async function saveConnections(
  ctx: ServiceContext,
  viewer: Viewer,
  cellToken: string,
  input: { connections: { token: string; status: number; description: string }[] },
): Promise<ArtConnection[]> {
  const now = ctx.clock.now();
  await write(ctx.db, async (tx) => {
    // Read inside the transaction: the piece may have been removed, or the square released, since the request came.
    const found = await editableCell(tx, viewer, cellToken);
    if (!found.art) throw new AppError(ErrorCode.ArtNotFound, 'Save the piece before its connections.');
    const artId = found.art.id;
    const neighbours = new Map((await publishedNeighbours(tx, found.cell, ctx.media.urlOf)).map((n) => [n.token, n]));
    const errors: FieldErrors = {};
    const selected = new Map<number, string>();
    input.connections.forEach((item, index) => {
      if (item.status !== 1) return;
      const next = neighbours.get(item.token);
      if (!next)
        errors[`connections.${index}.token`] = ['Only a published piece next to this square can be connected.'];
      else selected.set(next.cellId, item.description);
    });
    if (Object.keys(errors).length)
      throw new AppError(ErrorCode.ConnectionNotAllowed, 'Some connections are not possible.', errors);
    const existing = await tx.select().from(connections).where(eq(connections.artId, artId));
    const dropped = existing.filter((c) => !selected.has(c.nextCellId)).map((c) => c.id);
    if (dropped.length) await tx.delete(connections).where(inArray(connections.id, dropped));
    for (const [nextCellId, description] of selected) {
      await tx
        .insert(connections)
        .values({
          token: newToken(),
          artId,
          nextCellId,
          description,
          status: ConnectionStatus.Selected,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [connections.artId, connections.nextCellId],
          set: { description, status: ConnectionStatus.Selected, updatedAt: now },
        });
    }
  });
  return await listPossibleConnections(ctx, viewer, cellToken);
}

/** A square as the connections listing needs it: which it is, and where (its neighbours are looked up around it). */
export interface SquarePlace {
  id: number;
  treeId: number;
  row: number;
  column: number;
}

/**
 * The connections shown on a piece's details (GET /api/cell/{cellToken}/connections/active): the ones it made and
 * the ones made to its square, wherever the other piece is published and still on its square.
 */
export async function listActiveConnections(
  db: Db | Queryable,
  cell: SquarePlace,
  artId: number,
  urlOf: MediaUrlOf,
): Promise<ArtConnection[]> {
  const cellId = cell.id;
  const neighbours = await publishedNeighbours(db, cell, urlOf);
  if (neighbours.length === 0) return [];
  const byCell = new Map(neighbours.map((n) => [n.cellId, n]));
  const otherArt = tableAlias(art, 'other_art');
  const outgoing = await db
    .select({ nextCellId: connections.nextCellId, description: connections.description })
    .from(connections)
    .where(and(eq(connections.artId, artId), eq(connections.status, ConnectionStatus.Selected)));
  const incoming = await db
    .select({ fromCellId: otherArt.cellId, description: connections.description })
    .from(connections)
    .innerJoin(otherArt, eq(otherArt.id, connections.artId))
    .innerJoin(cells, and(eq(cells.id, otherArt.cellId), eq(cells.artId, otherArt.id)))
    .where(and(eq(connections.nextCellId, cellId), eq(connections.status, ConnectionStatus.Selected)));
  const out = new Map<number, ArtConnection>();
  for (const [otherCellId, description] of [
    ...outgoing.map((c) => [c.nextCellId, c.description] as const),
    ...incoming.map((c) => [c.fromCellId, c.description] as const),
  ]) {
    const next = byCell.get(otherCellId);
    if (next && !out.has(otherCellId))
      out.set(otherCellId, {
        token: next.token,
        status: ConnectionStatus.Selected,
        description,
        next_cell: withoutId(next),
      });
  }
  return [...out.values()];
}

/** GET /api/cell/{cellToken}/connections/active: public for a published piece, like its details. */
export async function getActiveConnections(
  ctx: ServiceContext,
  viewer: Viewer,
  cellToken: string,
): Promise<ArtConnection[]> {
  const found = await loadCellWithArt(ctx.db, cellToken);
  const piece = found.art;
  const mayView =
    piece &&
    (piece.status === ArtStatus.Published ||
      (viewer && (viewer.id === piece.authorId || mayEditArt(viewer, editFacts(found)))));
  if (!piece || !mayView) return [];
  return listActiveConnections(ctx.db, found.cell, piece.id, ctx.media.urlOf);
}
