/**
 * GET /api/health, for a load balancer or a monitor (docs/api.md; decisions 017, 026, 044): 503 when the database
 * cannot answer, `ok: false` with `storage: "full"` when writes fail for lack of space, or `"unreachable"` when the
 * media storage does not answer (a bucket's HEAD, asked at most every few seconds). No session, no CSRF, no rate
 * limit, and logged only when something is wrong, so a probe every second stays cheap and quiet.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, LogLevel } from 'fastify';
import { snakeKeys } from '#shared/key-case.ts';
import type { Db } from '../db.ts';
import { preparedForEngines } from '../services/prepared.ts';
import { storageState, type StorageState } from '../storage.ts';
import type { MediaStorage, MediaStorageProblem } from '../storage/index.ts';
import type { HandWrittenRoute } from '../trpc.ts';

/** Declared as every /api path is (decision 036), though it lives outside the /api scope and its hooks. */
export const HEALTH: HandWrittenRoute = {
  method: 'GET',
  path: '/api/health',
  who: 'everyone',
  does: 'health probe: `{ok, db, storage, free_megabytes, version}`; 503 when the database does not answer; `ok: false` with `storage: "full"` when it is up but writes fail for lack of space (`low`: under `MIN_FREE_SPACE_MB`, uploads to the media folder refused), or `storage: "unreachable"` when the media storage (the folder, or the bucket) does not answer',
  via: '(plain route)',
  example: { r: { ok: true, db: 'ok', storage: 'ok', free_megabytes: 77941, version: '0.1.0' } },
};

export const HEALTH_PATH = HEALTH.path;

export interface Health {
  /** The database answers and writes can be stored (false: down, or up but unable to write). */
  ok: boolean;
  db: 'ok' | 'unavailable';
  /**
   * `unreachable` when the media storage does not answer (decision 044); otherwise the data folder's space: `low`
   * refuses uploads to the media folder, `full` means writes are failing (decision 026).
   */
  storage: StorageState | 'unreachable';
  freeMegabytes: number;
  version: string;
}

const packageFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json');
const VERSION = (JSON.parse(fs.readFileSync(packageFile, 'utf8')) as { version: string }).version;

/** How long the media storage's check may take, and how long its answer is kept: probes come every second or so. */
const MEDIA_CHECK_TIMEOUT_MS = 2_000;
const MEDIA_CHECK_KEPT_MS = 5_000;

/** The media storage's check, asked at most once every MEDIA_CHECK_KEPT_MS; probes meanwhile share the last answer. */
function keptMediaCheck(media: MediaStorage): () => Promise<MediaStorageProblem | null> {
  let kept: { at: number; answer: Promise<MediaStorageProblem | null> } | null = null;
  return () => {
    const now = Date.now();
    if (!kept || now - kept.at >= MEDIA_CHECK_KEPT_MS) kept = { at: now, answer: media.check(MEDIA_CHECK_TIMEOUT_MS) };
    return kept.answer;
  };
}

/** The probe: one round trip to the database, whichever engine. */
const probe = preparedForEngines<[], { one: number }>({ sqlite: 'select 1 as one', postgres: 'select 1 as one' });

export function registerHealth(
  server: FastifyInstance,
  db: Db,
  storage: { dataDir: string; minFreeBytes: number; media: MediaStorage },
): void {
  const mediaProblem = keptMediaCheck(storage.media);
  const databaseAnswers = async () => {
    try {
      return (await probe.get(db)) !== undefined;
    } catch {
      return false;
    }
  };
  // Probes are not worth a line each: warnings and worse only, or less when the whole server logs less.
  const logLevel = (['info', 'debug', 'trace'].includes(server.log.level) ? 'warn' : server.log.level) as LogLevel;
  server.route({
    method: HEALTH.method,
    url: HEALTH.path,
    logLevel,
    handler: async (req, reply) => {
      const [dbOk, media] = await Promise.all([databaseAnswers(), mediaProblem()]);
      if (!dbOk) req.log.error('health check: the database does not answer');
      if (media) req.log.error({ media: media.message }, 'health check: the media storage does not answer');
      const space = storageState(storage.dataDir, storage.minFreeBytes);
      if (space.state === 'full')
        req.log.error({ freeBytes: space.freeBytes }, 'health check: the data folder is out of space');
      const health: Health = {
        ok: dbOk && !media && space.state !== 'full',
        db: dbOk ? 'ok' : 'unavailable',
        storage: media ? 'unreachable' : space.state,
        freeMegabytes: Math.floor(space.freeBytes / 2 ** 20),
        version: VERSION,
      };
      // In the REST answers' snake_case, like every /api answer (decision 028).
      return reply
        .code(dbOk ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ r: snakeKeys(health) });
    },
  });
}
