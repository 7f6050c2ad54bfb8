/**
 * PostgreSQL statements kept per connection by their text, as statement-cache.ts keeps SQLite's (decision 037).
 * Drizzle sends every query unnamed, so the server reads and plans its text again each time; on the small reads and
 * writes a visit makes, that was most of what PostgreSQL spent. Here a query with parameters whose text the
 * connection has run before gets a name made from its text: the connection prepares it then (pg remembers which
 * names it prepared) and only binds the values after that. A text seen once is run as it is, so the texts that carry
 * constants (search names its words) are not prepared for nothing; and a connection remembers a bounded number of
 * texts, the least recently used given up (DEALLOCATE) past it, so they cannot fill the server's memory either.
 *
 * A query without parameters is left as it is: it goes by the simple protocol, which also runs a text of several
 * statements (a migration's).
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Texts a connection remembers, prepared or seen once: the app's queries number a few hundred. */
export const KEPT_PG_STATEMENTS = 500;

type Query = pg.PoolClient['query'];

interface Nameable {
  text: string;
  name?: string;
  values?: unknown[];
}

/** A query config with parameters and no name yet (a text and its values count as one). */
const nameable = (config: unknown, values: unknown): Nameable | null => {
  if (typeof config === 'string') return Array.isArray(values) && values.length > 0 ? { text: config } : null;
  if (typeof config !== 'object' || config === null) return null;
  const { text, name } = config as Partial<Nameable>;
  if (typeof text !== 'string' || name !== undefined) return null;
  const given = Array.isArray(values) ? values : (config as Partial<Nameable>).values;
  return Array.isArray(given) && given.length > 0 ? (config as Nameable) : null;
};

/** A name for `text`, the same on every connection and process (at most 63 bytes, PostgreSQL's limit). */
export const statementNameOf = (text: string): string =>
  `gallery_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}`;

/** Makes every connection `pool` opens from now on keep the statements it runs (see above). */
export function keepPgStatements(pool: pg.Pool, kept = KEPT_PG_STATEMENTS): void {
  pool.on('connect', (client) => keepStatementsOn(client, kept));
}

function keepStatementsOn(client: pg.PoolClient, limit: number): void {
  // pg's own query, looked up on each call (not kept from now), so whatever wraps the client's class later sees it.
  const ownQuery = Object.getPrototypeOf(client) as { query: (...args: unknown[]) => unknown };
  const query = (...args: unknown[]): unknown => ownQuery.query.apply(client, args);
  // The texts run, the most recently used last: named once run a second time.
  const texts = new Map<string, string | null>();
  const keeping = (...args: unknown[]): unknown => {
    const config = nameable(args[0], args[1]);
    if (!config) return query(...args);
    let name = texts.get(config.text);
    if (name !== undefined) {
      texts.delete(config.text);
      name ??= statementNameOf(config.text);
    } else {
      name = null;
      if (texts.size >= limit) giveUpOldest(client, texts, query);
    }
    texts.set(config.text, name);
    return name === null ? query(...args) : query({ ...config, name }, ...args.slice(1));
  };
  client.query = keeping as Query;
}

/**
 * Forgets the least recently used statement: in pg's record of what this connection prepared, and on the server if
 * it was prepared there (a text whose preparing failed never was). DEALLOCATE is queued before the query that
 * follows, so a later use of the same text prepares it again after it is gone.
 */
function giveUpOldest(
  client: pg.PoolClient,
  texts: Map<string, string | null>,
  query: (...args: unknown[]) => unknown,
): void {
  const [text, name] = texts.entries().next().value!;
  texts.delete(text);
  if (name === null) return;
  const parsed = (client as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection
    ?.parsedStatements;
  if (parsed?.[name] === undefined) return;
  delete parsed[name];
  // Only ever a name this module made (letters, digits, _ and -), quoted as an identifier. An error here means the
  // connection broke, which the next query reports.
  void (query(`deallocate "${name}"`) as Promise<unknown>).catch(() => {});
}
