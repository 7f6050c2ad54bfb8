/**
 * nginx in front of real app processes, for the front-door tests: deploy/nginx.conf as it is written, changed only
 * where a test machine cannot follow it (the rules the file's header lists, applied here and counted, so that the
 * file and the test cannot drift apart unnoticed), run as the current user in a folder of its own.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isExecutable, isListening, releasePorts } from '../server-processes.ts';
import { PROJECT_ROOT } from './real-server.ts';

/** The ports a front door needs come from the helpers every test server shares; the browser tests take them here. */
export { freePorts, reservePorts } from '../server-processes.ts';

export const NGINX_CONF = path.join(PROJECT_ROOT, 'deploy/nginx.conf');

/** The nginx binary: NGINX_PATH, else `nginx` on the PATH or in /usr/sbin (Debian's). Fails with how to get one. */
export function nginxBinary(): string {
  const candidates = process.env.NGINX_PATH
    ? [process.env.NGINX_PATH]
    : [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/sbin', '/usr/local/sbin'].map((dir) =>
        path.join(dir, 'nginx'),
      );
  const found = candidates.find(isExecutable);
  if (!found) {
    throw new Error(
      `nginx is missing (looked for ${candidates.join(', ')}): the front-door tests run the site behind it. ` +
        "Install Debian's with `apt-get install nginx-light` (.ci/run does so when it is missing), " +
        'or set NGINX_PATH to an nginx binary.',
    );
  }
  return found;
}

export interface FrontDoorPorts {
  /** The app processes' ports, in the upstream's order (3001, 3002 in the file). */
  apps: number[];
  /** Where the HTTPS server block listens in the test (as plain HTTP), and the HTTP→HTTPS redirect. */
  site: number;
  redirect: number;
}

/** How late deploy/nginx.conf lets the access log's lines be written (its `flush=`). */
const ACCESS_LOG_FLUSH_MS = 1000;
/** How long accessLog waits for the lines it is told to look for. */
const ACCESS_LOG_WAIT_MS = 15_000;

/** The upstream ports deploy/nginx.conf names, in order. */
const FILE_APP_PORTS = [3001, 3002];

/**
 * deploy/nginx.conf for a test under `dir`: paths under /var and /run moved into `dir`, nginx's temporary folders
 * too, `user` the current user, the upstream's ports and the servers' listens the test's, the IPv6 listens and the
 * TLS lines gone. Throws if the file no longer has what a rule expects.
 */
