/** The shape of a contract row (tests/server/contract.test.ts): one per route, keyed `METHOD /api/pattern`. */

export interface Contract {
  /** Whether the call is a row of spec §7's table (the others are DESIGN.md's or the project's own). */
  spec: boolean;
  /** A success in the {r: …} envelope, with its payload's shape. */
  success: () => Promise<void>;
  /** A documented failure: its code, status and the error shape. */
  failure: () => Promise<void>;
}

/** A well-formed token that names nothing. */
export const MISSING = 'm'.repeat(22);
