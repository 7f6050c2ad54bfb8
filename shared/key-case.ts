/**
 * The REST answers name their fields in snake_case while the code (and tRPC) uses camelCase (decision 028): these two
 * functions turn one naming into the other, key by key, so no field's two names are ever written down side by side.
 */

type SnakeKey<K extends string> = K extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeKey<Tail>}`
  : K;

/** The type of `snakeKeys(value)`: the same value with every object key in snake_case, at every depth. */
export type Snaked<T> = T extends readonly (infer Item)[]
  ? Snaked<Item>[]
  : T extends object
    ? { [K in keyof T as K extends string ? SnakeKey<K> : K]: Snaked<T[K]> }
    : T;

const snakeOf = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
const camelOf = (key: string) => key.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeys(item, rename));
  if (!isPlainObject(value)) return value;
  const renamed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) renamed[rename(key)] = renameKeys(item, rename);
  return renamed;
}

/** `{treeToken: …, settings: {helpEmail: …}}` → `{tree_token: …, settings: {help_email: …}}`. Keys only, never values. */
export function snakeKeys<T>(value: T): Snaked<T> {
  return renameKeys(value, snakeOf) as Snaked<T>;
}

/** The inverse, for a client reading a REST answer into the code's own names. */
export function camelKeys(value: unknown): unknown {
  return renameKeys(value, camelOf);
}
