/**
 * Pictures are content-addressed (rows with the same bytes name the same files): when two processes save one image at
 * once and some saves fail after writing (the saver holds another square), no committed row may name a missing file,
 * whichever process committed it and however the two interleave (issue 19). Saves write their files before the
 * transaction that names them and never delete one (decision 044), on either adapter: the media folder, and object
 * storage (a real S3-compatible server, Swift with s3api, one for the file).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { tempDir } from '#tests/helpers/server/test-app.ts';
import { artForm, png, validFields } from '../helpers/art-fixtures.ts';
import {
  startObjectStoreServer,
  stopObjectStoreServer,
  type ObjectStoreServer,
} from '../helpers/object-store-server.ts';
import { startRaceServer, stopRaceServers, type RaceServer } from '../helpers/server/race-servers.ts';
import { storedFiles } from '../helpers/server/media-files.ts';
import { s3Environment } from '../helpers/server/s3-media.ts';

const CSRF = 'media-race-csrf-token-0123456789ab';
const ROUNDS = 100;
/** Per round and per process: this many saves that commit and this many that fail after writing. */
const PAIRS = 2;

let dir: string;
let db: Db;
let tree: TreeRow;
/** The storage the servers keep pictures in, as the test process sees it. */
let media: MediaStorage;
const servers: RaceServer[] = [];

/** The file's object store server, started for the S3 round. */
let objectStore: ObjectStoreServer | undefined;

interface Adapter {
  kind: 'folder' | 's3';
  /** The environment that points the servers at it: none for the folder, the default. */
  environment: () => Promise<Record<string, string>>;
}

const ADAPTERS: Adapter[] = [
  { kind: 'folder', environment: async () => ({}) },
  {
    kind: 's3',
    environment: async () => {
      objectStore ??= await startObjectStoreServer();
      return s3Environment(objectStore, await objectStore.createBucket());
    },
  },
];

interface Saver {
  cookie: string;
  /** Where the saver posts: its own reserved square (commits), or a free square while holding another (fails). */
  cellToken: string;
}

const freeTrunkCells = () =>
  db
    .select({ id: cells.id, token: cells.token })
    .from(cells)
    .where(and(eq(cells.treeId, tree.id), eq(cells.status, CellStatus.Available), eq(cells.type, CellType.Trunk)))
    .all();

/** A signed-in user who reserves the given square through the API (its draft piece comes with it). */
async function holder(cell: { token: string }, i: number): Promise<string> {
  const now = Date.now();
  const user = db
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
  const cookie = `session=${(await createSession(db, systemClock, user.id)).token}; csrf=${CSRF}`;
  const res = await fetch(`${servers[0]!.url}/api/cell/${cell.token}/reserve`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': CSRF },
    body: '{}',
  });
  expect(res.status).toBe(200);
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

/** The files that committed picture rows name and that the media storage does not hold. */
async function missingFiles(): Promise<string[]> {
  const present = new Set(await storedFiles(media));
  return db
    .select({ key: pictures.mediaKey })
    .from(pictures)
    .all()
    .flatMap(({ key }) => [mediaNameOf(key, 'large'), mediaNameOf(key, 'thumb')])
    .filter((name) => !present.has(name));
}

afterAll(async () => {
  if (objectStore) await stopObjectStoreServer(objectStore);
});
describe.each(ADAPTERS)('saves of one image racing across two processes: $kind', (adapter) => {
  beforeAll(async () => {
    dir = tempDir('gallery-media-race-');
    db = openDatabase(path.join(dir, 'gallery.db'));
    tree = await createTree(db, Date.now(), 'Media race');
    const environment = await adapter.environment();
    media = createMediaStorage(loadConfig({ ...environment, DATA_DIR: dir }).media);
    servers.push(...(await Promise.all([startRaceServer(dir, environment), startRaceServer(dir, environment)])));
  }, 60_000);

  afterAll(async () => {
    await stopRaceServers(servers.splice(0));
    closeDatabase(db);
  });

  it(`never leave a committed row naming a missing file (${ROUNDS} rounds, half the saves failing)`, async () => {
    // More free squares than a new tree opens: savers hold some, the failing saves aim at others.
    db.update(cells)
      .set({ status: CellStatus.Available })
      .where(and(eq(cells.treeId, tree.id), eq(cells.type, CellType.Trunk), eq(cells.status, CellStatus.Pending)))
      .run();
    const free = freeTrunkCells();
    expect(free.length).toBeGreaterThan(servers.length * PAIRS * 4);
    const savers = servers.map(() => ({ commit: [] as Saver[], fail: [] as Saver[] }));
    let next = 0;
    for (const group of savers) {
      for (let i = 0; i < PAIRS; i++) {
        const own = free[next++]!;
        group.commit.push({ cookie: await holder(own, next), cellToken: own.token });
        const held = free[next++]!;
        // Holds `held` and saves into another free square: the save writes its files, then is refused.
        group.fail.push({ cookie: await holder(held, next), cellToken: free[free.length - 1 - next]!.token });
      }
    }

    const statuses = { committed: 0, refused: 0, other: [] as string[] };
    const lost: { round: number; missing: string[] }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // A picture no earlier round wrote, so whichever save writes first creates its files.
      const image = await png(40, 30, `#${(0x102030 + round * 0x010305).toString(16).slice(-6)}`);
      const results = await Promise.all(
        servers.flatMap((server, s) =>
          [...savers[s]!.commit, ...savers[s]!.fail].map(async (saver) => ({
            saver,
            answer: await save(server, saver, image),
          })),
        ),
      );
      for (const { saver, answer } of results) {
        const commits = savers.some((group) => group.commit.includes(saver));
        if (commits && answer.status === 200) statuses.committed++;
        else if (!commits && answer.error === 'already_reserved') statuses.refused++;
        else statuses.other.push(`${answer.status} ${answer.error ?? ''}`);
      }
      const missing = await missingFiles();
      if (missing.length > 0) lost.push({ round, missing });
    }
    expect(lost).toEqual([]);
    expect(statuses).toEqual({
      committed: ROUNDS * PAIRS * servers.length,
      refused: ROUNDS * PAIRS * servers.length,
      other: [],
    });
  }, 240_000);
});
