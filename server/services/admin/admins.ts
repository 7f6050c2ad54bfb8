/** Creating or promoting staff from the shell (`npm run admin -- create EMAIL`). */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users } from '#drizzle/tables.ts';
import { Role } from '#shared/domain.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { write, type Db } from '../../db.ts';
import { newToken } from '../../tokens.ts';
import { normaliseEmail } from '../accounts/index.ts';

export type AdminOutcome =
  | { kind: 'promoted'; email: string }
  | { kind: 'already-admin'; email: string }
  | { kind: 'created'; email: string; password: string; generated: boolean };

/** A strong password a person can still type: 20 URL-safe characters plus a digit and a sign. */
export function generatePassword(): string {
  return `${randomBytes(15).toString('base64url')}7!`;
}

export async function createOrPromoteAdmin(
  db: Db,
  now: number,
  email: string,
  password?: string,
): Promise<AdminOutcome> {
  const address = normaliseEmail(email);
  const existing = (await db.select().from(users).where(eq(users.email, address)))[0];
  if (existing) {
    if (existing.role === Role.Admin) return { kind: 'already-admin', email: address };
    await write(
      db,
      async (tx) => await tx.update(users).set({ role: Role.Admin, updatedAt: now }).where(eq(users.id, existing.id)),
    );
    return { kind: 'promoted', email: address };
  }
  const chosen = password ?? generatePassword();
  const passwordHash = await hashPassword(chosen, true);
  const [local] = address.split('@');
  await write(
    db,
    async (tx) =>
      await tx.insert(users).values({
        token: newToken(),
        email: address,
        passwordHash,
        firstname: local!.slice(0, 64) || 'Admin',
        lastname: 'Staff',
        role: Role.Admin,
        createdAt: now,
        updatedAt: now,
      }),
  );
  return { kind: 'created', email: address, password: chosen, generated: password === undefined };
}
