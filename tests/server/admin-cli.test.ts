import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '#drizzle/schema.ts';
import { Role } from '#shared/domain.ts';
import { verifyPassword } from '#server/auth/passwords.ts';
import { openDatabase } from '#server/db.ts';
import { nodeWithTsx } from '#tests/helpers/server/real-server.ts';
import { tempDir } from '#tests/helpers/server/test-app.ts';

const root = path.resolve(import.meta.dirname, '../..');

function admin(dataDir: string, ...args: string[]) {
  return spawnSync(process.execPath, nodeWithTsx('scripts/admin.ts', ...args), {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('npm run admin -- create EMAIL', () => {
  it('creates an admin with a generated password shown once, then leaves it alone', async () => {
    const dir = tempDir();
    const created = admin(dir, 'create', 'Staff@Gallery.Test');
    expect(created.status).toBe(0);
    expect(created.stdout).toContain('Created the admin account staff@gallery.test.');
    const password = /shown only this once\): (\S+)/.exec(created.stdout)![1]!;
    const db = openDatabase(path.join(dir, 'gallery.db'));
    const row = db.select().from(users).where(eq(users.email, 'staff@gallery.test')).get()!;
    expect(row.role).toBe(Role.Admin);
    expect(await verifyPassword(row.passwordHash, password)).toBe(true);
    db.$client.close();

    const again = admin(dir, 'create', 'staff@gallery.test');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('was already an admin; nothing changed.');
    expect(again.stdout).not.toContain(password);
  });

  it('promotes an existing account without touching its password', async () => {
    const dir = tempDir();
    expect(admin(dir, 'create', 'first@gallery.test', '--password', 'chosen&pass1').status).toBe(0);
    const db = openDatabase(path.join(dir, 'gallery.db'));
    db.update(users).set({ role: Role.Observer }).where(eq(users.email, 'first@gallery.test')).run();
    const promoted = admin(dir, 'create', 'FIRST@gallery.test');
    expect(promoted.stdout).toContain('first@gallery.test is now an admin.');
    const row = db.select().from(users).where(eq(users.email, 'first@gallery.test')).get()!;
    expect(row.role).toBe(Role.Admin);
    expect(await verifyPassword(row.passwordHash, 'chosen&pass1')).toBe(true);
    db.$client.close();
  });

  it('refuses a bad address, a weak password and a wrong command with one line', () => {
    const dir = tempDir();
    const bad = admin(dir, 'create', 'not-an-address');
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim()).toBe('Cannot create the admin: Invalid email address.');
    const weak = admin(dir, 'create', 'ok@gallery.test', '--password', 'abc');
    expect(weak.stderr.trim()).toBe('Cannot create the admin: Minimal length is 6 symbols.');
    const wrong = admin(dir, 'remove', 'ok@gallery.test');
    expect(wrong.status).toBe(1);
    expect(wrong.stderr.trim()).toBe('Usage: npm run admin -- create EMAIL [--password PASSWORD]');
  });
});
