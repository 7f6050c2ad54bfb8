/**
 * Removal requests (spec §2 FAQs, DESIGN.md §4): an author asks, from the details page, for their piece to be taken
 * down; the request is stored for staff, who accept (the piece becomes REMOVED, issue 8) or decline it.
 */
import { and, eq } from 'drizzle-orm';
import { removalRequests, users } from '#drizzle/schema.ts';
import { ErrorCode } from '#shared/errors.ts';
import { AppError } from '../errors.ts';
import { mayRequestRemoval, type Viewer } from '../permissions.ts';
import { newToken } from '../tokens.ts';
import { loadCellWithArt } from './art.ts';
import type { ServiceContext } from './context.ts';

export interface RemovalRequestAnswer {
  token: string;
  state: string;
  createdAt: number;
}

/** The piece's open request, if any (the details page shows it to the author instead of the action). */
export function openRemovalRequestOf(ctx: ServiceContext, artId: number): RemovalRequestAnswer | null {
  return (
    ctx.db
      .select({ token: removalRequests.token, state: removalRequests.state, createdAt: removalRequests.createdAt })
      .from(removalRequests)
      .where(and(eq(removalRequests.artId, artId), eq(removalRequests.state, 'open')))
      .get() ?? null
  );
}

/** Stores the author's request; asking again while one is open answers that one. */
export function requestRemoval(ctx: ServiceContext, viewer: Viewer, cellToken: string, reason: string): RemovalRequestAnswer {
  const piece = loadCellWithArt(ctx.db, cellToken).art;
  if (!piece) throw new AppError(ErrorCode.ArtNotFound, 'This square has no art.');
  if (!viewer || !mayRequestRemoval(viewer, piece)) throw new AppError(ErrorCode.Forbidden, 'Only the artist can ask for this piece to be removed.');
  const now = ctx.clock.now();
  return ctx.db.transaction((tx) => {
    const open = tx
      .select({ token: removalRequests.token, state: removalRequests.state, createdAt: removalRequests.createdAt })
      .from(removalRequests)
      .where(and(eq(removalRequests.artId, piece.id), eq(removalRequests.state, 'open')))
      .get();
    if (open) return open;
    const email = tx.select({ email: users.email }).from(users).where(eq(users.id, viewer.id)).get()!.email;
    const token = newToken();
    tx.insert(removalRequests).values({ token, artId: piece.id, requesterId: viewer.id, email, reason, state: 'open', createdAt: now }).run();
    return { token, state: 'open', createdAt: now };
  });
}
