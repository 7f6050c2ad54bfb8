/**
 * A real S3-compatible server for the tests (issue 34): a throwaway OpenStack Swift with its S3 layer (`s3api`) and
 * its test authentication (`tempauth`), from Debian's swift-proxy, swift-object, swift-container and swift-account
 * packages (.ci/run installs them). A fake such as s3rver accepts requests signed with a wrong secret, so it cannot
 * prove that an adapter signs its requests; Swift checks every signature.
 *
 * A start writes the configuration into a new temporary folder, which also holds the rings and the one device the
 * objects are written to (Swift keeps its metadata in extended attributes: the folder must be on a file system that
 * has them, such as ext4), and runs tests/helpers/object-store-server.py, which builds the rings and forks the four
 * servers, on free loopback ports. The keys are new at every start. Swift reads /etc/swift/swift.conf whatever its
 * configuration says (its storage policies, the hashes' salt): the packages' own file, naming one policy, is used as
 * it is. As root, the servers run as the `swift` user the packages create. A watchdog stops them and removes the
 * folder should the test process die before its teardown.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { PROJECT_ROOT } from './paths.ts';
import {
  endWatchdog,
  freePorts,
  handOverTree,
  isExecutable,
  logTail,
  startWatchdog,
  userIds,
  waitUntilListening,
} from './server-processes.ts';

export interface ObjectStoreServer {
  /** `http://127.0.0.1:<port>`: the S3 endpoint, for path-style requests. */
  endpoint: string;
  /** The region the server answers for: a request signed for another one is refused. */
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Creates a new, empty bucket and answers its name. */
  createBucket: () => Promise<string>;
  /** How long the start took, in milliseconds. */
  startMs: number;
  /** The servers' output so far (warnings and errors), for a message. */
  log: () => string;
  stop: () => Promise<void>;
}

const LAUNCHER = path.join(PROJECT_ROOT, 'tests/helpers/object-store-server.py');

const REGION = 'gallery-test-1';

/** The Swift account the keys belong to (tempauth's `AUTH_gallery`). */
const ACCOUNT = 'gallery';

/** Who runs the servers when the tests run as root: the user Debian's packages create. */
const SERVER_USER = 'swift';

const SERVER_COMMANDS = ['swift-proxy-server', 'swift-object-server', 'swift-container-server', 'swift-account-server'];

const INSTALL_HINT =
  'On Debian or Ubuntu: `apt-get install --no-install-recommends swift-proxy swift-object swift-container ' +
  'swift-account` (.ci/run does so when they are missing); the S3 layer, s3api, is part of them.';

/** How long a start may take on a machine busy with other tests before it counts as failed. */
const START_TIMEOUT_MS = 60_000;

