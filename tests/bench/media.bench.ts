/**
 * `npm run bench -- media`: pictures in object storage (decision 044) beside the media folder, on one run. A real
 * S3-compatible server (Swift with s3api, tests/helpers/object-store-server.ts) holds a bucket per measure. Four
 * measures: the deep-zoom pyramid (decision 048) of a 24-megapixel picture, built by the background job after an
 * upload, its time and its bytes against the upload's; a 12-megapixel picture uploaded through the app's HTTP API as
 * a browser sends it, to an app on the folder and to one on a bucket, in turn (the median of several uploads each,
 * and their ratio); the media race (decisions 024 and 044: tests/helpers/server/media-race.ts, as
 * tests/server/media-race.test.ts runs it) on both adapters; and a picture uploaded through one of two hosts with data
 * folders of their own, one PostgreSQL database and one bucket, then asked of the other.
 *
 * `npm run bench -- pyramid` takes the pyramid's measure alone, which needs neither Swift nor PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import { cells, trees, useTablesOf } from '#drizzle/tables.ts';
import { closeDatabase, openDatabase, type Db } from '#server/db.ts';
import { closeAppDatabase, openAppDatabase } from '#server/open-database.ts';
import { artworkSvg, mulberry32 } from '#server/seed/art-generator.ts';
import { buildQueuedPyramids, pyramidLevels, PYRAMID_TILE_SIZE } from '#server/services/media/pyramids.ts';
import { createTree } from '#server/services/tree/tree.ts';
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
import { createTestApp } from '../helpers/server/test-app.ts';
import { upload as uploadLarge } from '../helpers/server/large-uploads.ts';
import { percentile, writeResults, type Row } from './results.ts';

/** Measured uploads per adapter, after one that warms each app (its image pipeline, its connections). */
const UPLOADS = Number(process.env.BENCH_MEDIA_UPLOADS ?? 5);
const RACE_ROUNDS = Number(process.env.BENCH_MEDIA_ROUNDS ?? 100);
/** A camera's 12 megapixels. */
const WIDTH = 4000;
const HEIGHT = 3000;
const UPLOAD_TARGET = 1.3;
/** The pyramid's picture: 24 megapixels, as a good camera or a large scan gives. */
const PYRAMID_WIDTH = 6000;
const PYRAMID_HEIGHT = 4000;
const PYRAMID_SEED = 1;
const PYRAMID_SECONDS_TARGET = 10;
const PYRAMID_BYTES_TARGET = 1.5;
/** Builds taken when the first one is shorter than this; a longer one is taken once. */
const PYRAMID_REPEAT_BELOW_MS = 15_000;
const PYRAMID_RUNS = 3;

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

/**
 * A painted piece photographed at 24 megapixels, the same bytes on every run: one of the demo's generated
 * compositions (layered hills under a ringed sun, seeded) drawn at full size, with a seeded texture laid over it in
 * soft light: a coarse mottle and a finer one, as paint lies unevenly, a canvas weave two pixels wide and a grain at
 * every pixel. A JPEG at quality 90, as a camera or an artist's export gives.
 */
