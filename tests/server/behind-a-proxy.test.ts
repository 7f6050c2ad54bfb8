/**
 * The app behind proxies, over real HTTP (decision 038): TRUST_PROXY believes only the hops it names, so what a
 * visitor writes into X-Forwarded-For chooses nothing (the 8 streams an address may hold stay 8); the host check reads
 * the Host header, not X-Forwarded-Host; a proxy in front that is not trusted is reported once; and a client that
 * sends its request slowly or half of it is cut, while event streams and long-polls live on.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, type AppConfig } from '#server/config.ts';
import { STREAMS_PER_IP } from '#server/http/tree-events.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { rawExchange } from '#tests/helpers/server/raw-http.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { openStream, type OpenStream } from '../helpers/event-stream.ts';

const apps: TestApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.cleanup().catch(() => {});
});

/** TRUST_PROXY as the environment gives it, read by the real config. */
const trusting = (value: string): AppConfig['trustProxy'] => loadConfig({ TRUST_PROXY: value }).trustProxy;

async function appWith(overrides: Partial<AppConfig>, logs?: string[]): Promise<TestApp> {
  const t = await createTestApp(
    { port: 0, ...overrides, ...(logs ? { logLevel: 'info' as const } : {}) },
    logs ? { logOutput: { write: (line: string) => logs.push(line) } } : {},
  );
  apps.push(t);
  return t;
}

const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

/** The address the app saw for the request with this id: its "incoming request" log line says (not /api/health's). */
function addressLogged(logs: string[], reqId: string): string | undefined {
  for (const line of logs) {
    const entry = JSON.parse(line) as { reqId?: string; req?: { remoteAddress?: string } };
    if (entry.reqId === reqId && entry.req?.remoteAddress) return entry.req.remoteAddress;
  }
  return undefined;
}

describe('TRUST_PROXY', () => {
  it(`true: the address the proxy appended counts, whatever the visitor wrote before it (${STREAMS_PER_IP} streams an address)`, async () => {
    const t = await appWith({ trustProxy: trusting('true') });
    const tree = await createTree(t.deps.db, t.clock.now(), 'Behind a proxy');
    const base = await t.start();
    const path = `/api/tree/${tree.token}/events`;
    const open: OpenStream[] = [];
    // nginx with $proxy_add_x_forwarded_for: the visitor's own X-Forwarded-For, then the address nginx saw.
    for (let i = 0; i < STREAMS_PER_IP; i++) {
      const forwarded = i === 0 ? '10.0.0.5' : `198.51.100.${i}, 10.0.0.5`;
      const stream = await openStream(base, path, { 'x-forwarded-for': forwarded });
      expect(stream.status).toBe(200);
      open.push(stream);
    }
    const refused = await openStream(base, path, { 'x-forwarded-for': '203.0.113.77, 10.0.0.5' });
    expect(refused.status).toBe(429);
    await refused.ended;
    expect(JSON.parse(refused.body).r.error).toBe('rate_limited');
    // Another visitor behind the same proxy is not held back by the first one's streams.
    const other = await openStream(base, path, { 'x-forwarded-for': '198.51.100.1, 10.0.0.6' });
    expect(other.status).toBe(200);
    for (const stream of [...open, other]) stream.close();
  });

  it('a number: that many hops are believed, from the right', async () => {
    const logs: string[] = [];
    const t = await appWith({ trustProxy: trusting('2') }, logs);
    const sent = [
      ['two-hops-a', '6.6.6.6, 198.51.100.7, 10.0.0.5', '198.51.100.7'],
      ['two-hops-b', '198.51.100.7, 10.0.0.5', '198.51.100.7'],
      // Fewer entries than hops: the left-most one there is.
      ['two-hops-c', '10.0.0.5', '10.0.0.5'],
    ] as const;
    for (const [id, forwarded] of sent) {
      await t.server.inject({
        url: '/api/cell/AAAAAAAAAAAAAAAAAAAAAA',
        headers: { 'x-forwarded-for': forwarded, 'x-request-id': id },
      });
    }
    for (const [id, , seen] of sent) expect(addressLogged(logs, id)).toBe(seen);
  });

  it('a list: only proxies at those addresses are believed, and a request from elsewhere counts as its own', async () => {
    const logs: string[] = [];
    const t = await appWith({ trustProxy: trusting('127.0.0.1, 10.0.0.0/8') }, logs);
    const sent = [
      // From 127.0.0.1 (trusted), through 10.0.0.5 (trusted): the visitor is the next one left.
      ['listed-a', '127.0.0.1', '6.6.6.6, 198.51.100.7, 10.0.0.5', '198.51.100.7'],
      // From an address not on the list: its X-Forwarded-For is not believed at all.
      ['listed-b', '203.0.113.9', '6.6.6.6, 10.0.0.5', '203.0.113.9'],
    ] as const;
    for (const [id, from, forwarded] of sent) {
      await t.server.inject({
        url: '/api/cell/AAAAAAAAAAAAAAAAAAAAAA',
        remoteAddress: from,
        headers: { 'x-forwarded-for': forwarded, 'x-request-id': id },
      });
    }
    for (const [id, , , seen] of sent) expect(addressLogged(logs, id)).toBe(seen);
  });

  it('stops the process with a clear line for a value that means nothing', () => {
    for (const value of ['yes', '10.0.0.300', '10.0.0.0/33', '127.0.0.1,,', '1000']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY: "yes" is not an address/);
    expect(trusting('false')).toBe(false);
    expect(trusting('3')).toBe(3);
    expect(trusting('loopback,fd00::/8')).toEqual(['loopback', 'fd00::/8']);
  });
});

