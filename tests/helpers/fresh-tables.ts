/**
 * A setup file of every test project (vitest.config.ts): each file starts with SQLite's tables in the services, as a
 * fresh process does. Files share their worker's modules (`isolate: false`), and the SQLite and PostgreSQL lanes share
 * workers: a file before this one may have left PostgreSQL's tables in place (an app on PostgreSQL swaps them in), and
 * a file that opens a SQLite database of its own, not through an app, would then write through the wrong ones.
 */
import { beforeAll } from 'vitest';
import { useTablesOf } from '#drizzle/tables.ts';

beforeAll(() => useTablesOf('sqlite'));
