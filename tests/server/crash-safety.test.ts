/**
 * Crash safety: the real server is killed with SIGKILL in the middle of art uploads and reservations, then
 * started again on the same data folder: nothing is half-written, and the queued e-mails go out over SMTP once.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { and, eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { art, cells, mailOutbox, pictures, reservations } from '#drizzle/schema.ts';
import { ArtStatus, CellStatus } from '#shared/domain.ts';
import { testConfig } from '#server/config.ts';
import { closeDatabase, openDatabase, type Db } from '#server/db.ts';
import { createMediaStorage } from '#server/storage/index.ts';
import { MEDIA_ORPHAN_GRACE_MS, sweepOrphanMedia } from '#server/services/media/art-media.ts';
import { mediaNameOf } from '#server/services/display/media-names.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import { startRealServer, stopRealServer, TEST_CSRF, type RealServer } from '../helpers/server/real-server.ts';
import { startSmtpSink, type SmtpSink } from '../helpers/server/smtp-sink.ts';
import { prepareWriteLoad, runWriteLoad, type LoadTally } from '../helpers/server/write-load.ts';

const running: RealServer[] = [];
const sinks: SmtpSink[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) {
    if (server.process.exitCode === null && server.process.signalCode === null) await stopRealServer(server, 'SIGKILL');
  }
  await Promise.all(sinks.splice(0).map((sink) => sink.stop()));
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function sendContactMessage(url: string, i: number): Promise<number> {
  const res = await fetch(`${url}/api/misc/contact`, {
    method: 'POST',
    headers: {
      cookie: `csrf=${TEST_CSRF}`,
      'x-requested-with': 'XMLHttpRequest',
      'x-csrf-token': TEST_CSRF,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      subject: `Before the crash ${i}`,
      reason: 'Question',
      email: `asker${i}@mail.test`,
      message: 'Is it safe?',
    }),
  });
  return res.status;
}

/** Every inconsistency a crash could leave, as readable lines (an empty list is a consistent database). */
function halfWritten(db: Db, mediaDir: string): string[] {
  const problems: string[] = [];
  for (const picture of db.select().from(pictures).all()) {
    for (const variant of ['large', 'thumb'] as const) {
      if (!fs.existsSync(path.join(mediaDir, mediaNameOf(picture.mediaKey, variant))))
        problems.push(`picture ${picture.id} has no ${variant} file`);
    }
    if (!db.select({ id: art.id }).from(art).where(eq(art.id, picture.artId)).get())
      problems.push(`picture ${picture.id} has no art`);
  }
  const held = db
    .select({ cellId: cells.id, status: cells.status, artId: cells.artId })
    .from(reservations)
    .innerJoin(cells, eq(cells.id, reservations.cellId))
    .where(eq(reservations.state, 'active'))
    .all();
  for (const cell of held) {
    if (cell.status === CellStatus.Available) problems.push(`cell ${cell.cellId} is AVAILABLE and held`);
    if (cell.status !== CellStatus.Reserved) problems.push(`cell ${cell.cellId} is held but ${cell.status}`);
  }
  for (const cell of db.select().from(cells).where(eq(cells.status, CellStatus.Reserved)).all()) {
    const piece = cell.artId === null ? undefined : db.select().from(art).where(eq(art.id, cell.artId)).get();
    if (!piece) problems.push(`reserved cell ${cell.id} has no piece`);
    else if (piece.status === ArtStatus.Draft && !held.some((h) => h.cellId === cell.id))
      problems.push(`reserved cell ${cell.id} has a draft but no active reservation`);
  }
  return problems;
}

