/**
 * The real `npm start` (scripts/start.ts --no-build) in its own process over a given data folder, for the operations
 * tests (shutdown, backup, crash safety): start it, learn its URL, and sign users in by writing their sessions
 * straight into the database file, as the reservation race test does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { users } from '#drizzle/tables.ts';
import { Role } from '#shared/domain.ts';
import { createSession } from '#server/auth/sessions.ts';
import { systemClock } from '#server/clock.ts';
import type { Db } from '#server/db.ts';
import { newToken } from '#server/tokens.ts';

export const PROJECT_ROOT = path.resolve(import.meta.dirname, '../../..');
/**
 * How tests run a TypeScript file of the project: Node itself with tsx as a loader, not the tsx launcher, which
 * starts a second Node process for each command (its start-up time counted twice), and passes signals on to it.
 */
export const nodeWithTsx = (...fileAndArgs: string[]): string[] => ['--import', 'tsx', ...fileAndArgs];
/** How a one-shot command (npm run backup, migrate-to-postgres) ended, and what it wrote. */
export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `scripts/<script>` as an operator does, with DATA_DIR in an otherwise bare environment, to its end. */
export function runScript(
  script: string,
  args: string[],
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ScriptRun> {
  const child = spawn(process.execPath, nodeWithTsx(`scripts/${script}`, ...args), {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** The CSRF cookie and header every signed-in test browser sends (double submit: any well-formed value works). */
export const TEST_CSRF = 'ops-csrf-token-ops-csrf-token-012345';

export interface RealServer {
  process: ChildProcess;
  url: string;
  /** Everything the process wrote to stdout (its JSON log lines among it) and to stderr so far. */
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
}

/**
 * `script` is what Node runs (from the project's folder): `npm start`'s own by default; browser tests run
 * tests/helpers/server/client-dir-server.ts, the same start over the client they built elsewhere.
 */
export function startRealServer(
  dataDir: string,
  env: Record<string, string> = {},
  script: string[] = ['scripts/start.ts', '--no-build'],
): Promise<RealServer> {
  // Node itself with tsx as a loader: a signal, SIGKILL included, reaches the server and nothing else.
  const child = spawn(process.execPath, nodeWithTsx(...script), {
    cwd: PROJECT_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      TZ: process.env.TZ ?? '',
      LOG_LEVEL: 'warn',
      SEED: 'none',
      PORT: '0',
      DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /is running at (http:\/\/\S+) /.exec(out);
      if (match)
        resolve({
          process: child,
          url: match[1]!.replace('localhost', '127.0.0.1'),
          stdout: () => out,
          stderr: () => err,
          exited,
        });
    });
    void exited.then((code) => reject(new Error(`the server exited (${code}) before listening: ${err}`)));
  });
}

/** Ends the server with `signal` and waits for it to exit; answers the exit code or signal. */
export async function stopRealServer(server: RealServer, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string> {
  server.process.kill(signal);
  return server.exited;
}

/** Users with sessions written into `db`; each answers the Cookie header a signed-in browser sends. */
export async function signedInUsers(
  db: Db,
  n: number,
  label = 'ops',
): Promise<{ id: number; email: string; cookie: string }[]> {
  const now = Date.now();
  const made = Array.from({ length: n }, async (_, i) => {
    const email = `${label}${i}-${newToken(4).toLowerCase()}@ops.test`;
    const [user] = await db
      .insert(users)
      .values({
        token: newToken(),
        email,
        passwordHash: 'unusable',
        firstname: 'Ops',
        lastname: `User${i}`,
        role: Role.Observer,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: users.id });
    return {
      id: user!.id,
      email,
      cookie: `session=${(await createSession(db, systemClock, user!.id)).token}; csrf=${TEST_CSRF}`,
    };
  });
  return Promise.all(made);
}

/** Headers of a same-origin write from a signed-in browser. */
export function writeHeaders(cookie: string): Record<string, string> {
  return { cookie, 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': TEST_CSRF };
}

/** A multipart body as a browser's fetch would encode it. */
export async function encodeForm(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}
