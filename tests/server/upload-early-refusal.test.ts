/**
 * The upload doors ask who is sending before they read a byte of the body (decision 039): a guest, or a member who may
 * not edit the square or the profile, is refused at once while the upload is still on its way, and the connection is
 * closed instead of waiting for the rest; a body declared larger than the form's limits is refused the same way, and
 * a multipart body at tRPC (which no procedure takes) too; a client that asks before sending (`Expect: 100-continue`)
 * is invited only past the same checks. Real HTTP on loopback: the uploads below send their headers
 * and only the start of their body, then stall, as a slow or hostile client does. `inject` cannot show any of this:
 * it hands the server the whole body at once.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '#shared/domain.ts';
import { reserveCell } from '#server/services/reservations/reservations.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { rawExchange } from '#tests/helpers/server/raw-http.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { artForm, cellAt, png, validFields } from '../helpers/art-fixtures.ts';

const CSRF = 'early-refusal-csrf-token-0123456789';
const BOUNDARY = '----stalled-upload-boundary';
const MB = 1024 * 1024;

let t: TestApp;
let port: number;
let square: string;
let holder: Awaited<ReturnType<TestApp['addUser']>>;
let stranger: Awaited<ReturnType<TestApp['addUser']>>;

beforeAll(async () => {
  t = await createTestApp({ port: 0, host: '127.0.0.1' });
  port = Number(new URL(await t.start()).port);
  const tree = await createTree(t.deps.db, t.clock.now(), 'Early refusals');
  holder = await t.addUser(Role.Observer);
  stranger = await t.addUser(Role.Artist);
  square = (await cellAt(t.deps.db, tree.id, 33, 1)).token;
  await reserveCell(t.deps, holder.user, square);
}, 60_000);
afterAll(() => t.cleanup());

interface Stalled {
  /** The answer's status and body, or null if none came while waiting. */
  status: number | null;
  body: string;
  /** The server closed the connection (after its answer, or without one). */
  closed: boolean;
  /** Body bytes the client managed to write. */
  sent: number;
}

/**
 * Sends a multipart upload's head (declaring `declared` body bytes) and then the start of its body, a file part of
 * up to `send` bytes written as fast as the server takes them, and stalls there without ending the body. Resolves
 * once the server has closed the connection, or after `waitMs`, or (with `untilSent`) once `send` bytes went out,
 * whichever comes first; the socket is left open until `release()`.
 */
function stalledUpload(
  path: string,
  options: { cookie?: string; declared?: number; send?: number; waitMs?: number; untilSent?: boolean } = {},
): { result: Promise<Stalled>; release: () => void } {
  const { cookie, declared = 40 * MB, send = 4 * 1024, waitMs = 5_000, untilSent = false } = options;
  const socket = net.connect(port, '127.0.0.1');
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    `Content-Type: multipart/form-data; boundary=${BOUNDARY}`,
    `Content-Length: ${declared}`,
    `Cookie: csrf=${CSRF}${cookie ? `; ${cookie}` : ''}`,
    'X-Requested-With: XMLHttpRequest',
    `X-CSRF-Token: ${CSRF}`,
    '',
    '',
  ].join('\r\n');
  const partHead =
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nStalled\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files[0]"; filename="big.png"\r\n` +
    'Content-Type: image/png\r\n\r\n';
  const chunk = Buffer.alloc(64 * 1024, 0x5a);
  const state: Stalled = { status: null, body: '', closed: false, sent: 0 };
  let received = Buffer.alloc(0);
  socket.on('data', (data: Buffer) => {
    received = Buffer.concat([received, data]);
    const text = received.toString('latin1');
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) return;
    state.status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
    state.body = received.subarray(end + 4).toString('utf8');
  });
  socket.on('error', () => {});
  const result = new Promise<Stalled>((resolve) => {
    const timer = setTimeout(() => resolve(state), waitMs);
    const done = () => {
      clearTimeout(timer);
      resolve(state);
    };
    socket.on('close', () => {
      state.closed = true;
      done();
    });
    socket.on('connect', () => {
      void (async () => {
        socket.write(head + partHead);
        while (state.sent < send && !socket.destroyed) {
          const piece = chunk.subarray(0, Math.min(chunk.length, send - state.sent));
          state.sent += piece.length;
          if (!socket.write(piece))
            await new Promise<void>((drained) => {
              socket.once('drain', drained);
              socket.once('close', drained);
            });
        }
        if (untilSent && state.sent >= send) done();
      })();
    });
  });
  return { result, release: () => socket.destroy() };
}

