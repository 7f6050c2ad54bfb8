/**
 * A real PostgreSQL for the server tests (decision 037). The server project's global setup (`setup` below, named in
 * vitest.config.ts) starts one server a run in a temporary folder, on 127.0.0.1 and a free port, without waiting for
 * it: initdb and the start overlap the first test files. A test file asks for a database of its own with
 * `postgresDatabase()`, which waits until the server is up and creates a fresh, empty one (`CREATE DATABASE`, a fraction of a
 * second). The server and its folder are removed at the end of the run, and by a small watchdog should
 * the run be killed.
 *
 * It needs PostgreSQL 15 or later (POSTGRES_BIN, else Debian's /usr/lib/postgresql/<version>/bin, else the PATH) and
 * fails with how to install it when missing. PostgreSQL refuses to run as root: as root, the server runs as the
 * `postgres` user (which Debian's package creates).
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of the run's PostgreSQL server; `outcome.json` in it says when it is up (or why it failed). */
    postgresDir: string;
  }
}

const run = promisify(execFile);

const OLDEST_MAJOR = 15;

/** The superuser initdb creates; the server trusts connections from the machine itself, without a password. */
const SUPERUSER = 'postgres';

/** Who runs the server when the tests run as root, which PostgreSQL refuses: the user Debian's package creates. */
const SERVER_USER = 'postgres';

/** Where a test file's database is created from: the empty template, which nobody connects to. */
const TEMPLATE = 'template0';

/** How long a test file waits for the server (initdb and start, on a machine busy with other tests). */
const START_WAIT_MS = 120_000;

const INSTALL_HINT =
  'On Debian or Ubuntu: `apt-get install postgresql-15` (.ci/run does so when it is missing); elsewhere install the ' +
  'server binaries of PostgreSQL 15 or later and set POSTGRES_BIN to the folder holding initdb, pg_ctl and postgres.';

interface Outcome {
  ok: boolean;
  /** The superuser's URL to the `postgres` database, when ok. */
  url?: string;
  /** Why there is no server, when not ok. */
  message?: string;
  /** Seconds from the setup to the server accepting connections. */
  seconds?: number;
}

/** The folder holding PostgreSQL's server binaries, of version 15 or later, or an error saying how to get them. */
async function postgresBinaries(): Promise<{ bin: string; major: number }> {
  const candidates: string[] = [];
  if (process.env.POSTGRES_BIN) candidates.push(process.env.POSTGRES_BIN);
  else {
    const debian = '/usr/lib/postgresql';
    const versions = fs.existsSync(debian) ? fs.readdirSync(debian).filter((name) => /^\d+$/.test(name)) : [];
    for (const version of versions.sort((a, b) => Number(b) - Number(a)))
      candidates.push(path.join(debian, version, 'bin'));
    candidates.push(...(process.env.PATH ?? '').split(':').filter(Boolean));
  }
  const seen: string[] = [];
  for (const bin of candidates) {
    if (!['initdb', 'pg_ctl', 'postgres'].every((name) => isExecutable(path.join(bin, name)))) continue;
    const { stdout } = await run(path.join(bin, 'postgres'), ['--version']);
    const major = Number(/\(PostgreSQL\)\s+(\d+)/.exec(stdout)?.[1]);
    if (major >= OLDEST_MAJOR) return { bin, major };
    seen.push(`${bin} holds PostgreSQL ${major}`);
  }
  const looked = process.env.POSTGRES_BIN
    ? `POSTGRES_BIN=${process.env.POSTGRES_BIN}`
    : '/usr/lib/postgresql/<version>/bin and the PATH';
  throw new Error(
    `PostgreSQL ${OLDEST_MAJOR} or later is missing (looked in ${looked}${seen.length ? `; ${seen.join(', ')}` : ''}): ` +
      `the PostgreSQL tests start a server of their own. ${INSTALL_HINT}`,
  );
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A loopback port that was free a moment ago. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Runs a PostgreSQL program as the user the server runs as: this one, or `postgres` when this one is root. */
function asServerUser(file: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return process.getuid?.() === 0 ? run('runuser', ['-u', SERVER_USER, '--', file, ...args]) : run(file, args);
}

/** Makes `dir` the server user's, when that user is not this one. */
function handOver(dir: string): void {
  if (process.getuid?.() !== 0) return;
  let ids: number[];
  try {
    ids = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, SERVER_USER], { encoding: 'utf8' }).trim()));
  } catch {
    throw new Error(
      `PostgreSQL refuses to run as root, and there is no \`${SERVER_USER}\` user to run it as: run the tests as ` +
        `another user, or create that user (Debian's postgresql package does). ${INSTALL_HINT}`,
    );
  }
  fs.chownSync(dir, ids[0]!, ids[1]!);
}

