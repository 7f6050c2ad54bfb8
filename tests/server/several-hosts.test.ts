/**
 * Several hosts, one PostgreSQL database (decision 037): two app processes, each with a data folder of its own, started
 * at the same moment on one new database (its migrations applied once, its first tree planted once); a member
 * signed in on one is signed in on the other; a square reserved through one is reserved on the other, and a visitor
 * watching the live tree on the other is told at once; a race for one square across both hosts has one winner.
 */
import fs from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cells, trees, useTablesOf } from '#drizzle/tables.ts';
import type { Db } from '#server/db.ts';
import { closeAppDatabase, openAppDatabase } from '#server/open-database.ts';
import { CellStatus } from '#shared/domain.ts';
import { openStream } from '#tests/helpers/event-stream.ts';
import { postgresDatabase, type TestDatabase } from '#tests/helpers/server/postgres.ts';
import {
  signedInUsers,
  startRealServer,
  stopRealServer,
  TEST_CSRF,
  type RealServer,
} from '#tests/helpers/server/real-server.ts';
import { SEED_ROW } from '#tests/helpers/server/reservation-fixtures.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';

let database: TestDatabase;
let db: Db;
const hosts: RealServer[] = [];
const folders: string[] = [];

beforeAll(async () => {
  database = await postgresDatabase();
  const started = await Promise.all(
    ['a', 'b'].map((name) => {
      const dir = tempDir(`host-${name}-`);
      folders.push(dir);
      return startRealServer(dir, { DATABASE_URL: database.url });
    }),
  );
  hosts.push(...started);
  db = await openAppDatabase({ databaseFile: '', databaseUrl: database.url });
}, 60_000);

afterAll(async () => {
  await Promise.all(hosts.map((host) => stopRealServer(host)));
  if (db) await closeAppDatabase(db);
  useTablesOf('sqlite');
  await database?.drop();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

const [a, b] = [() => hosts[0]!, () => hosts[1]!];

async function reserve(host: RealServer, cookie: string, cellToken: string) {
  return fetch(`${host.url}/api/cell/${cellToken}/reserve`, {
    method: 'POST',
    headers: { cookie, 'x-requested-with': 'XMLHttpRequest', 'x-csrf-token': TEST_CSRF },
  });
}

async function seedSquare(column: number) {
  const [tree] = await db.select().from(trees);
  const [square] = await db
    .select()
    .from(cells)
    .where(and(eq(cells.treeId, tree!.id), eq(cells.row, SEED_ROW), eq(cells.column, column)));
  return { tree: tree!, square: square! };
}

describe('two hosts on one PostgreSQL database', () => {
  it('plant one tree between them, and serve the same one', async () => {
    expect(await db.select({ id: trees.id }).from(trees)).toHaveLength(1);
    const [fromA, fromB] = await Promise.all(
      [a(), b()].map(async (host) => ((await (await fetch(`${host.url}/api/initial-params`)).json()) as any).r.params),
    );
    expect(fromA.tree_token).toBe(fromB.tree_token);
  });

  it('share sessions, reservations and the live tree', async () => {
    const [member] = await signedInUsers(db, 1, 'hosts');
    const me = await fetch(`${b().url}/api/user/current`, { headers: { cookie: member!.cookie } });
    expect(me.status).toBe(200);
    expect(JSON.stringify(await me.json())).toContain(member!.email);

    const { tree, square } = await seedSquare(0);
    const stream = await openStream(a().url, `/api/tree/${tree.token}/events?since=${tree.version}`);
    try {
      const reserved = await reserve(b(), member!.cookie, square.token);
      expect(reserved.status).toBe(200);
      const told = await stream.next((event) => event.event === 'changes', 5000);
      expect(told.data).toContain(square.token);
      const onA = (await (await fetch(`${a().url}/api/cell/${square.token}`)).json()) as any;
      expect(JSON.stringify(onA)).toContain(`"status":${CellStatus.Reserved}`);
    } finally {
      stream.close();
    }
  });

  it('give one square to one member when eight race for it across both hosts', async () => {
    const members = await signedInUsers(db, 8, 'racer');
    const { square } = await seedSquare(1);
    const answers = await Promise.all(
      members.map((member, i) => reserve(i % 2 === 0 ? a() : b(), member.cookie, square.token)),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(7);
  });
});
