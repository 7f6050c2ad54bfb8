/** Reading users as the client may see them, and the one role change a piece brings. */
import { and, eq } from 'drizzle-orm';
import { users } from '#drizzle/schema.ts';
import type { CurrentUser } from '#shared/api-types.ts';
import { Role } from '#shared/domain.ts';
import type { SessionUser } from '../../auth/sessions.ts';
import type { Queryable } from '../../db.ts';
import { MEDIA_URL_PREFIX } from '../../media-store.ts';

/** An observer whose piece is submitted (or published by staff) becomes an artist (docs/product.md, Roles). */
export function promoteToArtist(tx: Queryable, userId: number, now: number): void {
  tx.update(users)
    .set({ role: Role.Artist, updatedAt: now })
    .where(and(eq(users.id, userId), eq(users.role, Role.Observer)))
    .run();
}

export function toCurrentUser(user: SessionUser): CurrentUser {
  return {
    token: user.token,
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    role: user.role,
    showEmail: user.showEmail,
    image: user.image ? MEDIA_URL_PREFIX + user.image : null,
    createdAt: user.createdAt,
  };
}
