/** The shape of a contract row (tests/server/contract.test.ts): one per route, keyed `METHOD /api/pattern`. */

export interface Contract {
  /** Whether the call is one of the gallery's original REST paths (false: one the project added; see docs/api.md). */
  spec: boolean;
  /** A success in the {r: …} envelope, with its payload's shape. */
  success: () => Promise<void>;
  /** A documented failure: its code, status and the error shape. */
  failure: () => Promise<void>;
}

/** A well-formed token that names nothing. */
export const MISSING = 'm'.repeat(22);
