/**
 * Pictures are content-addressed (rows with the same bytes name the same files): when two processes save one image at
 * once and some saves fail after writing (the saver holds another square), no committed row may name a missing file,
 * whichever process committed it and however the two interleave (issue 19). Saves write their files before the
 * transaction that names them and never delete one (decision 044), on either adapter: the media folder, and object
 * storage (a real S3-compatible server, Swift with s3api, one for the file). The race itself, and how each round and
 * the whole listing are checked: tests/helpers/server/media-race.ts, which `npm run bench -- media` runs too.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  startObjectStoreServer,
  stopObjectStoreServer,
  type ObjectStoreServer,
} from '../helpers/object-store-server.ts';
import { runMediaRace, startMediaRace, stopMediaRace, type MediaRace } from '../helpers/server/media-race.ts';
import { s3Environment } from '../helpers/server/s3-media.ts';

const ROUNDS = 100;

/** The file's object store server, started for the S3 race. */
let objectStore: ObjectStoreServer | undefined;
let folderRace: Promise<MediaRace>;
let s3Race: Promise<MediaRace>;

beforeAll(() => {
  folderRace = startMediaRace({});
  // The object store and the S3 race's processes start while the folder's race runs: most of the file's set-up is
  // waiting for them, not work of this process.
  s3Race = (async () => {
    objectStore = await startObjectStoreServer();
    return startMediaRace(s3Environment(objectStore, await objectStore.createBucket()));
  })();
  // Awaited by its test; a failed start is that test's failure, not an unhandled rejection while the other runs.
  s3Race.catch(() => {});
});

afterAll(async () => {
  for (const race of await Promise.allSettled([folderRace, s3Race]))
    if (race.status === 'fulfilled') await stopMediaRace(race.value);
  if (objectStore) await stopObjectStoreServer(objectStore);
}, 60_000);

it.each(['folder', 's3'] as const)(
  `saves of one image racing across two processes never leave a committed row naming a missing file: %s (${ROUNDS} rounds, half the saves failing)`,
  async (kind) => {
    const race = await (kind === 'folder' ? folderRace : s3Race);
    const outcome = await runMediaRace(race, ROUNDS);
    console.log(`media race, ${kind}: ${ROUNDS} rounds in ${Math.round(outcome.ms)} ms`);
    expect(outcome.lost).toEqual([]);
    expect(outcome.vanished).toEqual([]);
    const saves = ROUNDS * race.servers.length;
    // An answer other than those two comes with what the servers logged, to tell why.
    const logged = race.servers.map((server) => server.errors()).join('\n');
    expect(
      { committed: outcome.committed, refused: outcome.refused, other: outcome.other },
      `the servers' errors:\n${logged}`,
    ).toEqual({
      committed: saves,
      refused: saves,
      other: [],
    });
  },
  240_000,
);
