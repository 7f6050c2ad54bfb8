/**
 * The app's writes on SQLite (server/db.ts `write`): one transaction at a time on a connection of their own, in the
 * order they were asked for, each whole or not at all; reads on the database's own connection never see what an
 * open write has not committed; a write asked for inside another fails at once instead of waiting for itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contactMessages } from '#drizzle/schema.ts';
import { closeDatabase, openDatabase, write, type Db } from '#server/db.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';

let dir: string;
let db: Db;

beforeEach(() => {
  dir = tempDir('write-queue-');
  db = openDatabase(path.join(dir, 'gallery.db'));
});

afterEach(() => {
  closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A contact message whose subject names it. */
function message(name: string) {
  return { email: `${name}@example.test`, reason: 'other', subject: name, message: 'Hello', createdAt: 1 };
}

const names = () =>
  db
    .select({ subject: contactMessages.subject })
    .from(contactMessages)
    .all()
    .map((row) => row.subject);

describe('write', () => {
  it('runs asynchronous writes one after the other, in the order asked, never inside each other', async () => {
    const steps: string[] = [];
    const slow = (name: string) =>
      write(db, async (tx) => {
        steps.push(`${name} begins`);
        tx.insert(contactMessages).values(message(name)).run();
        await tick();
        await tick();
        steps.push(`${name} ends`);
        return name;
      });
    expect(await Promise.all([slow('a'), slow('b'), slow('c')])).toEqual(['a', 'b', 'c']);
    expect(steps).toEqual(['a begins', 'a ends', 'b begins', 'b ends', 'c begins', 'c ends']);
    expect(names()).toEqual(['a', 'b', 'c']);
  });

  it('keeps what an open write has not committed from reads on the database, and shows it once committed', async () => {
    let seenMeanwhile: string[] | null = null;
    const open = write(db, async (tx) => {
      tx.insert(contactMessages).values(message('pending')).run();
      await tick();
      seenMeanwhile = names();
      await tick();
    });
    await open;
    expect(seenMeanwhile).toEqual([]);
    expect(names()).toEqual(['pending']);
  });

  it('rolls a failed write back whole, gives its error, and lets the next one run', async () => {
    const failed = write(db, async (tx) => {
      tx.insert(contactMessages).values(message('half')).run();
      await tick();
      throw new Error('refused half-way');
    });
    const next = write(db, (tx) => tx.insert(contactMessages).values(message('next')).returning().get());
    await expect(failed).rejects.toThrow('refused half-way');
    expect((await next).subject).toBe('next');
    expect(names()).toEqual(['next']);
    expect(db.select().from(contactMessages).where(eq(contactMessages.subject, 'half')).all()).toEqual([]);
  });

  it('refuses a write asked for inside another (it would wait for itself) and rolls the outer one back', async () => {
    const nested = write(db, (tx) => {
      tx.insert(contactMessages).values(message('outer')).run();
      return write(db, (inner) => inner.insert(contactMessages).values(message('inner')).run());
    });
    await expect(nested).rejects.toThrow('inside another write');
    expect(names()).toEqual([]);
  });
});
