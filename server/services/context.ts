/** What every service function receives: the database, the clock, the media storage, the config and a logger. */
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db.ts';
import type { MediaStorage } from '../storage/index.ts';

export interface ServiceContext {
  db: Db;
  clock: Clock;
  /** Where picture bytes live, and the one maker of their addresses (server/storage/port.ts). */
  media: MediaStorage;
  config: AppConfig;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'debug'>;
}