/** The last lines of PostgreSQL's log, for a message. */
function logTail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * initdb, then the server started on a free port (another, up to three times, if that one was taken meanwhile).
 * Answers the superuser's URL and the binaries' folder.
 */
async function initAndStart(dir: string): Promise<{ url: string; bin: string }> {
  const { bin } = await postgresBinaries();
  handOver(dir);
  const data = path.join(dir, 'data');
  try {
    await asServerUser(path.join(bin, 'initdb'), [
      `--pgdata=${data}`,
      `--username=${SUPERUSER}`,
      '--auth=trust',
      '--encoding=UTF8',
      // Code point order and Unicode case folding, as SQLite's text compares and FTS5 folds (decision 037).
      '--locale=C.UTF-8',
      '--no-sync',
      '--no-instructions',
    ]);
  } catch (error) {
    throw new Error(`initdb failed: ${(error as { stderr?: string }).stderr ?? String(error)}`);
  }
  // Throwaway data: nothing needs to survive a crash, so nothing waits for the disk.
  fs.appendFileSync(
    path.join(data, 'postgresql.conf'),
    [
      '',
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir.replaceAll("'", "''")}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      '',
    ].join('\n'),
  );
  const log = path.join(dir, 'postgres.log');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      await asServerUser(path.join(bin, 'pg_ctl'), [
        'start',
        '--wait',
        '--timeout=90',
        `--pgdata=${data}`,
        `--log=${log}`,
        `--options=-p ${port}`,
      ]);
      return { url: `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`, bin };
    } catch (error) {
      const tail = logTail(log);
      if (attempt < 3 && /could not bind|already in use/i.test(tail)) continue;
      throw new Error(
        `PostgreSQL did not start (${(error as { stderr?: string }).stderr?.trim() || String(error)}); its log ends:\n${tail}`,
      );
    }
  }
}

/**
 * For a run killed before its teardown: a process of its own that waits for this one to end, then stops the server
 * at once (nothing in it is kept) and removes its folder. The teardown ends it when all went well.
 */
function watchdog(dir: string): number | undefined {
  const script = [
    'while kill -0 "$1" 2> /dev/null; do sleep 2; done',
    'pid=$(head -n 1 "$2/data/postmaster.pid" 2> /dev/null) && kill -QUIT "$pid" 2> /dev/null',
    'sleep 1',
    'rm -rf "$2"',
  ].join('\n');
  const child = spawn('sh', ['-c', script, 'postgres-watchdog', String(process.pid), dir], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  return child.pid;
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
  const guard = watchdog(dir);
  const starting = initAndStart(dir).then(
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
  if (bin) {
    await asServerUser(path.join(bin, 'pg_ctl'), [
      'stop',
      '--mode=immediate',
      '--wait',
      `--pgdata=${path.join(dir, 'data')}`,
    ]).catch(() => {});
  }
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
  await asSuperuser(
    server.url,
    `create database ${name} template ${TEMPLATE}` +
      (options.encoding ? ` encoding ${literal(options.encoding)}` : '') +
      (options.locale ? ` locale ${literal(options.locale)}` : ''),
  );
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => asSuperuser(server.url, `drop database if exists ${name} with (force)`),
  };
}

async function asSuperuser(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
