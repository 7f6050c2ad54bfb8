/**
 * What the helpers that start a real server of their own for the tests share (today the object store's,
 * tests/helpers/object-store-server.ts): free loopback ports, a wait until they answer, the user a server runs as
 * when the tests run as root, the end of a log for a message, and a watchdog that cleans up after a test process
 * killed before its teardown.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether `file` is a regular file this process may run. */
export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** `count` distinct loopback ports, each free a moment ago (another program may still take one before the server). */
export async function freePorts(count: number): Promise<number[]> {
  const ports = await reservePorts(count);
  await releasePorts(ports);
  return ports;
}

/** Ports held by reservePorts until releasePorts lets them go. */
const held = new Map<number, net.Server>();

/**
 * `count` loopback ports held open until releasePorts, for a server started long after its port is chosen (nginx,
 * after the apps that must know its address): a port merely free a moment ago may meanwhile be taken by a server
 * another test starts.
 */
export async function reservePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  return servers.map((server) => {
    const { port } = server.address() as net.AddressInfo;
    held.set(port, server);
    return port;
  });
}

/** Lets the reserved ports go (ports never reserved are passed over), just before their server binds them. */
export async function releasePorts(ports: readonly number[]): Promise<void> {
  await Promise.all(
    ports.map((port) => {
      const server = held.get(port);
      held.delete(port);
      return server ? new Promise((resolve) => server.close(resolve)) : Promise.resolve();
    }),
  );
}

/** Whether something accepts connections on the loopback `port` now. */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Waits until every port accepts connections. Throws when `failed` answers a reason (the server's process ended,
 * say) or after `timeoutMs`; `describe` adds what is known then (the end of the server's log) to the message.
 */
export async function waitUntilListening(
  ports: readonly number[],
  options: { timeoutMs: number; failed: () => string | null; describe: () => string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const waiting = new Set(ports);
  for (;;) {
    for (const port of [...waiting]) if (await isListening(port)) waiting.delete(port);
    if (waiting.size === 0) return;
    const reason = options.failed() ?? (Date.now() > deadline ? `not listening after ${options.timeoutMs} ms` : null);
    if (reason) throw new Error(`${reason} (waiting for ports ${[...waiting].join(', ')}); ${options.describe()}`);
    await sleep(50);
  }
}

/**
 * The numeric user and group of `user`, for a server that refuses to run as root or should not: the tests then
 * hand it its folder. Throws `hint` (how to get that user) when there is no such user.
 */
export function userIds(user: string, hint: string): { uid: number; gid: number } {
  try {
    const [uid, gid] = ['-u', '-g'].map((flag) =>
      Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim()),
    );
    return { uid: uid!, gid: gid! };
  } catch {
    throw new Error(`There is no \`${user}\` user to run the server as. ${hint}`);
  }
}

/** Gives `dir` and everything in it to `owner`. */
export function handOverTree(dir: string, owner: { uid: number; gid: number }): void {
  fs.chownSync(dir, owner.uid, owner.gid);
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }))
    fs.lchownSync(`${dir}/${entry}`, owner.uid, owner.gid);
}

/** The last lines of a log file, for a message. */
export function logTail(file: string, lines = 15): string {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * For a test process killed before its teardown (a crash, a killed run): a process of its own, named `name` in
 * `ps`, that waits for this one to end, then runs `stopScript` (sh, with the folder in "$dir") to stop the server at
 * once, and removes `dir`. Answers its process id, for endWatchdog once the teardown has done the same.
 */
export function startWatchdog(name: string, dir: string, stopScript: string): number | undefined {
  const script = [
    'dir=$2',
    'while kill -0 "$1" 2> /dev/null; do sleep 2; done',
    `(${stopScript}) > /dev/null 2>&1`,
    'sleep 1',
    'rm -rf "$dir"',
  ].join('\n');
  const child = spawn('sh', ['-c', script, name, String(process.pid), dir], { detached: true, stdio: 'ignore' });
  child.unref();
  return child.pid;
}

/** Ends a watchdog whose work the teardown has done; quiet when it has already gone. */
export function endWatchdog(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(pid);
  } catch {
    // Already gone.
  }
}