export function configForTest(source: string, dir: string, ports: FrontDoorPorts): string {
  const counts = { user: 0, appPorts: 0, listens: 0, ssl: 0, http: 0 };
  const listenPorts: Record<string, number> = { '80': ports.redirect, '443': ports.site };
  const lines: string[] = [];
  for (const line of source.split('\n')) {
    if (/^\s*#/.test(line)) {
      lines.push(line);
      continue;
    }
    const code = line.replace(/#.*/, '');
    const indent = /^\s*/.exec(line)![0];
    if (/^\s*user\s/.test(code)) {
      counts.user++;
      lines.push(`${indent}user ${os.userInfo().username};`);
      continue;
    }
    if (/^\s*ssl_/.test(code)) {
      counts.ssl++;
      continue;
    }
    if (/^\s*listen\s+\[/.test(code)) continue;
    const listen = /^\s*listen\s+(\d+)\b/.exec(code);
    if (listen) {
      const port = listenPorts[listen[1]!];
      if (port === undefined) throw new Error(`deploy/nginx.conf listens on ${listen[1]}, which the test does not map`);
      counts.listens++;
      lines.push(`${indent}listen 127.0.0.1:${port};`);
      continue;
    }
    let changed = line.replace(/(?<=[\s=])\/(?:var|run)\/[^\s;]*/g, (file) => path.join(dir, file));
    for (const [i, filePort] of FILE_APP_PORTS.entries()) {
      const from = `server 127.0.0.1:${filePort} `;
      if (changed.includes(from)) {
        counts.appPorts++;
        changed = changed.replace(from, `server 127.0.0.1:${ports.apps[i]} `);
      }
    }
    lines.push(changed);
    if (/^\s*http\s*\{/.test(code)) {
      counts.http++;
      for (const kind of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'])
        lines.push(`${indent}    ${kind}_temp_path ${path.join(dir, 'temp', kind)};`);
    }
  }
  const expected = { user: 1, appPorts: FILE_APP_PORTS.length, listens: 2, http: 1 };
  for (const [rule, n] of Object.entries(expected)) {
    if (counts[rule as keyof typeof counts] !== n)
      throw new Error(
        `deploy/nginx.conf: the test expected ${n} ${rule} line(s), found ${counts[rule as keyof typeof counts]}`,
      );
  }
  if (counts.ssl < 2) throw new Error('deploy/nginx.conf: the test expected the TLS server to have ssl_ lines');
  return lines.join('\n');
}

/** One line of the access log (deploy/nginx.conf's `gallery` format). */
export interface AccessLogLine {
  id: string;
  method: string;
  uri: string;
  /** As nginx writes it, three digits: "000" for a request closed before it had a status. */
  status: string;
  upstream: string;
  /** Every attempt's status, comma-separated: "503, 200" is a request sent on to the other process. */
  upstream_status: string;
  cache: string;
}

export interface Nginx {
  process: ChildProcess;
  /** The site (the HTTPS server block, as plain HTTP) and the HTTP server that redirects to HTTPS. */
  url: string;
  redirectUrl: string;
  dir: string;
  /**
   * The access log's lines, once what nginx holds in its buffer is written: the file asks it to write a line within
   * a second (`access_log … flush=1s`), so this waits that long first. With `holds`, until the lines hold what it
   * looks for (a loaded machine's nginx writes them later), or ACCESS_LOG_WAIT_MS have passed.
   */
  accessLog: (holds?: (lines: AccessLogLine[]) => boolean) => Promise<AccessLogLine[]>;
  /** The access log's file, for a reader that cannot hold it all (a benchmark's millions of lines). */
  accessLogFile: string;
  errorLog: () => string;
  stop: () => Promise<void>;
}

/** Starts nginx with deploy/nginx.conf in front of the app processes on `ports.apps`; resolves once it listens. */
export async function startNginx(ports: FrontDoorPorts): Promise<Nginx> {
  const binary = nginxBinary();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-nginx-'));
  const config = configForTest(fs.readFileSync(NGINX_CONF, 'utf8'), dir, ports);
  for (const file of config.match(new RegExp(`${escapeRegExp(dir)}[^\\s;]*`, 'g')) ?? [])
    fs.mkdirSync(path.dirname(file), { recursive: true });
  const configFile = path.join(dir, 'nginx.conf');
  fs.writeFileSync(configFile, config);
  const errorFile = path.join(dir, 'var/log/nginx/error.log');
  const accessFile = path.join(dir, 'var/log/nginx/gallery.access.log');

  // Ports the caller reserved (reservePorts) are let go only now, so no other test's server takes them meanwhile.
  await releasePorts([ports.site, ports.redirect]);
  const child = spawn(binary, ['-p', `${dir}/`, '-c', configFile, '-e', 'stderr', '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');

  const deadline = Date.now() + 15_000;
  while (!(await isListening(ports.site)) || !(await isListening(ports.redirect))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start (${binary}):\n${output}\n${read(errorFile)}`);
    }
    await sleep(50);
  }
  // Something else answering on its ports while nginx gave up binding them would pass the loop above.
  await sleep(100);
  if (child.exitCode !== null || child.signalCode !== null)
    throw new Error(`nginx ended as it started (${binary}):\n${output}\n${read(errorFile)}`);
  return {
    process: child,
    url: `http://127.0.0.1:${ports.site}`,
    redirectUrl: `http://127.0.0.1:${ports.redirect}`,
    dir,
    accessLogFile: accessFile,
    async accessLog(holds) {
      const lines = () =>
        read(accessFile)
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as AccessLogLine);
      if (!holds) {
        await sleep(ACCESS_LOG_FLUSH_MS + 250);
        return lines();
      }
      const deadline = Date.now() + ACCESS_LOG_WAIT_MS;
      let now = lines();
      while (!holds(now) && Date.now() < deadline) {
        await sleep(100);
        now = lines();
      }
      return now;
    },
    errorLog: () => `${output}${read(errorFile)}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
