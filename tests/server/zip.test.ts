/**
 * The ZIP lookup: answered from the offline US data (Canadian entries and territories left out), unknown
 * ZIPs answer null and never an error, the optional external service (ZIP_LOOKUP_URL) is asked first and any failure
 * of it falls back to the offline data, and the lookup is rate-limited like search.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#server/config.ts';
import { toAppError } from '#server/errors.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { browserFor } from '../helpers/art-fixtures.ts';
import { expectFailure, expectSuccess } from '../helpers/server/envelope.ts';

describe('the offline lookup', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.cleanup());

  it.each([
    ['10001', { city: 'New York', state: 'NY' }],
    ['90210-1234', { city: 'Beverly Hills', state: 'CA' }],
    [' 02134 ', { city: 'Allston', state: 'MA' }],
    ['20001', { city: 'Washington', state: 'DC' }],
  ])('knows %j', async (zip, place) => {
    expect(await t.caller().misc.zip({ zip })).toEqual(place);
  });

  it.each([
    ['00000', 'an unknown ZIP'],
    ['M5V', 'a Canadian postal code in the package'],
    ['00601', 'a Puerto Rico ZIP (its own ISO country)'],
    ['abcde', 'letters'],
    ['1234', 'four digits'],
    ['', 'nothing'],
  ])('answers null for %j (%s), never an error', async (zip) => {
    expect(await t.caller().misc.zip({ zip })).toBeNull();
  });

  it('refuses an input longer than a zipcode with a field error', async () => {
    const error = toAppError(
      await t
        .caller()
        .misc.zip({ zip: '9'.repeat(17) })
        .catch((e: unknown) => e),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.fieldErrors).toEqual({ zip: ['Maximal length is 16 symbols.'] });
  });

  it('answers over HTTP, null included', async () => {
    const guest = await browserFor(t);
    expect(expectSuccess(await guest.get('/api/misc/zip/10001'))).toEqual({ city: 'New York', state_short: 'NY' });
    expect(expectSuccess(await guest.get('/api/misc/zip/00000'))).toBeNull();
  });

  it('is rate-limited per IP like search', async () => {
    t.clock.advance(60_000 - (t.clock.now() % 60_000));
    const guest = await browserFor(t);
    for (let i = 0; i < 120; i++) expectSuccess(await guest.get('/api/misc/zip/10001'));
    expectFailure(await guest.get('/api/misc/zip/10001'), 'rate_limited');
    // Another visitor is not held back.
    expectSuccess(await (await browserFor(t)).get('/api/misc/zip/10001'));
  });
});

describe('the optional external service', () => {
  let t: TestApp;
  let service: http.Server;
  const asked: string[] = [];
  const answers: Record<string, (res: http.ServerResponse) => void> = {
    '10001': (res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ city: 'Manhattan', state_short: 'NY' })),
    '90210': (res) => res.writeHead(500).end('down'),
    '02134': (res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{not json'),
    '20001': (res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ city: '<b>x</b>', state_short: 'ZZ' })),
    '60601': () => undefined, // never answers: the timeout gives up
  };

  beforeAll(async () => {
    service = http.createServer((req, res) => {
      asked.push(req.url ?? '');
      const zip = /^\/zip\/(\d{5})$/.exec(req.url ?? '')?.[1] ?? '';
      (answers[zip] ?? ((r: http.ServerResponse) => r.writeHead(404).end()))(res);
    });
    await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
    const { port } = service.address() as AddressInfo;
    t = await createTestApp({ zipLookupUrl: `http://127.0.0.1:${port}/zip/{zip}` });
  });
  afterAll(async () => {
    await t.cleanup();
    service.closeAllConnections();
    await new Promise((resolve) => service.close(resolve));
  });

  it("takes the service's answer, sending it only the five-digit ZIP", async () => {
    expect(await t.caller().misc.zip({ zip: '10001-0001' })).toEqual({ city: 'Manhattan', state: 'NY' });
    expect(asked.at(-1)).toBe('/zip/10001');
  });

  it.each([
    ['90210', 'an error status', { city: 'Beverly Hills', state: 'CA' }],
    ['02134', 'a body that is not JSON', { city: 'Allston', state: 'MA' }],
    ['20001', 'an answer without a US state', { city: 'Washington', state: 'DC' }],
    ['60601', 'no answer within the timeout', { city: 'Chicago', state: 'IL' }],
    ['00000', 'not found, and unknown offline too', null],
  ])('falls back to the offline data on %j (%s)', async (zip, _why, place) => {
    expect(await t.caller().misc.zip({ zip })).toEqual(place);
  });
});

describe('ZIP_LOOKUP_URL', () => {
  it('is optional, and when set must be an http(s) URL with {zip}', () => {
    expect(loadConfig({}).zipLookupUrl).toBeNull();
    expect(loadConfig({ ZIP_LOOKUP_URL: 'https://zip.example/us/{zip}' }).zipLookupUrl).toBe(
      'https://zip.example/us/{zip}',
    );
    expect(() => loadConfig({ ZIP_LOOKUP_URL: 'https://zip.example/us/' })).toThrow(ConfigError);
    expect(() => loadConfig({ ZIP_LOOKUP_URL: 'ftp://zip.example/{zip}' })).toThrow(ConfigError);
    expect(() => loadConfig({ ZIP_LOOKUP_URL: 'not a url {zip}' })).toThrow(ConfigError);
  });
});
