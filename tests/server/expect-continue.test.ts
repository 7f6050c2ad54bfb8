/**
 * `Expect: 100-continue` (curl sends it for any body over 1 KiB): the server invites the body only once the request
 * has passed its checks (decision 039). A guest's upload is refused without the 100 and never sends its body; the
 * square's holder is told to continue. Real HTTP on loopback: the client sends the head alone and reads the first
 * line that comes back.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '#shared/domain.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { rawExchange } from '#tests/helpers/server/raw-http.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { artForm, cellAt, png, validFields } from '../helpers/art-fixtures.ts';

const CSRF = 'expect-continue-csrf-token-0123456789';

let t: TestApp;
let port: number;
let square: string;
let holder: ReturnType<TestApp['addUser']>;

beforeAll(async () => {
  t = await createTestApp({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(await t.start()).port);
  const tree = await createTree(t.deps.db, t.clock.now(), 'Expect continue');
  holder = t.addUser(Role.Observer);
  square = cellAt(t.deps.db, tree.id, 33, 1).token;
  await reserveCell(t.deps, holder.user, square);
}, 60_000);
afterAll(() => t.cleanup());

/** Sends an upload's head asking to continue, no body; resolves with the first status line the server sends. */
async function firstLine(cookie?: string): Promise<string> {
  const head = [
    `POST /api/cell/${square} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    'Content-Type: multipart/form-data; boundary=x',
    `Content-Length: ${20 * 1024 * 1024}`,
    'Expect: 100-continue',
    `Cookie: csrf=${CSRF}${cookie ? `; ${cookie}` : ''}`,
    'X-Requested-With: XMLHttpRequest',
    `X-CSRF-Token: ${CSRF}`,
    '',
    '',
  ].join('\r\n');
  const { text } = await rawExchange(`http://127.0.0.1:${port}`, head, { enough: (got) => got.includes('\r\n') });
  return text.includes('\r\n') ? text.slice(0, text.indexOf('\r\n')) : text || '(nothing within 5 s)';
}

describe('Expect: 100-continue', () => {
  it('refuses a guest without inviting the body', async () => {
    expect(await firstLine()).toBe('HTTP/1.1 401 Unauthorized');
  });

  it('tells the square’s holder to continue', async () => {
    expect(await firstLine(holder.cookie)).toBe('HTTP/1.1 100 Continue');
  });

  it('saves the holder’s piece sent after the 100, as curl sends it', async () => {
    const encoded = new Response(
      artForm(validFields({ title: 'Sent After Asking' }), [
        { bytes: await png(64, 48, '#335577'), name: 'a.png', type: 'image/png' },
      ]),
    );
    const body = Buffer.from(await encoded.arrayBuffer());
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/cell/${square}`,
        headers: {
          'content-type': encoded.headers.get('content-type')!,
          'content-length': String(body.length),
          expect: '100-continue',
          cookie: `csrf=${CSRF}; ${holder.cookie}`,
          'x-requested-with': 'XMLHttpRequest',
          'x-csrf-token': CSRF,
        },
      });
      req.on('continue', () => req.end(body));
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
    });
    expect(status).toBe(200);
  });
});
