/**
 * A measuring client in its own process, so that the load a benchmark makes in its own (flood loops, searchers) does
 * not delay the measured requests. Usage: node --import tsx tests/bench/probe-process.ts <url> <mode> <arguments>.
 */
import http from 'node:http';

const [url, mode, ...rest] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const CSRF = 'probe-csrf-token-probe-csrf-token-01';
/** Each request from its own address (the server trusts X-Forwarded-For in the benchmark), so no per-address limit applies. */
let sent = 0;
const address = () => `10.${251 + (process.pid % 4)}.${Math.floor(sent / 250) % 250}.${(sent++ % 250) + 1}`;

function request(
  method: string,
  route: string,
  body?: unknown,
  base: string = url!,
): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const text = body === undefined ? '' : JSON.stringify(body);
  const headers: Record<string, string> = {
    'x-forwarded-for': address(),
    cookie: `csrf=${CSRF}`,
    'x-requested-with': 'XMLHttpRequest',
    'x-csrf-token': CSRF,
  };
  if (body !== undefined)
    Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${route}`, { method, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, ms: performance.now() - started }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

if (mode === 'logins') {
  // logins <count> <email> <password>: signs in <count> times, one after another; prints the latencies (ms) as JSON.
  const [count, email, password] = rest;
  const times: number[] = [];
  for (let i = 0; i < Number(count); i++) {
    const answer = await request('POST', '/api/auth/login', { username: email, password });
    if (answer.status !== 200) throw new Error(`login answered ${answer.status}`);
    times.push(answer.ms);
  }
  process.stdout.write(JSON.stringify(times), () => process.exit(0));
} else if (mode === 'reads') {
  // reads <cellToken> <everyMs>: alternates a cell read and /api/health every <everyMs> until a line arrives on stdin;
  // prints {"cell": [...], "health": [...]} (ms).
  const [cellToken, everyMs] = rest;
  const result = { cell: [] as number[], health: [] as number[] };
  let running = true;
  process.stdin.on('data', () => (running = false));
  for (let turn = 0; running; turn++) {
    const cell = turn % 2 === 0;
    const answer = await request('GET', cell ? `/api/cell/${cellToken}` : '/api/health');
    (cell ? result.cell : result.health).push(answer.ms);
    await new Promise((resolve) => setTimeout(resolve, Number(everyMs)));
  }
  process.stdout.write(JSON.stringify(result), () => process.exit(0));
} else if (mode === 'health') {
  // health <everyMs> [<url>…]: GET /api/health every <everyMs>, in turn at <url> and each further one, until a line
  // arrives on stdin; prints [[startedAt (ms since the epoch), latency (ms), which url], …] as JSON.
  const [everyMs, ...others] = rest;
  const bases = [url!, ...others];
  const latencies: [number, number, number][] = [];
  let running = true;
  process.stdin.on('data', () => (running = false));
  let next = performance.now();
  for (let turn = 0; running; turn++) {
    const at = performance.timeOrigin + performance.now();
    const answer = await request('GET', '/api/health', undefined, bases[turn % bases.length]);
    if (answer.status !== 200) throw new Error(`health answered ${answer.status}`);
    latencies.push([at, answer.ms, turn % bases.length]);
    // The next one on the next slot after this answer, as a monitor asking every <everyMs> would.
    next += Number(everyMs);
    const now = performance.now();
    if (next < now) next = now;
    await new Promise((resolve) => setTimeout(resolve, next - now));
  }
  process.stdout.write(JSON.stringify(latencies), () => process.exit(0));
} else {
  throw new Error(`unknown mode ${mode}`);
}