async function paintedPicture(): Promise<Buffer> {
  const [width, height] = [PYRAMID_WIDTH, PYRAMID_HEIGHT];
  // The composition's square view box, filling the landscape frame and cut at the top and bottom.
  const svg = artworkSvg(PYRAMID_SEED, width).replace(
    `height="${width}"`,
    `height="${height}" preserveAspectRatio="xMidYMid slice"`,
  );
  const random = mulberry32(PYRAMID_SEED);
  // Random values on a grid of `cell` pixels, enlarged smoothly to the whole picture.
  const mottle = async (cell: number, spread: number) => {
    const [w, h] = [width / cell, height / cell];
    const values = Buffer.alloc(w * h);
    for (let i = 0; i < values.length; i++) values[i] = 128 + Math.round((random() - 0.5) * spread);
    return sharp(values, { raw: { width: w, height: h, channels: 1 } })
      .resize(width, height, { kernel: 'cubic' })
      .raw()
      .toBuffer();
  };
  const coarse = await mottle(50, 200);
  const fine = await mottle(5, 120);
  // Grey and alpha: grey above the middle lightens what lies under it, below the middle darkens it.
  const texture = Buffer.alloc(width * height * 2);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const weave = ((x >> 1) & 1) === ((y >> 1) & 1) ? 8 : -8;
      const grain = (random() - 0.5) * 40;
      texture[i * 2] = Math.max(0, Math.min(255, coarse[i]! + fine[i]! - 128 + weave + grain));
      texture[i * 2 + 1] = 160;
    }
  }
  const jpeg = await sharp(Buffer.from(svg))
    .composite([{ input: texture, raw: { width, height, channels: 2 }, blend: 'soft-light' }])
    .jpeg({ quality: 90 })
    .toBuffer();
  const { width: madeWidth, height: madeHeight } = await sharp(jpeg).metadata();
  if (madeWidth !== width || madeHeight !== height)
    throw new Error(`the picture came out ${madeWidth}×${madeHeight}, not ${width}×${height}`);
  return jpeg;
}

/** One pyramid built by the job, after the upload that queued it. */
interface PyramidBuild {
  ms: number;
  /** Every tile's bytes and the descriptor's. */
  bytes: number;
  tiles: number;
  levels: number;
  /** The resident memory's highest point during the build, above what it was when the build began (bytes). */
  peakGrowth: number;
}

/**
 * Uploads `image` to a new app (a real SQLite gallery and media folder in a temporary folder, as the server tests
 * run it; its jobs not running on their own), as the browser's form posts it, then times the pyramid job's run that
 * builds the pyramid the upload queued: the kept upload read from the folder, cut in memory, every tile and the
 * descriptor written to the folder, the row made 'ready'.
 */
async function buildPyramidOnce(image: Buffer): Promise<PyramidBuild> {
  const t = await createTestApp();
  try {
    const treeId = (await createTree(t.deps.db, t.clock.now(), 'Pyramid bench')).id;
    const { row } = await uploadLarge(t, treeId, SEED_ROW, 0, image);
    if (row.pyramid !== 'building') throw new Error(`the upload's pyramid is ${row.pyramid}, not queued`);
    const key = row.mediaKey;

    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
    const started = performance.now();
    let built: number;
    try {
      built = await buildQueuedPyramids(t.deps);
    } finally {
      clearInterval(sampler);
    }
    const ms = performance.now() - started;
    peak = Math.max(peak, process.memoryUsage.rss());
    if (built !== 1) throw new Error(`the job built ${built} pyramids, not 1`);

    let bytes = 0;
    let tiles = 0;
    let descriptor = false;
    for await (const file of t.deps.media.list()) {
      if (!file.name.startsWith(`${key}-dz`)) continue;
      bytes += file.size;
      if (file.name === `${key}-dz.json`) descriptor = true;
      else tiles++;
    }
    if (!descriptor) throw new Error('the job wrote no descriptor');
    const levels = JSON.parse((await t.deps.media.get(`${key}-dz.json`))!.toString()) as { levels: number };
    return { ms, bytes, tiles, levels: levels.levels, peakGrowth: peak - before };
  } finally {
    await t.cleanup();
  }
}

/** The pyramid of a 24-megapixel picture: built a few times (once when slow), each on a gallery of its own. */
async function measurePyramid() {
  const image = await paintedPicture();
  const builds = [await buildPyramidOnce(image)];
  if (builds[0]!.ms < PYRAMID_REPEAT_BELOW_MS) {
    while (builds.length < PYRAMID_RUNS) builds.push(await buildPyramidOnce(image));
  }
  const [first] = builds as [PyramidBuild];
  if (builds.some((build) => build.bytes !== first.bytes || build.tiles !== first.tiles))
    throw new Error('the builds of the same picture wrote different pyramids');
  return {
    jpegBytes: image.length,
    ms: percentile(
      builds.map((build) => build.ms),
      50,
    ),
    times: builds.map((build) => build.ms),
    bytes: first.bytes,
    ratio: first.bytes / image.length,
    tiles: first.tiles,
    levels: first.levels,
    peakGrowth: Math.max(...builds.map((build) => build.peakGrowth)),
  };
}

