/**
 * For the engines benchmark: members with a session, each paired with an AVAILABLE square of the bench tree, written
 * into the prepared SQLite gallery (before it is copied to PostgreSQL, so both engines hold the same pairs). A member
 * holds one reservation at a time and cannot cancel it, so each reservation needs a pair of its own.
 */
import { and, eq } from 'drizzle-orm';
import { cells, trees, users } from '#drizzle/schema.ts';
import { CellStatus, Role } from '#shared/domain.ts';
import { createSession } from '#server/auth/sessions.ts';
import { systemClock } from '#server/clock.ts';
import { write, type Db } from '#server/db.ts';
import { newToken } from '#server/tokens.ts';

/** The CSRF token the members' requests carry, as cookie and header (the double-submit check). */
const RESERVER_CSRF = 'bench-csrf-token-bench-csrf-token-0123';

/** A member and the square they will reserve: the square's token and the headers of a signed-in browser's write. */
export interface Pair {
  square: string;
  headers: Record<string, string>;
}

/** Rows an insert carries at a time (SQLite takes at most 32,766 parameters a statement). */
const BATCH = 500;

/** Up to `wanted` pairs (fewer when the bench tree has fewer AVAILABLE squares), and how many squares were AVAILABLE. */
export async function addReservers(
  db: Db,
  treeToken: string,
  wanted: number,
): Promise<{ pairs: Pair[]; available: number }> {
  const tree = db.select({ id: trees.id }).from(trees).where(eq(trees.token, treeToken)).get()!;
  const squares = db
    .select({ token: cells.token })
    .from(cells)
    .where(and(eq(cells.treeId, tree.id), eq(cells.status, CellStatus.Available)))
    .orderBy(cells.id)
    .all();
  const count = Math.min(wanted, squares.length);
  const now = Date.now();
  const ids: number[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const rows = Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => ({
      token: newToken(),
      email: `reserver${start + k}@bench.gallery-tree.local`,
      passwordHash: 'unusable',
      firstname: 'Bench',
      lastname: `Reserver${start + k}`,
      role: Role.Observer,
      createdAt: now,
      updatedAt: now,
    }));
    ids.push(
      ...db
        .insert(users)
        .values(rows)
        .returning({ id: users.id })
        .all()
        .map((row) => row.id),
    );
  }
  const tokens = await write(db, async (tx) => {
    const made: string[] = [];
    for (const id of ids) made.push((await createSession(tx, systemClock, id)).token);
    return made;
  });
  const pairs = tokens.map((token, i) => ({
    square: squares[i]!.token,
    headers: {
      cookie: `session=${token}; csrf=${RESERVER_CSRF}`,
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': RESERVER_CSRF,
    },
  }));
  return { pairs, available: squares.length };
}
