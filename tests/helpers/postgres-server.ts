/**
 * A throwaway PostgreSQL server in a folder of its own, for the tests (tests/helpers/server/postgres.ts starts one a
 * run) and the benchmarks: initdb, then a start on 127.0.0.1 and a free port, with nothing written to disk in a way
 * that survives a crash. It needs PostgreSQL 15 or later (POSTGRES_BIN, else Debian's
 * /usr/lib/postgresql/<version>/bin, else the PATH) and fails with how to install it when missing. PostgreSQL refuses
 * to run as root: as root, the server runs as the `postgres` user (which Debian's package creates).
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePorts, isExecutable } from './server-processes.ts';

const run = promisify(execFile);

const OLDEST_MAJOR = 15;

/** The superuser initdb creates; the server trusts connections from the machine itself, without a password. */
const SUPERUSER = 'postgres';

/** Who runs the server when the tests run as root, which PostgreSQL refuses: the user Debian's package creates. */
const SERVER_USER = 'postgres';

const INSTALL_HINT =
  'On Debian or Ubuntu: `apt-get install postgresql-15` (.ci/run does so when it is missing); elsewhere install the ' +
  'server binaries of PostgreSQL 15 or later and set POSTGRES_BIN to the folder holding initdb, pg_ctl and postgres.';

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
export async function startPostgresServer(
  dir: string,
  { durable = false }: { durable?: boolean } = {},
): Promise<{ url: string; bin: string }> {
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
  // Throwaway data: nothing needs to survive a crash, so nothing waits for the disk; `durable` keeps PostgreSQL's own
  // defaults (every commit flushed to disk before it is answered), as a production server has them.
  const throwaway = durable ? [] : ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off'];
  fs.appendFileSync(
    path.join(data, 'postgresql.conf'),
    [
      '',
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir.replaceAll("'", "''")}'`,
      ...throwaway,
      '',
    ].join('\n'),
  );
  const log = path.join(dir, 'postgres.log');
  for (let attempt = 1; ; attempt++) {
    const port = (await freePorts(1))[0]!;
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
export function postgresWatchdog(dir: string): number | undefined {
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

/** Stops the server in `dir` at once (nothing in it is kept); quiet when it is not running. */
export async function stopPostgresServer(dir: string, bin: string): Promise<void> {
  await asServerUser(path.join(bin, 'pg_ctl'), [
    'stop',
    '--mode=immediate',
    '--wait',
    `--pgdata=${path.join(dir, 'data')}`,
  ]).catch(() => {});
}

/** Runs one statement as the superuser on the database at `url`. */
export async function asSuperuser(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Creates the database `name` on the server of the superuser's `serverUrl` (`options` as CREATE DATABASE takes them:
 * `template template0 encoding 'UTF8'`) and answers its URL.
 */
export async function createDatabase(serverUrl: string, name: string, options = ''): Promise<string> {
  await asSuperuser(serverUrl, `create database ${name}${options ? ` ${options}` : ''}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
