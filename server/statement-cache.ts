/**
 * SQLite statements kept per connection by their text. Drizzle prepares every query it runs afresh, and SQLite's
 * prepare (reading and planning the text) was an eighth of the CPU a reservation took over HTTP; the same few hundred
 * texts come back all the time (only the values bound to them change), so each connection keeps the statements it
 * prepared, the least recently used given up past a bound. SQLite prepares a kept statement again by itself when
 * the schema changes under it.
 *
 * A kept statement is shared by everyone who prepares its text, so each gets a handle of its own that remembers its
 * own mode (drizzle asks some for rows as arrays with `raw()`, others as objects; `pluck()` asks for first columns) and sets it on the statement before
 * each run; a statement still being iterated is busy, and a handle that finds it so runs a statement of its own.
 */
import type Database from 'better-sqlite3';

/** Distinct statement texts a connection keeps: the app's queries number a few hundred. */
const KEPT_STATEMENTS = 1000;

type Statement = Database.Statement<unknown[], unknown>;

class StatementHandle {
  private rows: 'objects' | 'arrays' | 'first values' = 'objects';

  constructor(
    private readonly statement: Statement,
    private readonly prepareAgain: () => Statement,
  ) {}

  get reader(): boolean {
    return this.statement.reader;
  }

  /** Rows as arrays (the default when called with no argument), or as objects again with `false`. */
  raw(arrays = true): this {
    this.rows = arrays ? 'arrays' : 'objects';
    return this;
  }

  /** Each row's first column alone (the default when called with no argument), or rows as objects with `false`. */
  pluck(firstValues = true): this {
    this.rows = firstValues ? 'first values' : 'objects';
    return this;
  }

  run(...params: unknown[]): Database.RunResult {
    return this.ready().run(...params);
  }

  get(...params: unknown[]): unknown {
    return this.ready().get(...params);
  }

  all(...params: unknown[]): unknown[] {
    return this.ready().all(...params);
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.ready().iterate(...params);
  }

  private ready(): Statement {
    const statement = this.statement.busy ? this.prepareAgain() : this.statement;
    if (statement.reader) {
      // Setting one mode does not always clear the other: both are set every time.
      statement.pluck(this.rows === 'first values');
      if (this.rows !== 'first values') statement.raw(this.rows === 'arrays');
    }
    return statement;
  }
}

/** Makes `client.prepare` keep what it prepares (see above); the connection is used as before otherwise. */
export function keepStatements(client: Database.Database): void {
  const prepare = client.prepare.bind(client) as (source: string) => Statement;
  const kept = new Map<string, Statement>();
  const keptPrepare = (source: string): StatementHandle => {
    let statement = kept.get(source);
    if (statement) {
      // Most recently used last: the first in the map is the one to give up.
      kept.delete(source);
    } else {
      statement = prepare(source);
      if (kept.size >= KEPT_STATEMENTS) kept.delete(kept.keys().next().value!);
    }
    kept.set(source, statement);
    return new StatementHandle(statement, () => prepare(source));
  };
  client.prepare = keptPrepare as unknown as typeof client.prepare;
}
