/**
 * Reading rows in the server tests on either engine: drizzle's `.get()`, `.all()` and `.run()` are better-sqlite3's
 * alone, while an awaited query builder runs on both of its dialects (a query answers its rows, a write its result).
 */

/** The first row a select answers (it is limited to one), or undefined when none matches: `.get()`. */
export async function firstRow<T>(query: { limit: (count: number) => PromiseLike<T[]> }): Promise<T | undefined> {
  const [row] = await query.limit(1);
  return row;
}

/**
 * The first row of a select that the test takes to be there: `.get()!`. As with the non-null assertion it stands for,
 * a query that matches nothing answers undefined (a test may check that it is gone).
 */
export async function oneRow<T>(query: { limit: (count: number) => PromiseLike<T[]> }): Promise<T> {
  return (await firstRow(query))!;
}
