/**
 * Random and hostile input (fast-check, tests/helpers/server/hostile-input.ts) at every tRPC procedure and /api route,
 * both enumerated at run time: never an internal error, a stack trace or a file path in an answer, a write from a
 * refused call (every table and the media folder compared), or a touched Object.prototype.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { toAppError } from '#server/errors.ts';
import { createApiWorld, type ApiWorld, type Asker } from '../helpers/server/api-world.ts';
import { leakIn } from '../helpers/server/envelope.ts';
import { hostileInput, hostileString, hostileValue, prototypeIsClean } from '../helpers/server/hostile-input.ts';
import {
  collectApiRoutes,
  inputKeys,
  listProcedures,
  routeKey,
  type HttpRoute,
} from '../helpers/server/route-inventory.ts';
import { watchStore } from '../helpers/server/store-fingerprint.ts';

let w: ApiWorld;
let store: ReturnType<typeof watchStore>;
let realTokens: string[];
beforeAll(async () => {
  w = await createApiWorld();
  store = watchStore(w.t.deps.db, w.t.deps.media);
  realTokens = [
    w.treeToken,
    w.piece.cellToken,
    w.piece.artToken,
    w.neighbour.cellToken,
    w.holding.cellToken,
    w.holding.reminderToken,
    (await w.cell(33, 0)).token,
    ...Object.values(w.people).map((person) => person.user.token),
  ];
}, 60_000);
afterAll(() => w.t.cleanup());

/** Runs per case, bounded so the file stays well under a minute. */
const RUNS = { caller: 25, http: 12, trpcHttp: 8 } as const;

/** The caller's function for a dotted procedure name. */
function procedureOf(caller: object, name: string): (input: unknown) => Promise<unknown> {
  return name.split('.').reduce((node: any, part) => node[part], caller) as (input: unknown) => Promise<unknown>;
}

describe('every procedure through createCaller', () => {
  const askers: Asker[] = ['guest', 'observer', 'admin'];
  for (const procedure of listProcedures()) {
    const keys = procedure.inputs.flatMap((schema) => inputKeys(schema));
    for (const asker of askers) {
      it(`${procedure.name} as ${asker}: no internal error, and nothing written when refused`, async () => {
        await fc.assert(
          fc.asyncProperty(hostileInput(keys, realTokens), async (input) => {
            const before = await store.mark();
            try {
              await procedureOf(w.t.caller(w.userOf(asker)), procedure.name)(input);
            } catch (error) {
              const app = toAppError(error);
              expect(app.status, `${app.code}: ${String(error)}`).toBeLessThan(500);
              expect(await store.changedSince(before)).toEqual([]);
            }
            expect(prototypeIsClean()).toBe(true);
          }),
          { numRuns: RUNS.caller },
        );
      });
    }
  }
});