describe('the host check behind a trusted proxy', () => {
  it('reads the Host header: X-Forwarded-Host naming the site does not let a foreign host in', async () => {
    const t = await appWith({ trustProxy: trusting('true') });
    const foreign = await t.server.inject({
      url: '/api/health',
      headers: { host: 'rebound.example', 'x-forwarded-host': 'localhost' },
    });
    expect(foreign.statusCode).toBe(421);
    const own = await t.server.inject({
      url: '/api/health',
      headers: { host: 'localhost:3000', 'x-forwarded-host': 'rebound.example' },
    });
    expect(own.statusCode).toBe(200);
  });
});

describe('a proxy in front that is not trusted', () => {
  const warningsIn = (logs: string[]) => logs.filter((line) => line.includes('TRUST_PROXY is off'));

  it('is reported once, at the first forwarded request from a private address', async () => {
    const logs: string[] = [];
    const t = await appWith({ trustProxy: false }, logs);
    // From a public address: a visitor's own header, no proxy of ours.
    await t.server.inject({
      url: '/api/health',
      remoteAddress: '203.0.113.9',
      headers: { 'x-forwarded-for': '1.2.3.4' },
    });
    // Nothing forwarded: nothing to say.
    await t.server.inject({ url: '/api/health' });
    expect(warningsIn(logs)).toEqual([]);
    for (const headers of [
      { 'x-forwarded-for': '203.0.113.1' },
      { 'x-real-ip': '203.0.113.2' },
      { forwarded: 'for=203.0.113.3' },
    ]) {
      await t.server.inject({ url: '/api/health', headers });
    }
    const warnings = warningsIn(logs);
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, from: '127.0.0.1', header: 'x-forwarded-for' });
    expect(warnings[0]).toContain('counted as one address');
  });

  it('is not reported when TRUST_PROXY is set', async () => {
    const logs: string[] = [];
    const t = await appWith({ trustProxy: trusting('true') }, logs);
    await t.server.inject({ url: '/api/health', headers: { 'x-forwarded-for': '203.0.113.1' } });
    expect(warningsIn(logs)).toEqual([]);
  });
});

describe('a client that sends its request slowly', () => {
  const timeouts = { headersMs: 1_000, bodyMs: 1_000, requestMs: 3_000, idleMs: 90_000 };

  /** A raw connection that writes `text` and then nothing: when (ms after the write) the server closed it, or null. */
  const stall = (base: string, text: string, waitMs: number) => rawExchange(base, text, { waitMs });

  it('is cut: headers that never end, and half a JSON body', async () => {
    const t = await appWith({ httpTimeouts: timeouts } as Partial<AppConfig>);
    const base = await t.start();
    const [headers, body] = await Promise.all([
      stall(base, 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ', 4_000),
      stall(
        base,
        'POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"name":"Slo',
        4_000,
      ),
    ]);
    expect(headers.closedAfter).not.toBeNull();
    expect(headers.closedAfter!).toBeLessThan(3_000);
    expect(body.closedAfter).not.toBeNull();
    expect(body.closedAfter!).toBeLessThan(3_000);
  });

  it('lets a request refused before its body was read reach its deadline harmlessly, injected too', async () => {
    // An injected request's socket is a stand-in without destroy(): the deadline once threw there, uncaught, and
    // the run counted hundreds of such errors.
    const logs: string[] = [];
    const t = await appWith({ httpTimeouts: { ...timeouts, bodyMs: 100 } } as Partial<AppConfig>, logs);
    const refused = await t.server.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"Slow"}',
    });
    expect(refused.statusCode).toBe(403);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(logs.some((line) => line.includes('request body not received in time'))).toBe(true);
  });

  it('uploading gets the longer deadline; an event stream and a long-poll, longer still, are never cut', async () => {
    const t = await appWith({ httpTimeouts: timeouts } as Partial<AppConfig>);
    const tree = await createTree(t.deps.db, t.clock.now(), 'Held');
    const base = await t.start();
    const stream = await openStream(base, `/api/tree/${tree.token}/events`);
    expect(stream.status).toBe(200);
    const since = JSON.parse((await stream.next((event) => event.event === 'version')).data).version as number;
    const started = Date.now();
    const [upload, poll] = await Promise.all([
      stall(
        base,
        'POST /api/cell/AAAAAAAAAAAAAAAAAAAAAA HTTP/1.1\r\nHost: localhost\r\n' +
          'Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 5000000\r\n\r\n--x\r\n',
        7_000,
      ),
      fetch(`${base}/api/tree/${tree.token}/changes?since=${since}&wait=4`),
    ]);
    // Past the body deadline it was still there; the whole-request limit cut it.
    expect(upload.closedAfter).not.toBeNull();
    expect(upload.closedAfter!).toBeGreaterThan(timeouts.bodyMs + 500);
    expect(upload.closedAfter!).toBeLessThan(timeouts.requestMs + 2_000);
    // Held 4 s, past every limit above, and answered.
    expect(poll.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThan(timeouts.requestMs);
    const ended = await Promise.race([stream.ended.then(() => true), sleep(200).then(() => false)]);
    expect(ended).toBe(false);
    stream.close();
  }, 15_000);
});
