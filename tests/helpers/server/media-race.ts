/**
 * The media race (decisions 024 and 044), for tests/server/media-race.test.ts and `npm run bench -- media`: two gallery
 * processes over one data folder (tests/helpers/server/race-servers.ts) save one image at once, round after round, each
 * with a saver that commits and a saver that fails after writing its files (it holds another square). Pictures are
 * content-addressed, so every save of a round writes the same two names, and saves write their files before the
 * transaction that names them and never delete one (decision 044): no committed row may name a missing file.
 *
 * After each round only what it can have changed is looked at: the rows committed now (every piece's pictures are
 * replaced by its save) and the files they name, asked for one by one. A save that deleted an earlier round's file,
 * which no row names any more, would slip through that look, so every few rounds and after the last one the whole
 * listing is read: it must hold every file of the rows and every file an earlier round's look found, since a file
 * once stored stays stored (each round's image is new, so no later save writes a deleted file back).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { cells, pictures, users } from '#drizzle/schema.ts';
import { CellStatus, CellType, Role } from '#shared/domain.ts';
import { createSession } from '#server/auth/sessions.ts';
import { systemClock } from '#server/clock.ts';
import { loadConfig } from '#server/config.ts';
import { closeDatabase, openDatabase, type Db } from '#server/db.ts';
import { mediaNameOf } from '#server/services/display/media-names.ts';
import { createTree, type TreeRow } from '#server/services/tree/tree.ts';
import { createMediaStorage, type MediaStorage } from '#server/storage/index.ts';
import { newToken } from '#server/tokens.ts';
import { artForm, png, validFields } from '../art-fixtures.ts';
import { storedFiles } from './media-files.ts';
import { startRaceServer, stopRaceServers, type RaceServer } from './race-servers.ts';

const CSRF = 'media-race-csrf-token-0123456789ab';

/** How often, in rounds, the whole listing is read besides after the last round. */
const LISTING_EVERY = 25;

interface Saver {
  cookie: string;
  /** Where the saver posts: its own reserved square (commits), or a free square while holding another (fails). */
  cellToken: string;
}

export interface MediaRace {
  dir: string;
  db: Db;
  tree: TreeRow;
  /** The storage the servers keep pictures in, as this process sees it. */
  media: MediaStorage;
  servers: RaceServer[];
  /** Per server: the saver whose saves commit, and the one whose saves fail after writing. */
  savers: { commit: Saver; fail: Saver }[];
}

export interface MediaRaceOutcome {
  rounds: number;
  committed: number;
  refused: number;
  /** Answers other than a commit's 200 and a failing save's `already_reserved`. */
  other: string[];
  /** Committed rows' files missing after a round (on the round's look, or on a listing). */
  lost: { round: number; missing: string[] }[];
  /** Files an earlier round's look found that a later listing no longer holds. */
  vanished: { round: number; names: string[] }[];
  /** The rounds' wall time, in milliseconds. */
  ms: number;
}

/**
 * A new data folder with a tree, its two race servers pointed at the storage `environment` names (none: the folder)
 * and their savers, each holding a square reserved through the API.
 */
export async function startMediaRace(environment: Record<string, string>): Promise<MediaRace> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-media-race-'));
  const db = openDatabase(path.join(dir, 'gallery.db'));
  const tree = await createTree(db, Date.now(), 'Media race');
  const media = createMediaStorage(loadConfig({ ...environment, DATA_DIR: dir }).media);
  const servers = await Promise.all([startRaceServer(dir, environment), startRaceServer(dir, environment)]);
  const race: MediaRace = { dir, db, tree, media, servers, savers: [] };
  try {
    // More free squares than a new tree opens: savers hold some, the failing saves aim at others.
    db.update(cells)
      .set({ status: CellStatus.Available })
      .where(and(eq(cells.treeId, tree.id), eq(cells.type, CellType.Trunk), eq(cells.status, CellStatus.Pending)))
      .run();
    const free = db
      .select({ id: cells.id, token: cells.token })
      .from(cells)
      .where(and(eq(cells.treeId, tree.id), eq(cells.status, CellStatus.Available), eq(cells.type, CellType.Trunk)))
      .all();
    if (free.length < servers.length * 4) throw new Error(`only ${free.length} free squares for the media race`);
    let next = 0;
    for (let s = 0; s < servers.length; s++) {
      const own = free[next++]!;
      const held = free[next++]!;
      race.savers.push({
        commit: { cookie: await holder(race, own, next), cellToken: own.token },
        // Holds `held` and saves into another free square: the save writes its files, then is refused.
        fail: { cookie: await holder(race, held, next), cellToken: free[free.length - next]!.token },
      });
    }
  } catch (error) {
    await stopMediaRace(race);
    throw error;
  }
  return race;
}

