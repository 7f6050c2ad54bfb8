/**
 * Requests the HTTP parser itself refuses, before any route or hook: a broken request line, a header section too
 * large, a bad character in a header. Their answers are written by the server directly to the socket, and must
 * still be what every other answer is: the {"r": …} envelope with a code, and the security headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityHeaders } from '#server/http/security-headers.ts';
import { rawExchange } from '#tests/helpers/server/raw-http.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ port: 0, host: '127.0.0.1' });
  base = await t.start();
});

afterAll(async () => {
  await t.cleanup();
});

function parse(answer: string) {
  const [head, ...rest] = answer.split('\r\n\r\n');
  const [statusLine, ...headerLines] = head!.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

describe('requests the HTTP parser refuses', () => {
  const cases: [string, string, number, string][] = [
    ['a broken request line', 'BROKEN\r\n\r\n', 400, 'bad_request'],
    [
      'a header with a bad character',
      'GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Bad\u0001: 1\r\n\r\n',
      400,
      'bad_request',
    ],
    [
      'a header section over the limit',
      `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Long: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
  ];
  for (const [what, bytes, status, code] of cases) {
    it(`answers ${what} with ${status} in the envelope, with the security headers, and closes`, async () => {
      const answer = parse((await rawExchange(base, bytes)).text);
      expect(answer.status).toBe(status);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(answer.headers.connection).toBe('close');
      expect(JSON.parse(answer.body)).toMatchObject({ r: { error: code } });
      for (const [name, value] of securityHeaders(false)) expect(answer.headers[name], name).toBe(value);
    });
  }

  it('still answers a well-formed request on a new connection afterwards', async () => {
    const answer = parse(
      (await rawExchange(base, 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n')).text,
    );
    expect(answer.status).toBe(200);
  });
});
