/** Password hashing with argon2id (DESIGN.md §5), at the parameters OWASP recommends for interactive logins. */
import { hash, verify } from '@node-rs/argon2';

/** Algorithm.Argon2id: the package's const enum cannot be imported under verbatimModuleSyntax. */
const ARGON2ID = 2;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
