/**
 * Removal requests (decisions 009 and 011): an author asks, from the details page, for their published piece to be
 * taken down; the request is stored for staff, who accept (the piece becomes REMOVED) or decline it.
 */
import { and, eq } from 'drizzle-orm';
import { art, removalRequests, users } from '#drizzle/tables.ts';
import { ArtStatus } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { AppError } from '../../errors.ts';
import { mayRequestRemoval, type Viewer } from '../../permissions.ts';
import { newToken } from '../../tokens.ts';
import { loadCellWithArt } from '../display/index.ts';
import type { ServiceContext } from '../context.ts';
import { write } from '../../db.ts';

export interface RemovalRequestAnswer {
  token: string;
  state: string;
  createdAt: number;
}

/** The piece's open request, if any (the details page shows it to the author instead of the action). */
export async function openRemovalRequestOf(ctx: ServiceContext, artId: number): Promise<RemovalRequestAnswer | null> {
  return (
    (
      await ctx.db
        .select({ token: removalRequests.token, state: removalRequests.state, createdAt: removalRequests.createdAt })
        .from(removalRequests)
        .where(and(eq(removalRequests.artId, artId), eq(removalRequests.state, 'open')))
        .limit(1)
    )[0] ?? null
  );
}

export const NOT_PUBLISHED_MESSAGE =
  'Only a published piece can be taken down at its artist’s request, and this piece is not published.';

/**
 * Stores the author's request for their published piece; asking again while one is open answers that one. A piece
 * that is not published (a draft, waiting for review, changes requested) is refused with a conflict.
 */
export async function requestRemoval(
  ctx: ServiceContext,
  viewer: Viewer,
  cellToken: string,
  reason: string,
): Promise<RemovalRequestAnswer> {
  const piece = (await loadCellWithArt(ctx.db, cellToken)).art;
  if (!piece) throw new AppError(ErrorCode.ArtNotFound, 'This square has no art.');
  if (!viewer || !mayRequestRemoval(viewer, piece))
    throw new AppError(ErrorCode.Forbidden, 'Only the artist can ask for this piece to be removed.');
  const now = ctx.clock.now();
  return write(ctx.db, async (tx) => {
    // Read again under the write lock: staff may have just changed the piece's status.
    const status = (await tx.select({ status: art.status }).from(art).where(eq(art.id, piece.id)))[0]?.status;
    if (status !== ArtStatus.Published) throw new AppError(ErrorCode.Conflict, NOT_PUBLISHED_MESSAGE);
    const open = (
      await tx
        .select({ token: removalRequests.token, state: removalRequests.state, createdAt: removalRequests.createdAt })
        .from(removalRequests)
        .where(and(eq(removalRequests.artId, piece.id), eq(removalRequests.state, 'open')))
        .limit(1)
    )[0];
    if (open) return open;
    const email = (await tx.select({ email: users.email }).from(users).where(eq(users.id, viewer.id)))[0]!.email;
    const token = newToken();
    await tx
      .insert(removalRequests)
      .values({ token, artId: piece.id, requesterId: viewer.id, email, reason, state: 'open', createdAt: now });
    return { token, state: 'open', createdAt: now };
  });
}
