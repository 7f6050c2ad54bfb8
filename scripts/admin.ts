/**
 * `npm run admin -- create EMAIL [--password PASSWORD]`: makes EMAIL an admin (staff), creating the account when
 * there is none. A generated password is printed once.
 */
import * as v from 'valibot';
import { ConfigError, loadConfig } from '#server/config.ts';
import { ensureWritableDir, openDatabase } from '#server/db.ts';
import { createOrPromoteAdmin } from '#server/services/admin/index.ts';
import { StartupError } from '#server/startup-error.ts';
import { ACCOUNT_LIMITS } from '#shared/constants.ts';
import { passwordSchema } from '#shared/validation/account.ts';
import { requiredEmail } from '#shared/validation/rules.ts';

const USAGE = 'Usage: npm run admin -- create EMAIL [--password PASSWORD]';

async function main(args: string[]): Promise<number> {
  const [command, email, ...rest] = args;
  if (command !== 'create' || !email) {
    console.error(USAGE);
    return 1;
  }
  const passwordAt = rest.indexOf('--password');
  const password = passwordAt >= 0 ? rest[passwordAt + 1] : undefined;
  const address = v.safeParse(requiredEmail('Email', ACCOUNT_LIMITS.email), email);
  if (!address.success) {
    console.error(`Cannot create the admin: ${address.issues[0].message}`);
    return 1;
  }
  if (password !== undefined) {
    const checked = v.safeParse(passwordSchema, password);
    if (!checked.success) {
      console.error(`Cannot create the admin: ${checked.issues[0].message}`);
      return 1;
    }
  }
  const config = loadConfig();
  ensureWritableDir(config.dataDir, 'data folder');
  const db = openDatabase(config.databaseFile);
  try {
    const outcome = await createOrPromoteAdmin(db, Date.now(), address.output, password);
    if (outcome.kind === 'promoted') console.log(`${outcome.email} is now an admin.`);
    if (outcome.kind === 'already-admin') console.log(`${outcome.email} was already an admin; nothing changed.`);
    if (outcome.kind === 'created') {
      console.log(`Created the admin account ${outcome.email}.`);
      if (outcome.generated) console.log(`Its password (shown only this once): ${outcome.password}`);
    }
    return 0;
  } finally {
    db.$client.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof StartupError || error instanceof ConfigError) {
    console.error(`Cannot create the admin: ${error.message}`);
    process.exitCode = 1;
  } else throw error;
}
