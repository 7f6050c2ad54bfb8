/**
 * Statements kept per connection (server/statement-cache.ts): a text is prepared once however often it is asked for,
 * and every handle on a kept statement keeps its own row mode, also while another handle iterates it.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { keepStatements } from '#server/statement-cache.ts';

function connection() {
  const client = new Database(':memory:');
  client.exec("create table t (a integer, b text); insert into t values (1, 'one'), (2, 'two'), (3, 'three')");
  const prepared: string[] = [];
  const prepare = client.prepare.bind(client);
  client.prepare = ((source: string) => {
    prepared.push(source);
    return prepare(source);
  }) as typeof client.prepare;
  keepStatements(client);
  return { client, prepared };
}

describe('kept statements', () => {
  it('prepares a text once, however many times it is asked for', () => {
    const { client, prepared } = connection();
    for (let i = 0; i < 5; i++) expect(client.prepare('select b from t where a = ?').get(2)).toEqual({ b: 'two' });
    client.prepare('select a from t order by a').all();
    expect(prepared).toEqual(['select b from t where a = ?', 'select a from t order by a']);
  });

  it('gives each handle its own row mode: arrays for one, objects for the next, on the same statement', () => {
    const { client } = connection();
    const arrays = client.prepare('select a, b from t order by a').raw();
    const objects = client.prepare('select a, b from t order by a');
    expect(arrays.all()).toEqual([
      [1, 'one'],
      [2, 'two'],
      [3, 'three'],
    ]);
    expect(objects.get()).toEqual({ a: 1, b: 'one' });
    expect(arrays.get()).toEqual([1, 'one']);
    expect(objects.raw(false).all()).toHaveLength(3);
    const firsts = client.prepare('select a, b from t order by a').pluck();
    expect(firsts.all()).toEqual([1, 2, 3]);
    expect(arrays.get()).toEqual([1, 'one']);
    expect(objects.get()).toEqual({ a: 1, b: 'one' });
    expect(firsts.pluck(false).get()).toEqual({ a: 1, b: 'one' });
  });

  it('runs a statement of its own while the kept one is being iterated', () => {
    const { client, prepared } = connection();
    const text = 'select a from t order by a';
    const seen: unknown[] = [];
    for (const row of client.prepare(text).iterate()) seen.push([row, client.prepare(text).all()]);
    expect(seen).toHaveLength(3);
    expect(seen[0]).toEqual([{ a: 1 }, [{ a: 1 }, { a: 2 }, { a: 3 }]]);
    // Once for the kept statement, and once for each run while it was busy.
    expect(prepared.filter((source) => source === text)).toHaveLength(4);
  });
});