export async function stopMediaRace(race: MediaRace): Promise<void> {
  await stopRaceServers(race.servers);
  await race.media.close();
  closeDatabase(race.db);
  fs.rmSync(race.dir, { recursive: true, force: true });
}

/** A signed-in user who reserves the given square through the API (its draft piece comes with it). */
async function holder(race: MediaRace, cell: { token: string }, i: number): Promise<string> {
  const now = Date.now();
  const user = race.db
    .insert(users)
    .values({
      token: newToken(),
      email: `media${i}-${newToken(4)}@race.test`,
      passwordHash: 'unusable',
      firstname: 'Media',
      lastname: `M${i}`,
      role: Role.Observer,
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: users.id })
    .get();
  const cookie = `session=${(await createSession(race.db, systemClock, user.id)).token}; csrf=${CSRF}`;
  const res = await fetch(`${race.servers[0]!.url}/api/cell/${cell.token}/reserve`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': CSRF },
    body: '{}',
  });
  if (res.status !== 200) throw new Error(`the media race's reservation answered ${res.status}: ${await res.text()}`);
  return cookie;
}

async function save(server: RaceServer, saver: Saver, image: Buffer): Promise<{ status: number; error?: string }> {
  const form = artForm(validFields(), [{ bytes: image, name: 'same.png', type: 'image/png' }]);
  const res = await fetch(`${server.url}/api/cell/${saver.cellToken}`, {
    method: 'POST',
    headers: { cookie: saver.cookie, 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': CSRF },
    body: form,
  });
  const body = (await res.json()) as { r: { error?: string } };
  return { status: res.status, error: body.r.error };
}

/** The files the committed picture rows name, each once. */
function namedFiles(db: Db): string[] {
  const keys = new Set(
    db
      .select({ key: pictures.mediaKey })
      .from(pictures)
      .all()
      .map(({ key }) => key),
  );
  return [...keys].flatMap((key) => [mediaNameOf(key, 'large'), mediaNameOf(key, 'thumb')]);
}

/** Runs `rounds` rounds of the race and answers what the saves answered and what went missing. */
export async function runMediaRace(race: MediaRace, rounds: number): Promise<MediaRaceOutcome> {
  const outcome: MediaRaceOutcome = { rounds, committed: 0, refused: 0, other: [], lost: [], vanished: [], ms: 0 };
  /** Every file a round's look found, with the round. */
  const found = new Map<string, number>();
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    // A picture no earlier round wrote, so whichever save writes first creates its files.
    const image = await png(40, 30, `#${(0x102030 + round * 0x010305).toString(16).slice(-6)}`);
    const answers = await Promise.all(
      race.servers.flatMap((server, s) => {
        const { commit, fail } = race.savers[s]!;
        return [
          save(server, commit, image).then((answer) => ({ commits: true, answer })),
          save(server, fail, image).then((answer) => ({ commits: false, answer })),
        ];
      }),
    );
    for (const { commits, answer } of answers) {
      if (commits && answer.status === 200) outcome.committed++;
      else if (!commits && answer.error === 'already_reserved') outcome.refused++;
      else outcome.other.push(`${answer.status} ${answer.error ?? ''}`);
    }

    const named = namedFiles(race.db);
    const present = await Promise.all(named.map((name) => race.media.exists(name)));
    const missing = named.filter((_, i) => !present[i]);
    for (const name of named.filter((_, i) => present[i])) if (!found.has(name)) found.set(name, round);

    if ((round + 1) % LISTING_EVERY === 0 || round === rounds - 1) {
      const listed = new Set(await storedFiles(race.media));
      for (const name of named) if (!listed.has(name) && !missing.includes(name)) missing.push(name);
      const gone = [...found.keys()].filter((name) => !listed.has(name));
      if (gone.length > 0) outcome.vanished.push({ round, names: gone });
      for (const name of gone) found.delete(name);
    }
    if (missing.length > 0) outcome.lost.push({ round, missing });
  }
  outcome.ms = performance.now() - started;
  return outcome;
}
