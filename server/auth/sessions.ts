/**
 * Sessions as the Lucia guide teaches (decision 001), without the deprecated package: the cookie holds `<id>.<secret>`,
 * the database keeps the id and the SHA-256 of the secret, compared in constant time. A session ends after 30 days
 * without use; use moves that horizon, written at most hourly.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { sessions, users } from '#drizzle/tables.ts';
import { write, type Db, type Queryable } from '../db.ts';
import type { Clock } from '../clock.ts';

export const SESSION_COOKIE = 'session';
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000;
const BUMP_AFTER_MS = 60 * 60 * 1000;

export type SessionUser = typeof users.$inferSelect;

export interface ValidSession {
  id: string;
  userId: number;
  /** When the session ends unless used again. */
  expiresAt: number;
  /** True when the expiry moved and the cookie should be sent again. */
  refreshed: boolean;
}

function randomPart(): string {
  // 18 bytes = 144 bits, above the guide's 120-bit floor.
  return randomBytes(18).toString('base64url');
}

function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/** Opens a session for the user through `db`: inside a write transaction (`write`), or a test's own connection. */
export async function createSession(
  db: Queryable,
  clock: Clock,
  userId: number,
): Promise<{ token: string; expiresAt: number }> {
  const id = randomPart();
  const secret = randomPart();
  const now = clock.now();
  await db.insert(sessions).values({ id, secretHash: hashSecret(secret), userId, createdAt: now, lastVerifiedAt: now });
  return { token: `${id}.${secret}`, expiresAt: now + SESSION_IDLE_MS };
}

export async function validateSessionToken(
  db: Db,
  clock: Clock,
  token: string,
): Promise<{ session: ValidSession; user: SessionUser } | null> {
  const [id, secret, extra] = token.split('.');
  if (!id || !secret || extra !== undefined || id.length > 64 || secret.length > 64) return null;
  const found = (
    await db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.id, id))
  )[0];
  if (!found) return null;
  const given = hashSecret(secret);
  if (given.length !== found.session.secretHash.length || !timingSafeEqual(given, found.session.secretHash))
    return null;
  const now = clock.now();
  if (now - found.session.lastVerifiedAt >= SESSION_IDLE_MS || found.user.disabledAt !== null) {
    await write(db, async (tx) => await tx.delete(sessions).where(eq(sessions.id, id)));
    return null;
  }
  let lastVerifiedAt = found.session.lastVerifiedAt;
  let refreshed = false;
  if (now - lastVerifiedAt >= BUMP_AFTER_MS) {
    lastVerifiedAt = now;
    refreshed = true;
    await write(db, async (tx) => await tx.update(sessions).set({ lastVerifiedAt }).where(eq(sessions.id, id)));
  }
  return {
    session: { id, userId: found.user.id, expiresAt: lastVerifiedAt + SESSION_IDLE_MS, refreshed },
    user: found.user,
  };
}

export async function invalidateSession(db: Db, sessionId: string): Promise<void> {
  await write(db, async (tx) => await tx.delete(sessions).where(eq(sessions.id, sessionId)));
}

export async function invalidateUserSessions(db: Queryable, userId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}