/** The Python that runs Swift: the one its commands name on their first line. Fails with how to install Swift. */
function swiftPython(): string {
  const commands = SERVER_COMMANDS.map((name) =>
    [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/bin']
      .map((dir) => path.join(dir, name))
      .find(isExecutable),
  );
  const missing = SERVER_COMMANDS.filter((_, index) => !commands[index]);
  if (missing.length > 0) {
    throw new Error(
      `OpenStack Swift is missing (${missing.join(', ')}): the object storage tests run one. ${INSTALL_HINT}`,
    );
  }
  if (!fs.existsSync('/etc/swift/swift.conf')) {
    throw new Error(`/etc/swift/swift.conf is missing, which Swift always reads. ${INSTALL_HINT}`);
  }
  const firstLine = fs.readFileSync(commands[0]!, 'utf8').split('\n', 1)[0]!;
  return /^#!\s*(\S+)/.exec(firstLine)?.[1] ?? 'python3';
}

interface Ports {
  proxy: number;
  account: number;
  container: number;
  object: number;
}

/** The settings every server shares. */
function common(dir: string, port: number): string[] {
  return [
    '[DEFAULT]',
    'bind_ip = 127.0.0.1',
    `bind_port = ${port}`,
    // In the process the launcher forked, not in workers of its own.
    'workers = 0',
    // A port taken since it was found free fails the start at once; the start then tries other ports.
    'bind_timeout = 1',
    `swift_dir = ${dir}`,
    `devices = ${path.join(dir, 'devices')}`,
    'mount_check = false',
    'log_level = WARNING',
    // Generous waits between the servers: a loaded test machine, not a failing disk.
    'conn_timeout = 10',
    'node_timeout = 60',
    '',
  ];
}

/** One server of storage (account, container or object): its application and nothing in front. */
function storageServerConfig(kind: 'account' | 'container' | 'object', dir: string, port: number): string {
  return [
    ...common(dir, port),
    '[pipeline:main]',
    `pipeline = ${kind}-server`,
    '',
    `[app:${kind}-server]`,
    `use = egg:swift#${kind}`,
    // The container listing is brought up to date while the object is written, not later by an updater (none
    // runs here), and keeps no free-space reserve: the test disk may well be fuller than 99 %.
    ...(kind === 'object' ? ['container_update_timeout = 60', 'fallocate_reserve = 0'] : []),
    '',
  ].join('\n');
}

/** The proxy: S3 (s3api) in front of tempauth, with the one user whose keys the tests sign with. */
function proxyConfig(dir: string, ports: Ports, user: string, key: string): string {
  // The pipeline's filters other than s3api and tempauth, each as named there and as Swift names its code.
  const filters = [
    ['catch_errors', 'catch_errors'],
    ['gatekeeper', 'gatekeeper'],
    ['proxy-logging', 'proxy_logging'],
    ['listing_formats', 'listing_formats'],
    ['copy', 'copy'],
    ['slo', 'slo'],
    ['dlo', 'dlo'],
  ];
  return [
    ...common(dir, ports.proxy),
    '[pipeline:main]',
    'pipeline = catch_errors gatekeeper proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server',
    '',
    // Memcached's part, in the proxy's own memory (the launcher's MemoryCache): tempauth works only with a cache.
    '[filter:cache]',
    'paste.filter_factory = __main__:memory_cache_filter',
    '',
    '[app:proxy-server]',
    'use = egg:swift#proxy',
    'account_autocreate = true',
    // With one node of each kind, a few slow answers must not shut it out for a minute.
    'error_suppression_limit = 1000',
    '',
    '[filter:s3api]',
    'use = egg:swift#s3api',
    `location = ${REGION}`,
    '',
    '[filter:tempauth]',
    'use = egg:swift#tempauth',
    `user_${ACCOUNT}_${user} = ${key} .admin`,
    '',
    ...filters.flatMap(([name, code]) => [`[filter:${name}]`, `use = egg:swift#${code}`, '']),
  ].join('\n');
}

/**
 * The folder's files, before a start: the launcher (a copy: the project's folder may be closed to the server's user),
 * the configurations and the device folder. As root, all of it becomes the server user's, whom the servers run as.
 */
function writeConfiguration(dir: string, ports: Ports, user: string, key: string): void {
  fs.copyFileSync(LAUNCHER, path.join(dir, path.basename(LAUNCHER)));
  fs.mkdirSync(path.join(dir, 'devices', 'd1'), { recursive: true });
  for (const kind of ['account', 'container', 'object'] as const)
    fs.writeFileSync(path.join(dir, `${kind}-server.conf`), storageServerConfig(kind, dir, ports[kind]));
  fs.writeFileSync(path.join(dir, 'proxy-server.conf'), proxyConfig(dir, ports, user, key));
  if (process.getuid?.() === 0) handOverTree(dir, userIds(SERVER_USER, INSTALL_HINT));
}

/**
 * Who the servers run as: as root, the `swift` user (Swift drops root itself only in the workers it forks, and these
 * servers fork none); otherwise this user.
 */
function serverIdentity(): { uid?: number; gid?: number } {
  return process.getuid?.() === 0 ? userIds(SERVER_USER, INSTALL_HINT) : {};
}

/** Stops the launcher and its servers at once (nothing in them is kept); quiet when they have gone. */
async function stopProcesses(dir: string, launcher: ChildProcess): Promise<void> {
  if (launcher.exitCode === null && launcher.signalCode === null) {
    const exited = new Promise((resolve) => launcher.once('exit', resolve));
    launcher.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
  }
  // Whatever is left of what the launcher started, should it have died without stopping them.
  const pids = fs.existsSync(path.join(dir, 'pids'))
    ? fs.readFileSync(path.join(dir, 'pids'), 'utf8').split(/\s+/)
    : [];
  for (const pid of pids.filter(Boolean).map(Number)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

interface Start {
  python: string;
  dir: string;
  user: string;
  key: string;
}

/** One attempt on new ports: answers the running launcher and the ports, or throws with the servers' log. */
async function launch({ python, dir, user, key }: Start): Promise<{ launcher: ChildProcess; ports: Ports }> {
  const [proxy, account, container, object] = await freePorts(4);
  const ports: Ports = { proxy: proxy!, account: account!, container: container!, object: object! };
  writeConfiguration(dir, ports, user, key);
  const logFile = path.join(dir, 'swift.log');
  const log = fs.openSync(logFile, 'w');
  const launcher = spawn(
    python,
    ['-u', path.join(dir, path.basename(LAUNCHER)), dir, ...[ports.account, ports.container, ports.object].map(String)],
    {
      stdio: ['ignore', log, log],
      // Eventlet's own resolver costs a fifth of a second at every start, and loopback addresses need none. The
      // home folder is the server's own (as root, the `swift` user may not read root's).
      env: { ...process.env, HOME: dir, EVENTLET_NO_GREENDNS: 'yes' },
      ...serverIdentity(),
    },
  );
  fs.closeSync(log);
  try {
    await waitUntilListening(Object.values(ports), {
      timeoutMs: START_TIMEOUT_MS,
      failed: () =>
        launcher.exitCode !== null || launcher.signalCode !== null
          ? `Swift's servers ended (${launcher.exitCode ?? launcher.signalCode})`
          : null,
      describe: () => `Swift's log ends:\n${logTail(logFile)}`,
    });
  } catch (error) {
    await stopProcesses(dir, launcher);
    throw error;
  }
  return { launcher, ports };
}

/** Starts a throwaway Swift with S3 in front; resolves once every server accepts connections. */
export async function startObjectStoreServer(): Promise<ObjectStoreServer> {
  const started = performance.now();
  const python = swiftPython();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gallery-swift-'));
  const watchdog = startWatchdog('object-store-watchdog', dir, 'kill -KILL $(cat "$dir/pids")');
  const user = `tester${randomBytes(4).toString('hex')}`;
  // Test-only keys, new at every start: base64url, which Swift's configuration files read as they are.
  const key = randomBytes(24).toString('base64url');
  let running: { launcher: ChildProcess; ports: Ports } | undefined;
  try {
    for (let attempt = 1; !running; attempt++) {
      try {
        running = await launch({ python, dir, user, key });
      } catch (error) {
        const portTaken = /Could not bind|Address already in use/i.test(String(error));
        if (attempt >= 3 || !portTaken) throw error;
      }
    }
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    endWatchdog(watchdog);
    throw error;
  }
  const { launcher, ports } = running;
  const credentials = { accessKeyId: `${ACCOUNT}:${user}`, secretAccessKey: key };
  const endpoint = `http://127.0.0.1:${ports.proxy}`;
  const client = new S3Client({ endpoint, region: REGION, forcePathStyle: true, credentials });
  let buckets = 0;
  return {
    endpoint,
    region: REGION,
    ...credentials,
    startMs: performance.now() - started,
    async createBucket() {
      const bucket = `gallery-${++buckets}-${randomBytes(4).toString('hex')}`;
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      return bucket;
    },
    log: () => logTail(path.join(dir, 'swift.log'), 200),
    async stop() {
      client.destroy();
      await stopProcesses(dir, launcher);
      fs.rmSync(dir, { recursive: true, force: true });
      endWatchdog(watchdog);
    },
  };
}

/** Stops the server and removes its folder. */
export async function stopObjectStoreServer(server: ObjectStoreServer): Promise<void> {
  await server.stop();
}