type PyramidOutcome = Awaited<ReturnType<typeof measurePyramid>>;

/** The pyramid's rows and their note, in the media table and in the pyramid's own. */
function pyramidRows(pyramid: PyramidOutcome): { rows: Row[]; note: string } {
  const megabytes = (bytes: number) => `${fixed(bytes / 2 ** 20, 1)} MB`;
  const runs =
    pyramid.times.length > 1
      ? `median of ${pyramid.times.length}: ${pyramid.times.map((ms) => fixed(ms / 1000, 1)).join(', ')} s`
      : 'one build';
  const rows: Row[] = [
    {
      measure: `pyramid of a 24-megapixel picture (${PYRAMID_WIDTH}×${PYRAMID_HEIGHT}), built by the background job (wall time)`,
      measured: `${fixed(pyramid.ms / 1000, 1)} s (${runs}; resident memory at most ${megabytes(pyramid.peakGrowth)} above the build's start)`,
      target: `≤ ${PYRAMID_SECONDS_TARGET} s`,
      verdict: met(pyramid.ms <= PYRAMID_SECONDS_TARGET * 1000),
    },
    {
      measure: "that pyramid's bytes (every tile and the descriptor) ÷ the uploaded JPEG's",
      measured: `${fixed(pyramid.ratio)} (${pyramid.bytes.toLocaleString('en')} bytes in ${pyramid.tiles} tiles over ${pyramid.levels} levels and the descriptor; the JPEG ${pyramid.jpegBytes.toLocaleString('en')} bytes)`,
      target: `≤ ${PYRAMID_BYTES_TARGET}`,
      verdict: met(pyramid.ratio <= PYRAMID_BYTES_TARGET),
    },
  ];
  const note =
    `The pyramid: a ${PYRAMID_WIDTH}×${PYRAMID_HEIGHT} generated painting (the demo's composition of seed ${PYRAMID_SEED} with a seeded paint and canvas texture, the same bytes each run), a JPEG at quality 90 of ${megabytes(pyramid.jpegBytes)}, uploaded as the browser's form posts it to an app in this process (\`createTestApp\`: SQLite and the media folder in a temporary folder, jobs not running on their own), whose upload keeps it and queues its pyramid; then \`buildQueuedPyramids\`, the job's run, timed from its call to its return: the kept upload read, decoded once, ${pyramidLevels(PYRAMID_WIDTH, PYRAMID_HEIGHT)} levels cut into ${PYRAMID_TILE_SIZE} px WebP tiles, every tile and the descriptor written to the folder, the row made 'ready'. ` +
    `A new app for each build (${PYRAMID_RUNS} builds when the first takes under ${PYRAMID_REPEAT_BELOW_MS / 1000} s, else one); the bytes are the listing's sizes of the tiles and the descriptor; the memory is the process's resident set sampled every 20 ms during the build, its highest point less its value at the start (the largest of the builds).`;
  return { rows, note };
}

/** `npm run bench -- pyramid`: the pyramid's measure alone, in a table of its own. */
export async function benchPyramid(): Promise<string> {
  console.log(`A ${PYRAMID_WIDTH}×${PYRAMID_HEIGHT} picture's deep-zoom pyramid, built by the job after an upload...`);
  const { rows, note } = pyramidRows(await measurePyramid());
  return writeResults('pyramid', 'The deep-zoom pyramid of a 24-megapixel picture', rows, [
    note,
    `Taken on a shared, busy ${os.cpus().length}-core machine.`,
  ]);
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
    console.log(
      `A ${PYRAMID_WIDTH}×${PYRAMID_HEIGHT} picture's deep-zoom pyramid, built by the job after an upload...`,
    );
    const pyramid = pyramidRows(await measurePyramid());
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
      ...pyramid.rows,
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
      pyramid.note,
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