describe('a crash in the middle of uploads and reservations', () => {
  it('leaves nothing half-written, and the outbox sends what was queued exactly once after the restart', async () => {
    // Before the crash the mail server takes messages in but never confirms one (if the outbox job runs at all in
    // that life, its sends are cut by the kill); after the restart a working one counts what arrives.
    const stalling = await startSmtpSink({ stall: true });
    const sink = await startSmtpSink();
    sinks.push(stalling, sink);
    const dataDir = tempDir('gallery-crash-');
    const mediaDir = path.join(dataDir, 'media');
    const first = await startRealServer(dataDir, { SMTP_URL: `smtp://127.0.0.1:${stalling.port}` });
    running.push(first);
    const db = openDatabase(path.join(dataDir, 'gallery.db'));
    const load = await prepareWriteLoad(db, { uploaders: 6, reservers: 30 });

    // Mail queued before the crash, through the contact form.
    for (let i = 0; i < 3; i++) expect(await sendContactMessage(first.url, i)).toBe(200);
    const queued = db.select().from(mailOutbox).all();
    expect(queued.length).toBeGreaterThanOrEqual(3);

    const tally: LoadTally = { saves: 0, reservations: 0, failures: [] };
    const writing = runWriteLoad(first.url, load, { stop: () => false, expectDeath: true }, tally);
    // More saves than uploaders: some pieces have had their picture replaced, so the sweep has old files to take.
    while (tally.saves < 3 * load.uploaders.length && tally.failures.length === 0) await pause(20);
    first.process.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    await writing;
    expect(tally.failures).toEqual([]);

    const beforeRestart = halfWritten(db, mediaDir);
    closeDatabase(db);

    const second = await startRealServer(dataDir, { SMTP_URL: `smtp://127.0.0.1:${sink.port}` });
    running.push(second);
    const after = new Database(path.join(dataDir, 'gallery.db'), { readonly: true });
    expect(after.pragma('integrity_check', { simple: true })).toBe('ok');
    after.close();

    // The outbox job (every 5 s) delivers what was queued before the crash: within a minute, even on a loaded machine
    // (a CI run that shares two cores with the browser tests took more than 20 s).
    const again = openDatabase(path.join(dataDir, 'gallery.db'));
    const ids = queued.map((mail) => mail.id);
    for (let i = 0; i < 600; i++) {
      const open = again
        .select()
        .from(mailOutbox)
        .where(and(inArray(mailOutbox.id, ids), inArray(mailOutbox.state, ['queued', 'sending'])))
        .all();
      if (open.length === 0) break;
      await pause(100);
    }
    expect(await stopRealServer(second)).toBe(0);
    expect(
      again
        .select()
        .from(mailOutbox)
        .where(inArray(mailOutbox.id, ids))
        .all()
        .map((mail) => mail.state),
    ).toEqual(ids.map(() => 'sent'));
    const delivered = sink.received.map((mail) => mail.messageId).sort();
    expect(delivered).toEqual(ids.map((id) => `<outbox-${id}@localhost>`).sort());

    // The hourly sweep, run as if a day had passed, takes away files a killed save wrote without its rows.
    // It also takes away the temporary files of writes the kill cut short.
    const filesBefore = fs.readdirSync(mediaDir);
    const removed = await sweepOrphanMedia({
      db: again,
      clock: { now: () => Date.now() + MEDIA_ORPHAN_GRACE_MS + 60_000 },
      media: createMediaStorage({ kind: 'folder', dir: mediaDir }),
      config: testConfig(dataDir),
      log: { info() {}, warn() {}, error() {}, debug() {} },
    });
    const named = new Set(
      again
        .select({ key: pictures.mediaKey })
        .from(pictures)
        .all()
        .flatMap(({ key }) => [mediaNameOf(key, 'large'), mediaNameOf(key, 'thumb')]),
    );
    const filesAfter = fs.readdirSync(mediaDir);
    expect(filesAfter.filter((name) => !named.has(name))).toEqual([]);
    expect(removed.length).toBeGreaterThan(0);
    expect(filesBefore.length - removed.length).toBe(filesAfter.length);
    expect(halfWritten(again, mediaDir)).toEqual([]);
    expect(beforeRestart).toEqual([]);
    // The load did reach the database before the kill.
    expect(again.select().from(pictures).all().length).toBeGreaterThan(0);
    expect(again.select().from(reservations).where(eq(reservations.state, 'active')).all().length).toBeGreaterThan(
      load.uploaders.length,
    );
    closeDatabase(again);
  }, 120_000);
});