const json = (body: string) => JSON.parse(body) as { r: { error: string } };

describe('an upload is refused before its body is read', () => {
  it('a guest at the art save: 401 unauthenticated at once, and the connection closed', async () => {
    const upload = stalledUpload(`/api/cell/${square}`);
    const answer = await upload.result;
    upload.release();
    expect(answer.status).toBe(401);
    expect(json(answer.body).r.error).toBe('unauthenticated');
    expect(answer.closed).toBe(true);
  });

  it('a member who does not hold the square: 403 forbidden at once, and the connection closed', async () => {
    const upload = stalledUpload(`/api/cell/${square}`, { cookie: stranger.cookie });
    const answer = await upload.result;
    upload.release();
    expect(answer.status).toBe(403);
    expect(json(answer.body).r.error).toBe('forbidden');
    expect(answer.closed).toBe(true);
  });

  it("a guest, or another member, at someone's profile: 401 and 403 at once", async () => {
    const path = `/api/user/${holder.user.token}/profile`;
    const guest = stalledUpload(path);
    const other = stalledUpload(path, { cookie: stranger.cookie });
    const [asGuest, asOther] = await Promise.all([guest.result, other.result]);
    guest.release();
    other.release();
    expect([asGuest.status, json(asGuest.body).r.error, asGuest.closed]).toEqual([401, 'unauthenticated', true]);
    expect([asOther.status, json(asOther.body).r.error, asOther.closed]).toEqual([403, 'forbidden', true]);
  });

  it('the holder declaring a body past the form’s limits: 413 at once', async () => {
    const upload = stalledUpload(`/api/cell/${square}`, { cookie: holder.cookie, declared: 200 * MB });
    const answer = await upload.result;
    upload.release();
    expect(answer.status).toBe(413);
    expect(json(answer.body).r.error).toBe('payload_too_large');
    expect(answer.closed).toBe(true);
  });

  it('a multipart body at tRPC, which no procedure takes: 415 at once, in tRPC’s shape', async () => {
    const upload = stalledUpload('/trpc/auth.login');
    const answer = await upload.result;
    upload.release();
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { data: { app: { error: 'unsupported_media_type' } } } });
    expect(answer.closed).toBe(true);
  });

  it('20 guests stalling at once in the middle of big uploads leave the server’s memory flat', async () => {
    // Each would send 6 MB of its picture if the server read it: 120 MB held before anyone asked who was sending.
    const before = process.memoryUsage();
    const uploads = Array.from({ length: 20 }, () =>
      stalledUpload(`/api/cell/${square}`, { send: 6 * MB, waitMs: 20_000, untilSent: true }),
    );
    const answers = await Promise.all(uploads.map((upload) => upload.result));
    const after = process.memoryUsage();
    for (const upload of uploads) upload.release();
    expect(after.rss - before.rss).toBeLessThan(50 * MB);
    expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(50 * MB);
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(401));
  });

  it('the holder’s own upload over real HTTP is still read and saved', async () => {
    const encoded = new Response(
      artForm(validFields({ title: 'Read after the check' }), [
        { bytes: await png(), name: 'main.png', type: 'image/png' },
      ]),
    );
    const res = await fetch(`http://127.0.0.1:${port}/api/cell/${square}`, {
      method: 'POST',
      body: Buffer.from(await encoded.arrayBuffer()),
      headers: {
        'content-type': encoded.headers.get('content-type')!,
        cookie: `csrf=${CSRF}; ${holder.cookie}`,
        'x-requested-with': 'XMLHttpRequest',
        'x-csrf-token': CSRF,
      },
    });
    const body = (await res.json()) as { r: { art: { title: string; pictures: unknown[] } } };
    expect(res.status).toBe(200);
    expect(body.r.art.title).toBe('Read after the check');
    expect(body.r.art.pictures).toHaveLength(1);
  });
});

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

describe('Expect: 100-continue: the body is invited only past the checks', () => {
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
