/**
 * A real PostgreSQL for the server tests (decision 037). The server project's global setup (`setup` below, named in
 * vitest.config.ts) starts one server a run in a temporary folder, on 127.0.0.1 and a free port, without waiting for
 * it: initdb and the start overlap the first test files. A test file asks for a database of its own with
 * `postgresDatabase()`, which waits until the server is up and creates a fresh, empty one (`CREATE DATABASE`, a fraction of a
 * second). The server and its folder are removed at the end of the run, and by a small watchdog should
 * the run be killed.
 *
 * The server itself (what it needs, how it starts): tests/helpers/postgres-server.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import {
  asSuperuser,
  createDatabase,
  postgresWatchdog,
  startPostgresServer,
  stopPostgresServer,
} from '../postgres-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of the run's PostgreSQL server; `outcome.json` in it says when it is up (or why it failed). */
    postgresDir: string;
  }
}

/** Where a test file's database is created from: the empty template, which nobody connects to. */
const TEMPLATE = 'template0';

/** How long a test file waits for the server (initdb and start, on a machine busy with other tests). */
const START_WAIT_MS = 120_000;

interface Outcome {
  ok: boolean;
  /** The superuser's URL to the `postgres` database, when ok. */
  url?: string;
  /** Why there is no server, when not ok. */
  message?: string;
  /** Seconds from the setup to the server accepting connections. */
  seconds?: number;
}

interface RunServer {
  dir: string;
  /** Resolves to the binaries' folder once the server is up, or null when it could not start. */
  starting: Promise<string | null>;
  guard: number | undefined;
  /** The projects that named this setup and have not torn down yet. */
  users: number;
}

/**
 * The run's server, kept on the main process's global object: both server projects name this setup, and Vitest may
 * load it once for each, but the run has one server.
 */
const RUN_SERVER = Symbol.for('gallery.tests.postgres');
const runServers = globalThis as { [RUN_SERVER]?: RunServer };

function startRunServer(): RunServer {
  const started = performance.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-postgres-'));
  const outcomeFile = path.join(dir, 'outcome.json');
  const writeOutcome = (outcome: Outcome) => {
    fs.writeFileSync(`${outcomeFile}.tmp`, JSON.stringify(outcome));
    fs.renameSync(`${outcomeFile}.tmp`, outcomeFile);
  };
  const guard = postgresWatchdog(dir);
  const starting = startPostgresServer(dir).then(
    ({ url, bin }) => {
      writeOutcome({ ok: true, url, seconds: (performance.now() - started) / 1000 });
      return bin;
    },
    (error: unknown) => {
      writeOutcome({ ok: false, message: error instanceof Error ? error.message : String(error) });
      return null;
    },
  );
  return { dir, starting, guard, users: 0 };
}

async function stopRunServer({ dir, starting, guard }: RunServer): Promise<void> {
  const bin = await starting;
  if (bin) await stopPostgresServer(dir, bin);
  fs.rmSync(dir, { recursive: true, force: true });
  if (guard) {
    try {
      process.kill(guard);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Vitest's global setup of the server projects: starts the run's server in the background (the first project to
 * ask) and hands its folder to the test files; the last project's teardown stops it and removes the folder.
 */
export function setup(project: TestProject): () => Promise<void> {
  const server = (runServers[RUN_SERVER] ??= startRunServer());
  server.users++;
  project.provide('postgresDir', server.dir);
  return async () => {
    if (--server.users > 0) return;
    delete runServers[RUN_SERVER];
    await stopRunServer(server);
  };
}

/** The run's server: waits until it is up, or throws why it is not (PostgreSQL missing, a failed start). */
async function runServer(): Promise<Outcome & { ok: true; url: string }> {
  const dir = inject('postgresDir');
  if (!dir) {
    throw new Error(
      'No PostgreSQL was started for this Vitest project: name tests/helpers/server/postgres.ts in its globalSetup.',
    );
  }
  const outcomeFile = path.join(dir, 'outcome.json');
  const deadline = Date.now() + START_WAIT_MS;
  while (!fs.existsSync(outcomeFile)) {
    if (Date.now() > deadline) throw new Error(`PostgreSQL did not start within ${START_WAIT_MS / 1000} s (${dir}).`);
    await sleep(50);
  }
  const outcome = JSON.parse(fs.readFileSync(outcomeFile, 'utf8')) as Outcome;
  if (!outcome.ok || !outcome.url) throw new Error(outcome.message ?? 'PostgreSQL did not start.');
  return outcome as Outcome & { ok: true; url: string };
}

export interface TestDatabase {
  /** Its `postgres://` URL, for openPostgres or a pg client. */
  url: string;
  name: string;
  /** Drops it, closing whatever connections are left. */
  drop: () => Promise<void>;
}

let databases = 0;

/**
 * A new, empty database on the run's server, for one test file: UTF8 with the server's C.UTF-8 locale unless
 * `options` name others (`{ encoding: 'SQL_ASCII', locale: 'C' }`, to see such a database refused).
 */
export async function postgresDatabase(options: { encoding?: string; locale?: string } = {}): Promise<TestDatabase> {
  const server = await runServer();
  databases++;
  const name = `gallery_test_${process.pid}_${databases}_${Math.random().toString(36).slice(2, 8)}`;
  const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
  const url = await createDatabase(
    server.url,
    name,
    `template ${TEMPLATE}` +
      (options.encoding ? ` encoding ${literal(options.encoding)}` : '') +
      (options.locale ? ` locale ${literal(options.locale)}` : ''),
  );
  return {
    url,
    name,
    drop: () => asSuperuser(server.url, `drop database if exists ${name} with (force)`),
  };
}
