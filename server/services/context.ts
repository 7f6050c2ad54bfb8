/** What every service function receives: the database, the clock, the media store, the config and a logger. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db.ts';
import type { MediaStore } from '../media-store.ts';

export interface ServiceContext {
  db: Db;
  clock: Clock;
  media: MediaStore;
  config: AppConfig;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;
}
