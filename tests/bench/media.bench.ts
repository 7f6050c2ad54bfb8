/**
 * `npm run bench -- media`: pictures in object storage (decision 044) beside the media folder, on one run. A real
 * S3-compatible server (Swift with s3api, tests/helpers/object-store-server.ts) holds a bucket per measure. Three
 * measures: a 12-megapixel picture uploaded through the app's HTTP API as a browser sends it, to an app on the folder
 * and to one on a bucket, in turn (the median of several uploads each, and their ratio); the media race (decisions 024
 * and 044: tests/helpers/server/media-race.ts, as tests/server/media-race.test.ts runs it) on both adapters; and a
 * picture uploaded through one of two hosts with data folders of their own, one PostgreSQL database and one bucket,
 * then asked of the other.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import { cells, trees, useTablesOf } from '#drizzle/tables.ts';
import { closeDatabase, openDatabase, type Db } from '#server/db.ts';
import { closeAppDatabase, openAppDatabase } from '#server/open-database.ts';
import { artForm, validFields } from '../helpers/art-fixtures.ts';
import { startObjectStoreServer, type ObjectStoreServer } from '../helpers/object-store-server.ts';
import {
  createDatabase,
  postgresWatchdog,
  startPostgresServer,
  stopPostgresServer,
} from '../helpers/postgres-server.ts';
import { runMediaRace, startMediaRace, stopMediaRace, type MediaRaceOutcome } from '../helpers/server/media-race.ts';
import {
  encodeForm,
  signedInUsers,
  startRealServer,
  stopRealServer,
  writeHeaders,
  type RealServer,
} from '../helpers/server/real-server.ts';
import { SEED_ROW } from '../helpers/server/reservation-fixtures.ts';
import { s3Environment } from '../helpers/server/s3-media.ts';
import { percentile, writeResults, type Row } from './results.ts';

/** Measured uploads per adapter, after one that warms each app (its image pipeline, its connections). */
const UPLOADS = Number(process.env.BENCH_MEDIA_UPLOADS ?? 5);
const RACE_ROUNDS = Number(process.env.BENCH_MEDIA_ROUNDS ?? 100);
/** A camera's 12 megapixels. */
const WIDTH = 4000;
const HEIGHT = 3000;
const UPLOAD_TARGET = 1.3;

const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

/**
 * A photograph's worth of JPEG: coarse noise scaled up to 12 megapixels, which compresses as a camera's picture does
 * (a few megabytes, well under the upload limit), each call a new picture (the noise is random), so that no upload
 * finds its files stored already.
 */
