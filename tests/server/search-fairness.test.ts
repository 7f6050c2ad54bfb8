/**
 * Fair service under a search flood: searches take turns on the event loop, so a request that arrives behind a
 * burst of them (a health check here) is answered before the burst has run, and a line longer than the bound is
 * told busy instead of waiting. Real HTTP on loopback, one keep-alive connection per request.
 */
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '#server/app.ts';
import { testConfig } from '#server/config.ts';
import { openDatabase } from '#server/db.ts';
import { rebuildSearchIndex, SEARCHES_WAITING } from '#server/services/search/search.ts';
import { generateSyntheticTree } from '#server/seed/synthetic.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';

let app: App;
let url: string;

beforeAll(async () => {
  const dir = tempDir('gallery-fair-');
  const db = openDatabase(path.join(dir, 'gallery.db'));
  await generateSyntheticTree(db, { cells: 20_000 });
  rebuildSearchIndex(db);
  // Each connection comes from its own address (a proxy in front says which), so the per-address limit stays out of it.
  app = await buildApp(testConfig(dir, { port: 0, host: '127.0.0.1', trustProxy: true }), { db });
  url = (await app.start()).replace('localhost', '127.0.0.1');
}, 120_000);
afterAll(() => app.stop());

/** `n` open connections, each ready to send one request the moment it is asked to. */
let opened = 0;

interface Answer {
  status: number;
  retryAfter: string | undefined;
  doneAt: number;
}

async function connections(n: number): Promise<((route: string) => Promise<Answer>)[]> {
  const agents = Array.from({ length: n }, () => ({
    agent: new http.Agent({ keepAlive: true, maxSockets: 1 }),
    address: `198.51.${Math.floor(opened / 250)}.${(opened++ % 250) + 1}`,
  }));
  const get = ({ agent, address }: (typeof agents)[number], route: string) =>
    new Promise<Answer>((resolve, reject) => {
      http
        .get(`${url}${route}`, { agent, headers: { 'x-forwarded-for': address } }, (res) => {
          res.resume();
          res.on('end', () =>
            resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'], doneAt: performance.now() }),
          );
        })
        .on('error', reject);
    });
  // Each connection opened once beforehand, so the measured requests are not waiting on TCP handshakes.
  await Promise.all(agents.map((line) => get(line, '/api/health')));
  return agents.map((line) => (route: string) => get(line, route));
}

describe('a search flood', () => {
  it('leaves room for other requests: one that arrives behind 40 searches is answered before they have all run', async () => {
    const lines = await connections(41);
    const searches = lines.slice(0, 40).map((send, i) => send(`/api/cells/search?search=syn${i % 3 ? 'thetic' : ''}`));
    const health = lines[40]!('/api/health');
    const [answered, ...done] = await Promise.all([health, ...searches]);
    expect(answered.status).toBe(200);
    expect(done.every((d) => d.status === 200)).toBe(true);
    const searchesBefore = done.filter((d) => d.doneAt < answered.doneAt).length;
    expect(searchesBefore).toBeLessThan(20);
  }, 60_000);

  it(`tells a search busy (503, Retry-After) once ${SEARCHES_WAITING} wait, and serves the rest`, async () => {
    const lines = await connections(SEARCHES_WAITING + 30);
    const answers = await Promise.all(lines.map((send) => send('/api/cells/search?search=synthetic')));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(SEARCHES_WAITING);
    const busy = answers.filter((a) => a.status === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy.every((a) => a.retryAfter === '1')).toBe(true);
  }, 60_000);
});
