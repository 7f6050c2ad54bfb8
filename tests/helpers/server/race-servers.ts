/**
 * Gallery servers in their own processes over one data folder (tests/helpers/server/race-server.ts), for race tests:
 * two processes share one database file through separate better-sqlite3 connections, as a deployment's would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { nodeWithTsx } from './real-server.ts';

export interface RaceServer {
  process: ChildProcess;
  url: string;
  /** What the process wrote after its address: the log lines of its errors, and anything on stderr. */
  errors: () => string;
}

const root = path.resolve(import.meta.dirname, '../../..');

/** `env` adds to the little the server is given (the media storage's variables, say). */
export function startRaceServer(dataDir: string, env: Record<string, string> = {}): Promise<RaceServer> {
  // One process a server (the tsx launcher would start a second one), which SIGTERM reaches itself.
  const child = spawn(process.execPath, nodeWithTsx('tests/helpers/server/race-server.ts', dataDir), {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: process.env.TZ ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        const url = (JSON.parse(line) as { url: string }).url;
        resolve({ process: child, url, errors: () => out.slice(out.indexOf(line) + line.length).trim() + err });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`race server exited with ${code}: ${err}`)));
  });
}

export function stopRaceServers(servers: readonly RaceServer[]): Promise<void[]> {
  return Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          server.process.once('exit', () => resolve());
          server.process.kill('SIGTERM');
        }),
    ),
  );
}