async function photo(): Promise<Buffer> {
  const grain = await sharp({
    create: {
      width: WIDTH / 4,
      height: HEIGHT / 4,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  return sharp(grain).resize(WIDTH, HEIGHT).jpeg({ quality: 90 }).toBuffer();
}

/** Everything a run started, removed at the end whatever happened. */
interface Started {
  folders: string[];
  hosts: RealServer[];
  objectStore?: ObjectStoreServer;
  postgres?: { dir: string; bin: string; watchdog: number | undefined };
}

function newFolder(started: Started, prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  started.folders.push(dir);
  return dir;
}

async function startHost(started: Started, dir: string, env: Record<string, string>): Promise<RealServer> {
  const host = await startRealServer(dir, env);
  started.hosts.push(host);
  return host;
}

/** A signed-in member who has reserved a square of the seed row through `host`; answers their cookie and square. */
async function artist(db: Db, host: RealServer, column: number): Promise<{ cookie: string; square: string }> {
  const [member] = await signedInUsers(db, 1, 'media-bench');
  const [tree] = await db.select({ id: trees.id }).from(trees);
  const [square] = await db
    .select({ token: cells.token })
    .from(cells)
    .where(and(eq(cells.treeId, tree!.id), eq(cells.row, SEED_ROW), eq(cells.column, column)));
  const res = await fetch(`${host.url}/api/cell/${square!.token}/reserve`, {
    method: 'POST',
    headers: writeHeaders(member!.cookie),
  });
  if (res.status !== 200) throw new Error(`the reservation answered ${res.status}: ${await res.text()}`);
  return { cookie: member!.cookie, square: square!.token };
}

/** Saves the piece on the artist's square with `image`, as the browser's form does; answers the wall time and the picture. */
async function upload(
  host: RealServer,
  who: { cookie: string; square: string },
  image: Buffer,
  type = 'image/jpeg',
): Promise<{ ms: number; image: string }> {
  const { body, contentType } = await encodeForm(
    artForm(validFields(), [{ bytes: image, name: type === 'image/png' ? 'art.png' : 'photo.jpg', type }]),
  );
  const started = performance.now();
  const res = await fetch(`${host.url}/api/cell/${who.square}`, {
    method: 'POST',
    headers: { ...writeHeaders(who.cookie), 'content-type': contentType },
    body: new Uint8Array(body),
  });
  const answer = (await res.json()) as { r: { art?: { pictures: { image: string }[] }; error?: string } };
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`the upload answered ${res.status}: ${JSON.stringify(answer.r)}`);
  return { ms, image: answer.r.art!.pictures[0]!.image };
}

/** The 12-megapixel upload on an app over the folder and one over a bucket, taken in turn. */
async function measureUploads(started: Started, objectStore: ObjectStoreServer) {
  const environments = { folder: {}, s3: s3Environment(objectStore, await objectStore.createBucket()) };
  const apps = await Promise.all(
    Object.entries(environments).map(async ([kind, env]) => {
      const dir = newFolder(started, `gallery-bench-media-${kind}-`);
      const host = await startHost(started, dir, env);
      const db = openDatabase(path.join(dir, 'gallery.db'));
      try {
        return { kind, host, who: await artist(db, host, 0), times: [] as number[] };
      } finally {
        closeDatabase(db);
      }
    }),
  );
  const photos = await Promise.all(Array.from({ length: UPLOADS + 1 }, photo));
  // The same pictures on both (each app has a store of its own), the adapters in turn, so that whatever else the
  // machine does falls on both alike.
  for (const [i, image] of photos.entries()) {
    for (const app of apps) {
      const { ms } = await upload(app.host, app.who, image);
      if (i > 0) app.times.push(ms);
    }
  }
  await Promise.all(apps.map((app) => stopRealServer(app.host)));
  const [folder, s3] = apps.map((app) => percentile(app.times, 50)) as [number, number];
  const sizes = photos.map((image) => fixed(image.length / 2 ** 20, 1));
  const megabytes = [...new Set([Math.min, Math.max].map((pick) => pick(...sizes.map(Number))))].join('–');
  return { folder, s3, ratio: s3 / folder, megabytes };
}

/** The race of tests/server/media-race.test.ts on the folder, then on a bucket. */
async function measureRaces(objectStore: ObjectStoreServer): Promise<Record<'folder' | 's3', MediaRaceOutcome>> {
  const outcomes: Partial<Record<'folder' | 's3', MediaRaceOutcome>> = {};
  const environments = { folder: {}, s3: s3Environment(objectStore, await objectStore.createBucket()) };
  for (const [kind, env] of Object.entries(environments) as ['folder' | 's3', Record<string, string>][]) {
    const race = await startMediaRace(env);
    try {
      outcomes[kind] = await runMediaRace(race, RACE_ROUNDS);
    } finally {
      await stopMediaRace(race);
    }
  }
  return outcomes as Record<'folder' | 's3', MediaRaceOutcome>;
}

/**
 * Two hosts with data folders of their own on one PostgreSQL database (a throwaway server, as the engines benchmark
 * starts) and one bucket: a picture uploaded through host A, asked of host B at the address A's answer gave.
 */
async function measureOtherHost(started: Started, objectStore: ObjectStoreServer) {
  const pgDir = newFolder(started, 'gallery-bench-media-postgres-');
  const server = await startPostgresServer(pgDir);
  started.postgres = { dir: pgDir, bin: server.bin, watchdog: postgresWatchdog(pgDir) };
  const databaseUrl = await createDatabase(server.url, 'gallery_bench_media');
  const env = { ...s3Environment(objectStore, await objectStore.createBucket()), DATABASE_URL: databaseUrl };
  // One first, which migrates the new database and plants the tree, then the other.
  const hostA = await startHost(started, newFolder(started, 'gallery-bench-media-host-a-'), env);
  const hostB = await startHost(started, newFolder(started, 'gallery-bench-media-host-b-'), env);
  const db = await openAppDatabase({ databaseFile: '', databaseUrl });
  try {
    const who = await artist(db, hostA, 0);
    const saved = await upload(hostA, who, await photo());
    const served = async (host: RealServer) => {
      const res = await fetch(`${host.url}${saved.image}`);
      return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
    };
    const [fromA, fromB] = [await served(hostA), await served(hostB)];
    const page = await fetch(`${hostB.url}/api/cell/${who.square}`, { headers: { cookie: who.cookie } });
    return {
      image: saved.image,
      status: fromB.status,
      sameBytes: fromB.bytes.length > 0 && fromB.bytes.equals(fromA.bytes),
      bytes: fromB.bytes.length,
      namedOnB: page.status === 200 && (await page.text()).includes(saved.image),
    };
  } finally {
    await closeAppDatabase(db);
    useTablesOf('sqlite');
    await Promise.all([hostA, hostB].map((host) => stopRealServer(host)));
  }
}

export async function benchMedia(): Promise<string> {
  const started: Started = { folders: [], hosts: [] };
  try {
    console.log('Starting the object store server (Swift with s3api)...');
    const objectStore = await startObjectStoreServer();
    started.objectStore = objectStore;
    console.log(`Uploading a ${WIDTH}×${HEIGHT} picture ${UPLOADS + 1} times to each adapter, in turn...`);
    const uploads = await measureUploads(started, objectStore);
    console.log(`The media race, ${RACE_ROUNDS} rounds on each adapter...`);
    const races = await measureRaces(objectStore);
    console.log('Two hosts on one PostgreSQL database and one bucket: a picture through one, asked of the other...');
    const other = await measureOtherHost(started, objectStore);

    const lost = (outcome: MediaRaceOutcome) => outcome.lost.reduce((n, round) => n + round.missing.length, 0);
    const vanished = (outcome: MediaRaceOutcome) => outcome.vanished.reduce((n, round) => n + round.names.length, 0);
    const raceCell = (outcome: MediaRaceOutcome) =>
      `${lost(outcome)} (${outcome.committed} commits, ${outcome.refused} saves failing after writing, ` +
      `${outcome.other.length} other answers, ${vanished(outcome)} files vanished; ${fixed(outcome.ms / 1000, 1)} s)`;
    const racesClean = Object.values(races).every(
      (outcome) =>
        lost(outcome) === 0 &&
        vanished(outcome) === 0 &&
        outcome.other.length === 0 &&
        outcome.committed === 2 * outcome.rounds,
    );
    const rows: Row[] = [
      {
        measure: `upload of a 12-megapixel picture, object storage ÷ folder (wall time)`,
        measured: `${fixed(uploads.ratio)} (median of ${UPLOADS}: S3 ${Math.round(uploads.s3)} ms, folder ${Math.round(uploads.folder)} ms)`,
        target: `≤ ${UPLOAD_TARGET}`,
        verdict: met(uploads.ratio <= UPLOAD_TARGET),
      },
      {
        measure: `committed rows naming a missing object, ${RACE_ROUNDS} racing rounds, two processes`,
        measured: `S3: ${raceCell(races.s3)}; folder: ${raceCell(races.folder)}`,
        target: '0',
        verdict: met(racesClean),
      },
      {
        measure: 'picture served through the other host',
        measured: `${other.status}, ${other.sameBytes ? 'same bytes' : 'OTHER bytes'} (${other.bytes.toLocaleString('en')} bytes); host B's square data ${other.namedOnB ? 'names' : 'does NOT name'} it at ${other.image}`,
        target: '200, same bytes',
        verdict: met(other.status === 200 && other.sameBytes && other.namedOnB),
      },
    ];
    return writeResults('media', 'Pictures in object storage beside the media folder', rows, [
      `Uploads: two real app processes (\`npm start\`'s, SQLite, a data folder each), one keeping pictures in its media folder and one in a bucket of the object store server; a member with a reserved square saves the piece with a ${WIDTH}×${HEIGHT} JPEG (${uploads.megabytes} MB, a new picture each time) as the browser's form posts it, timed from the request to the answer; one upload warms each app, then ${UPLOADS} measured on each, the two apps in turn.`,
      `The race: tests/helpers/server/media-race.ts, as tests/server/media-race.test.ts runs it: two race server processes over one data folder, each round one image saved at once by a saver per process that commits and one that fails after writing its files; after each round the files the committed rows name are looked up, every 25 rounds and after the last the whole listing is read.`,
      'The other host: two app processes with data folders of their own on one throwaway PostgreSQL database (fsync off, as the tests run it) and one bucket, no MEDIA_PUBLIC_URL: host A takes the upload, host B streams the picture from the bucket at /media/….',
      `The object store: OpenStack Swift with s3api on this machine (one of each server, workers = 0), a new bucket per measure. Taken on a shared, busy ${os.cpus().length}-core machine: the ratio, whose two sides are measured in turn in the same run, says more than the times.`,
    ]);
  } finally {
    await Promise.all(
      started.hosts
        .filter((host) => host.process.exitCode === null && host.process.signalCode === null)
        .map((host) => stopRealServer(host, 'SIGKILL')),
    );
    if (started.postgres) {
      await stopPostgresServer(started.postgres.dir, started.postgres.bin);
      if (started.postgres.watchdog) {
        try {
          process.kill(started.postgres.watchdog);
        } catch {
          // Already gone.
        }
      }
    }
    await started.objectStore?.stop();
    for (const dir of started.folders) fs.rmSync(dir, { recursive: true, force: true });
  }
}
