/**
 * Structured logs with request ids: the real server writes one JSON line when a request comes in and one
 * when it is answered, both carrying the request id: the caller's X-Request-Id when it is a sane one, a new UUID
 * otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '#tests/helpers/server/test-app.ts';
import { startRealServer, stopRealServer, type RealServer } from '../helpers/server/real-server.ts';

let server: RealServer;
beforeAll(async () => {
  server = await startRealServer(tempDir('gallery-logs-'), { LOG_LEVEL: 'info' });
}, 60_000);
afterAll(async () => {
  expect(await stopRealServer(server)).toBe(0);
});

interface LogLine {
  level: number;
  reqId?: string;
  msg: string;
  req?: { method: string; url: string };
  res?: { statusCode: number };
}

const logLines = (): LogLine[] =>
  server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);

async function linesFor(reqId: string): Promise<LogLine[]> {
  for (let i = 0; i < 100; i++) {
    const lines = logLines().filter((line) => line.reqId === reqId);
    if (lines.some((line) => line.res)) return lines;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no completed request ${reqId} in the log`);
}

describe('request logs', () => {
  it('logs each request as JSON lines under the id the caller sent', async () => {
    const res = await fetch(`${server.url}/api/cell/AAAAAAAAAAAAAAAAAAAAAA`, {
      headers: { 'x-request-id': 'trace-0123456789' },
    });
    expect(res.status).toBe(404);
    const lines = await linesFor('trace-0123456789');
    expect(lines.find((line) => line.req)).toMatchObject({
      msg: 'incoming request',
      req: { method: 'GET', url: '/api/cell/AAAAAAAAAAAAAAAAAAAAAA' },
    });
    expect(lines.find((line) => line.res)).toMatchObject({ msg: 'request completed', res: { statusCode: 404 } });
  });

  it('gives a request without a usable id a new one', async () => {
    const before = new Set(logLines().map((line) => line.reqId));
    await fetch(`${server.url}/api/cell/BBBBBBBBBBBBBBBBBBBBBB`, { headers: { 'x-request-id': 'bad id with spaces' } });
    let fresh: string | undefined;
    for (let i = 0; i < 100 && !fresh; i++) {
      fresh = logLines().find(
        (line) => line.reqId && !before.has(line.reqId) && line.req?.url.endsWith('BBBBBBBBBBBBBBBBBBBBBB'),
      )?.reqId;
      if (!fresh) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(fresh).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});
