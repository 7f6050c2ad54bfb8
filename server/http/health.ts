/**
 * GET /api/health, for a load balancer or a monitor (decision 017): 200 `{"r":{"ok":true,"db":"ok","version"}}`
 * after a trivial query, 503 with `ok: false, db: "unavailable"` when the database cannot answer. No session, no
 * CSRF, no rate limit, and logged only when something is wrong, so a probe every second stays cheap and quiet.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, LogLevel } from 'fastify';
import type { Db } from '../db.ts';

export const HEALTH_PATH = '/api/health';

export interface Health {
  ok: boolean;
  db: 'ok' | 'unavailable';
  version: string;
}

const packageFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json');
const VERSION = (JSON.parse(fs.readFileSync(packageFile, 'utf8')) as { version: string }).version;

export function registerHealth(server: FastifyInstance, db: Db): void {
  const probe = db.$client.prepare('select 1 as one');
  const databaseAnswers = () => {
    try {
      return probe.get() !== undefined;
    } catch {
      return false;
    }
  };
  // Probes are not worth a line each: warnings and worse only, or less when the whole server logs less.
  const logLevel = (['info', 'debug', 'trace'].includes(server.log.level) ? 'warn' : server.log.level) as LogLevel;
  server.get(HEALTH_PATH, { logLevel }, async (req, reply) => {
    const dbOk = databaseAnswers();
    if (!dbOk) req.log.error('health check: the database does not answer');
    const health: Health = { ok: dbOk, db: dbOk ? 'ok' : 'unavailable', version: VERSION };
    return reply.code(dbOk ? 200 : 503).header('cache-control', 'no-store').send({ r: health });
  });
}