/** Whether a string can go in a URL at all (a lone surrogate cannot). */
function encodable(text: string): boolean {
  try {
    encodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** A value for a path parameter: hostile text, a real token, or a raw traversal. */
const pathParam = (tokens: readonly string[]) =>
  fc.oneof(
    // Any length: over Fastify's maxParamLength, or a malformed escape (`%ZZ`), is refused before routing, still in the envelope.
    { weight: 4, arbitrary: hostileString().filter(encodable).map(encodeURIComponent) },
    { weight: 2, arbitrary: fc.constantFrom(...tokens) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('..', '..%2F..%2F', '%2e%2e', '%00', '%252e', '%ZZ', '%', 'x'.repeat(201)),
    },
  );

const queryString = fc.dictionary(
  fc.oneof(
    fc.constantFrom('search', 'row0', 'row1', 'col0', 'col1', '__proto__', 'input'),
    fc.string({ maxLength: 6 }),
  ),
  hostileString(),
  { maxKeys: 4 },
);

type Body = { payload?: string | Buffer; contentType?: string };
const body: fc.Arbitrary<Body> = fc.oneof(
  fc.constant({}),
  hostileValue().map((value) => ({ payload: JSON.stringify(value) ?? 'null', contentType: 'application/json' })),
  fc.string({ maxLength: 200 }).map((text) => ({ payload: text, contentType: 'application/json' })),
  fc.string({ maxLength: 200 }).map((text) => ({ payload: text, contentType: 'text/plain' })),
  fc
    .uint8Array({ maxLength: 300 })
    .map((bytes) => ({ payload: Buffer.from(bytes), contentType: 'multipart/form-data; boundary=x' })),
  fc.string({ maxLength: 200 }).map((text) => ({
    payload: `--x\r\nContent-Disposition: form-data; name="title"\r\n\r\n${text}\r\n--x--\r\n`,
    contentType: 'multipart/form-data; boundary=x',
  })),
  fc.constant({ payload: '{"a":'.repeat(2000), contentType: 'application/json' }),
);

/** Checks one answer of the /api or /trpc door: status, envelope, no leak, no write when refused. */
async function checkAnswer(
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  before: Awaited<ReturnType<typeof store.mark>>,
  envelope: boolean,
) {
  expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
  if (res.statusCode < 400) return;
  expect(leakIn(res.body, w.t.dir), res.body.slice(0, 300)).toBeNull();
  if (envelope) expect(Object.keys(JSON.parse(res.body) as object)).toEqual(['r']);
  expect(await store.changedSince(before)).toEqual([]);
}

/**
 * One request through inject. An event stream never ends by itself: it is read as a stream, and an open one (a
 * success) is hung up on at once; a refusal is read whole, like any other answer.
 */
async function injectOnce(
  options: InjectOptions & { url: string },
): Promise<{ statusCode: number; body: string; headers: Record<string, unknown> }> {
  if (!/\/events(\?|$)/.test(options.url)) return w.t.server.inject(options);
  const res = await w.t.server.inject({ ...options, payloadAsStream: true });
  const stream = res.stream();
  if (res.statusCode < 400) {
    stream.destroy();
    return { statusCode: res.statusCode, body: '', headers: res.headers };
  }
  let body = '';
  for await (const chunk of stream) body += String(chunk);
  return { statusCode: res.statusCode, body, headers: res.headers };
}

const routes: HttpRoute[] = await collectApiRoutes();

describe('every /api route over HTTP', () => {
  for (const route of routes) {
    for (const asker of ['guest', 'observer'] as const) {
      it(`${routeKey(route)} as ${asker}: no internal error, the envelope, no leak, nothing written when refused`, async () => {
        const browser = await w.browser(asker);
        const cookie = ['csrf', 'session']
          .flatMap((name) => (browser.cookie(name) ? [`${name}=${browser.cookie(name)}`] : []))
          .join('; ');
        const params = route.url.match(/:\w+/g) ?? [];
        await fc.assert(
          fc.asyncProperty(
            fc.tuple(...params.map(() => pathParam(realTokens))),
            queryString,
            body,
            async (values, query, sent) => {
              let url = route.url;
              params.forEach((param, i) => (url = url.replace(param, values[i]!)));
              const search = new URLSearchParams(
                Object.entries(query).filter(([key, value]) => encodable(key) && encodable(value)),
              ).toString();
              const before = await store.mark();
              const res = await injectOnce({
                method: route.method,
                url: search ? `${url}?${search}` : url,
                remoteAddress: browser.ip,
                headers: {
                  cookie,
                  'x-requested-with': 'XMLHttpRequest',
                  'x-csrf-token': browser.cookie('csrf')!,
                  ...(sent.contentType && route.method !== 'GET' ? { 'content-type': sent.contentType } : {}),
                },
                ...(sent.payload !== undefined && route.method !== 'GET' ? { payload: sent.payload } : {}),
              });
              await checkAnswer(res, before, true);
              expect(prototypeIsClean()).toBe(true);
            },
          ),
          { numRuns: RUNS.http },
        );
      });
    }
  }
});

describe('every procedure over HTTP at /trpc', () => {
  for (const procedure of listProcedures()) {
    const keys = procedure.inputs.flatMap((schema) => inputKeys(schema));
    it(`${procedure.name}: no internal error, no leak, nothing written when refused`, async () => {
      const browser = await w.browser('observer');
      const cookie = `csrf=${browser.cookie('csrf')}; session=${browser.cookie('session')}`;
      await fc.assert(
        fc.asyncProperty(hostileInput(keys, realTokens), async (input) => {
          const json = JSON.stringify(input) ?? 'null';
          const before = await store.mark();
          const headers = { cookie, 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': browser.cookie('csrf')! };
          const res =
            procedure.type === 'query'
              ? await w.t.server.inject({
                  method: 'GET',
                  url: `/trpc/${procedure.name}?input=${encodeURIComponent(json)}`,
                  headers,
                  remoteAddress: browser.ip,
                })
              : await w.t.server.inject({
                  method: 'POST',
                  url: `/trpc/${procedure.name}`,
                  headers: { ...headers, 'content-type': 'application/json' },
                  payload: json,
                  remoteAddress: browser.ip,
                });
          await checkAnswer(res, before, false);
        }),
        { numRuns: RUNS.trpcHttp },
      );
    });
  }

  it('batched queries (`a,b?batch=1`), names and inputs both hostile: no internal error, no leak', async () => {
    const queries = listProcedures()
      .filter((procedure) => procedure.type === 'query')
      .map((procedure) => procedure.name);
    const name = fc.oneof(
      fc.constantFrom(...queries),
      fc.constantFrom('nope', 'cell.', '.get', '__proto__.x', 'cell.get.get'),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(name, { minLength: 1, maxLength: 4 }),
        fc.array(hostileValue(realTokens), { maxLength: 4 }),
        async (names, inputs) => {
          const input = JSON.stringify(Object.fromEntries(inputs.map((value, i) => [String(i), value])));
          const before = await store.mark();
          const res = await w.t.server.inject({
            method: 'GET',
            url: `/trpc/${names.map(encodeURIComponent).join(',')}?batch=1&input=${encodeURIComponent(input)}`,
          });
          await checkAnswer(res, before, false);
        },
      ),
      { numRuns: 40 },
    );
  });
});
