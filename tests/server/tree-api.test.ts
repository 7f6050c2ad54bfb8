import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { CellStatus, CellType } from '#shared/domain.ts';
import { decodeSnapshot, type TreeSnapshotWire } from '#shared/tree/snapshot.ts';
import { decodeBinarySnapshot } from '#shared/tree/snapshot-binary.ts';
import { SNAPSHOT_BINARY_TYPE } from '#shared/tree/snapshot-type.ts';
import { createTree } from '#server/services/tree/tree.ts';
import { recordBulkChange } from '#server/services/tree/tree-changes.ts';
import { createTestApp, type TestApp } from '#tests/helpers/server/test-app.ts';
import { write } from '#server/db.ts';

let t: TestApp;
let treeToken: string;
let treeId: number;

beforeAll(async () => {
  t = await createTestApp();
  const tree = await createTree(t.deps.db, t.clock.now(), 'Test tree');
  treeToken = tree.token;
  treeId = tree.id;
});
afterAll(() => t.cleanup());

describe('tree.get (tRPC)', () => {
  it('answers the compact snapshot of a new tree: every trunk cell, the seed rows available', async () => {
    const wire = await t.caller().tree.get({ token: treeToken });
    expect(wire.token).toBe(treeToken);
    const cells = decodeSnapshot(wire);
    expect(cells.count).toBe(45 * 5);
    const available = [];
    for (let i = 0; i < cells.count; i++) {
      expect(cells.type[i]).toBe(CellType.Trunk);
      if (cells.status[i] === CellStatus.Available) available.push(cells.row[i]);
      else expect(cells.status[i]).toBe(CellStatus.Pending);
    }
    expect(available).toEqual([33, 33, 33, 33, 33, 34, 34, 34, 34, 34]);
    expect(cells.token?.every((token) => /^[A-Za-z0-9_-]{22}$/.test(token))).toBe(true);
  });

  it('refuses an unknown token with tree_not_found and a malformed one as invalid input', async () => {
    await expect(t.caller().tree.get({ token: 'x'.repeat(22) })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const malformed = await t
      .caller()
      .tree.get({ token: 'no good' })
      .catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(TRPCError);
    expect((malformed as TRPCError).code).toBe('BAD_REQUEST');
  });

  it('carries the app error code over HTTP in data.app', async () => {
    const input = encodeURIComponent(JSON.stringify({ token: 'y'.repeat(22) }));
    const res = await t.server.inject({ url: `/trpc/tree.get?input=${input}` });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.data.app).toEqual({ error: 'tree_not_found', message: 'No tree has this token.' });
    const bad = await t.server.inject({ url: `/trpc/tree.get?input=${encodeURIComponent('{"token":"<script>"}')}` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.data.app).toMatchObject({
      error: 'validation_failed',
      errors: { token: ['Malformed token.'] },
    });
  });
});

describe('GET /api/tree/{treeToken}', () => {
  it('answers {r: snapshot} with an ETag, and 304 when it has not changed', async () => {
    const res = await t.server.inject({ url: `/api/tree/${treeToken}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = res.json() as { r: TreeSnapshotWire };
    expect(body.r.count).toBe(225);
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"t\d+v\d+"$/);
    const again = await t.server.inject({ url: `/api/tree/${treeToken}`, headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers the binary form to a reader that asks for it, with its own ETag, and 304 when it has not changed', async () => {
    const accept = `${SNAPSHOT_BINARY_TYPE}, application/json`;
    const res = await t.server.inject({ url: `/api/tree/${treeToken}`, headers: { accept, 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(SNAPSHOT_BINARY_TYPE);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('accept, accept-encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=1');
    const snapshot = decodeBinarySnapshot(brotliDecompressSync(res.rawPayload));
    const json = (await t.server.inject({ url: `/api/tree/${treeToken}` })).json() as { r: TreeSnapshotWire };
    expect(snapshot.version).toBe(json.r.version);
    const { indexOf, ...columns } = snapshot.cells;
    const { indexOf: jsonIndex, ...jsonColumns } = decodeSnapshot(json.r);
    expect(columns).toEqual(jsonColumns);
    expect(indexOf.toParts()).toEqual(jsonIndex.toParts());
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"t\d+v\d+b"$/);
    const again = await t.server.inject({
      url: `/api/tree/${treeToken}`,
      headers: { accept, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers.vary).toBe('accept, accept-encoding');
    // The JSON form's ETag is not the binary form's: neither is taken for the other.
    const json304 = await t.server.inject({ url: `/api/tree/${treeToken}`, headers: { 'if-none-match': etag } });
    expect(json304.statusCode).toBe(200);
    expect(json304.headers['content-type']).toMatch(/application\/json/);
  });

  it('sends the same bytes brotli- or gzip-compressed when the client accepts them', async () => {
    const plain = (await t.server.inject({ url: `/api/tree/${treeToken}` })).body;
    const br = await t.server.inject({
      url: `/api/tree/${treeToken}`,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    expect(br.rawPayload.length).toBeLessThan(plain.length);
    const gz = await t.server.inject({ url: `/api/tree/${treeToken}`, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain);
  });

  it('is built again after a bulk change (the log cannot bring an older snapshot up to date): a new ETag', async () => {
    const before = (await t.server.inject({ url: `/api/tree/${treeToken}` })).headers.etag;
    await write(t.deps.db, async (tx) => recordBulkChange(tx, treeId, t.clock.now()));
    const after = await t.server.inject({
      url: `/api/tree/${treeToken}`,
      headers: { 'if-none-match': before as string },
    });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before);
  });

  it('answers 404 with the error shape for an unknown token and 400 for a malformed one', async () => {
    const unknown = await t.server.inject({ url: `/api/tree/${'z'.repeat(22)}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ r: { error: 'tree_not_found', message: 'No tree has this token.' } });
    const malformed = await t.server.inject({ url: '/api/tree/not%20a%20token' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ r: { error: 'bad_request', message: 'Malformed tree token.' } });
  });
});

describe('GET /api/cell/{cellToken}', () => {
  it('answers the cell through the same procedure as tRPC', async () => {
    const wire = await t.caller().tree.get({ token: treeToken });
    const token = wire.detail!.token[0]!;
    const res = await t.server.inject({ url: `/api/cell/${token}` });
    expect(res.statusCode).toBe(200);
    const { treeToken: cellTree, ...cell } = await t.caller().cell.get({ token });
    // The same cell, in the REST answers' names, carrying its piece (none here) and its connections.
    expect(res.json().r).toEqual({ ...cell, tree_token: cellTree, art: null, connections: [] });
    expect(res.json().r).toMatchObject({ token, row: 0, column: 0, type: 1, status: 0, tree_token: treeToken });
    const unknown = await t.server.inject({ url: `/api/cell/${'q'.repeat(22)}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().r.error).toBe('cell_not_found');
  });

  it('answers an unknown API path with the envelope, not the page', async () => {
    const res = await t.server.inject({ url: '/api/nothing/here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ r: { error: 'not_found', message: 'No such API path.' } });
  });
});
