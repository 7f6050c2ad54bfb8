/**
 * Accounts: registration, login, password reset and restore, and the account form. Addresses are stored lower-cased and
 * compared that way. Login and reset never tell whether an address is registered; registration must (decision 006).
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, gt, isNull, ne, notInArray } from 'drizzle-orm';
import { loginNetworks, passwordResetTokens, users } from '#drizzle/tables.ts';
import { Role } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { createSession, invalidateUserSessions, type SessionUser } from '../../auth/sessions.ts';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { write, type Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import { newToken } from '../../tokens.ts';
import type { ServiceContext } from '../context.ts';
import { enqueueMail } from '../mail/index.ts';
import { reindexArtOfAuthor } from '../search/index.ts';
import { recordArtistRenamed } from '../tree/index.ts';
import { networkOf } from '../network.ts';
import { LIMITS, checkRateLimit, hitRateLimit } from '../rate-limit.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';

export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** The networks an account remembers signing in from (decision 040): the newest few, a phone, a home, a workplace. */
export const KNOWN_NETWORKS_KEPT = 5;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Verifying against this keeps an unknown address as slow as a wrong password. */
let decoyHash: Promise<string> | null = null;

async function findByEmail(ctx: ServiceContext, email: string): Promise<SessionUser | undefined> {
  return (
    await ctx.db
      .select()
      .from(users)
      .where(eq(users.email, normaliseEmail(email)))
  )[0];
}

export interface NewSession {
  user: SessionUser;
  token: string;
  expiresAt: number;
}

export async function register(
  ctx: ServiceContext,
  input: { firstname: string; lastname: string; email: string; password: string },
  ip: string,
): Promise<NewSession> {
  await hitRateLimit(ctx.db, ctx.clock.now(), LIMITS.registerPerIp, ip);
  const email = normaliseEmail(input.email);
  if (await findByEmail(ctx, email)) throw emailTaken();
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  const user = await write(ctx.db, async (tx) => {
    if ((await tx.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]) throw emailTaken();
    return (
      await tx
        .insert(users)
        .values({
          token: newToken(),
          email,
          passwordHash,
          firstname: input.firstname,
          lastname: input.lastname,
          role: Role.Observer,
          createdAt: now,
          updatedAt: now,
        })
        .returning()
    )[0]!;
  });
  await write(ctx.db, (tx) => rememberNetwork(tx, user.id, ip, now));
  return { user, ...(await write(ctx.db, (tx) => createSession(tx, ctx.clock, user.id))) };
}

function emailTaken(): AppError {
  return new AppError(ErrorCode.EmailTaken, ERROR_TEXT.email_taken, {
    email: ['This e-mail address is already registered. Log in or reset your password.'],
  });
}

/**
 * Signs in. Attempts are limited per network address; failures per account and address and per address
 * (decision 024): someone guessing an account's password slows down only themselves, never its owner elsewhere.
 * Failures are counted per account too, from every address together (decision 040): past that ceiling the account
 * takes passwords only from the networks it has signed in from before, so spreading guesses over many addresses
 * gains nothing, and its owner still gets in from home or through a reset link.
 */
export async function login(
  ctx: ServiceContext,
  input: { username: string; password: string },
  ip: string,
): Promise<NewSession> {
  const now = ctx.clock.now();
  const account = normaliseEmail(input.username);
  const accountAtIp = `${account}|${networkOf(ip)}`;
  await checkRateLimit(ctx.db, now, LIMITS.loginFailuresPerIp, ip);
  await checkRateLimit(ctx.db, now, LIMITS.loginFailuresPerAccountIp, accountAtIp);
  await hitRateLimit(ctx.db, now, LIMITS.loginPerIp, ip);
  const user = await findByEmail(ctx, input.username);
  // Refused before the password is hashed; an unknown address is counted the same, so the refusal tells nothing.
  if (!user || !(await isKnownNetwork(ctx.db, user.id, ip)))
    await checkRateLimit(ctx.db, now, LIMITS.loginFailuresPerAccount, account);
  let valid: boolean;
  if (!user) {
    decoyHash ??= hashPassword('decoy password for unknown addresses 1', true);
    await verifyPassword(await decoyHash, input.password);
    valid = false;
  } else {
    valid = (await verifyPassword(user.passwordHash, input.password)) && user.disabledAt === null;
  }
  if (!valid) {
    // Counted after the answer is known; the next attempt past a limit is the one refused.
    const failedAt = ctx.clock.now();
    await countQuietly(() => hitRateLimit(ctx.db, failedAt, LIMITS.loginFailuresPerIp, ip));
    await countQuietly(() => hitRateLimit(ctx.db, failedAt, LIMITS.loginFailuresPerAccountIp, accountAtIp));
    await countQuietly(() => hitRateLimit(ctx.db, failedAt, LIMITS.loginFailuresPerAccount, account));
    throw invalidCredentials();
  }
  await write(ctx.db, (tx) => rememberNetwork(tx, user!.id, ip, ctx.clock.now()));
  return { user: user!, ...(await write(ctx.db, (tx) => createSession(tx, ctx.clock, user!.id))) };
}

/** Whether the account has signed in from the network of `ip` (one of its KNOWN_NETWORKS_KEPT newest). */
async function isKnownNetwork(db: Queryable, userId: number, ip: string): Promise<boolean> {
  return (
    (
      await db
        .select({ userId: loginNetworks.userId })
        .from(loginNetworks)
        .where(and(eq(loginNetworks.userId, userId), eq(loginNetworks.network, networkOf(ip))))
    )[0] !== undefined
  );
}

/**
 * Remembers that the account got in from the network of `ip` (a login, a registration, a reset link used), and
 * forgets all but its KNOWN_NETWORKS_KEPT newest.
 */
async function rememberNetwork(db: Queryable, userId: number, ip: string, now: number): Promise<void> {
  await db
    .insert(loginNetworks)
    .values({ userId, network: networkOf(ip), lastAt: now })
    .onConflictDoUpdate({ target: [loginNetworks.userId, loginNetworks.network], set: { lastAt: now } });
  const newest = db
    .select({ network: loginNetworks.network })
    .from(loginNetworks)
    .where(eq(loginNetworks.userId, userId))
    .orderBy(desc(loginNetworks.lastAt), desc(loginNetworks.network))
    .limit(KNOWN_NETWORKS_KEPT);
  await db
    .delete(loginNetworks)
    .where(and(eq(loginNetworks.userId, userId), notInArray(loginNetworks.network, newest)));
}

/** Counts a failure; that this one went past the limit is told on the next attempt, not instead of this answer. */
async function countQuietly(count: () => Promise<void>): Promise<void> {
  try {
    await count();
  } catch (error) {
    if (!(error instanceof AppError && error.code === ErrorCode.RateLimited)) throw error;
  }
}

function invalidCredentials(): AppError {
  return new AppError(ErrorCode.InvalidCredentials, 'Wrong e-mail address or password.');
}

/** Always answers the same; mails a single-use link when the address belongs to an active account. */
export async function requestPasswordReset(
  ctx: ServiceContext,
  input: { username: string },
  ip: string,
): Promise<void> {
  const now = ctx.clock.now();
  await hitRateLimit(ctx.db, now, LIMITS.resetPerIp, ip);
  await hitRateLimit(ctx.db, now, LIMITS.resetPerAddress, normaliseEmail(input.username));
  const user = await findByEmail(ctx, input.username);
  if (!user || user.disabledAt !== null) return;
  const token = newToken(24);
  const link = `${ctx.config.siteUrl}/restore-password/${token}`;
  await write(ctx.db, async (tx) => {
    await tx
      .insert(passwordResetTokens)
      .values({ tokenHash: hashToken(token), userId: user.id, expiresAt: now + RESET_TOKEN_TTL_MS, createdAt: now });
    await enqueueMail(tx, now, {
      to: user.email,
      kind: 'password-reset',
      subject: 'Reset your Gallery Tree password',
      text: [
        `Hello ${user.firstname},`,
        '',
        'Someone asked to reset the password of your Gallery Tree account. If it was you, choose a new one here:',
        '',
        link,
        '',
        'The link works once, for the next hour. If you did not ask, ignore this message: your password stays as it is.',
      ].join('\n'),
    });
  });
}

async function validReset(db: Queryable, tokenHash: string, now: number) {
  const reset = (
    await db
      .select()
      .from(passwordResetTokens)
      .where(
        and(
          eq(passwordResetTokens.tokenHash, tokenHash),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, now),
        ),
      )
  )[0];
  if (!reset) throw new AppError(ErrorCode.InvalidResetToken, ERROR_TEXT.invalid_reset_token);
  return reset;
}

/**
 * Sets a new password from a reset link; every session of the user ends, and every other reset link of theirs
 * stops working. The link is checked before the password is hashed, and attempts are limited per address and per
 * link: a flood of made-up links costs the server a lookup each, never a hash (decision 024).
 */
export async function restorePassword(
  ctx: ServiceContext,
  input: { token: string; password: string },
  ip: string,
): Promise<void> {
  const tokenHash = hashToken(input.token);
  await hitRateLimit(ctx.db, ctx.clock.now(), LIMITS.restorePerIp, ip);
  await validReset(ctx.db, tokenHash, ctx.clock.now());
  await hitRateLimit(ctx.db, ctx.clock.now(), LIMITS.restorePerToken, tokenHash);
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  await write(ctx.db, async (tx) => {
    // Checked again: the link may have been used or run out while the password was hashed.
    const reset = await validReset(tx, tokenHash, now);
    await tx.update(passwordResetTokens).set({ usedAt: now }).where(eq(passwordResetTokens.userId, reset.userId));
    await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, reset.userId));
    await invalidateUserSessions(tx, reset.userId);
    // Whoever holds the link reads the account's mail: their network gets in past the account's ceiling (decision 040).
    await rememberNetwork(tx, reset.userId, ip, now);
  });
}

export interface AccountUpdate {
  firstname: string;
  lastname: string;
  email: string;
  show_email: boolean;
  password: string;
  current_password: string;
}

export const CURRENT_PASSWORD_MESSAGES = {
  missing: 'Enter your current password to change your e-mail address or password.',
  wrong: 'This is not your current password.',
} as const;

/**
 * A new e-mail address or password needs the current password too (decision 024): a borrowed session, or one left
 * open on a shared computer, must not be enough to take the account over. Wrong answers count as failed logins.
 */
async function confirmCurrentPassword(
  ctx: ServiceContext,
  user: SessionUser,
  given: string,
  ip: string,
): Promise<void> {
  const fail = (message: string) =>
    new AppError(ErrorCode.ValidationFailed, 'Some fields are not valid.', { current_password: [message] });
  if (!given) throw fail(CURRENT_PASSWORD_MESSAGES.missing);
  const accountAtIp = `${user.email}|${networkOf(ip)}`;
  await checkRateLimit(ctx.db, ctx.clock.now(), LIMITS.loginFailuresPerAccountIp, accountAtIp);
  if (await verifyPassword(user.passwordHash, given)) return;
  await countQuietly(() => hitRateLimit(ctx.db, ctx.clock.now(), LIMITS.loginFailuresPerAccountIp, accountAtIp));
  throw fail(CURRENT_PASSWORD_MESSAGES.wrong);
}

/**
 * The account form. A new password ends every session of the user, then opens a fresh one for the person who
 * changed it (returned), so only they stay signed in; it also voids every reset link still out.
 */
export async function updateAccount(
  ctx: ServiceContext,
  user: SessionUser,
  input: AccountUpdate,
  ip: string,
): Promise<{ user: SessionUser; session: { token: string; expiresAt: number } | null }> {
  const email = normaliseEmail(input.email);
  if (input.password || email !== normaliseEmail(user.email))
    await confirmCurrentPassword(ctx, user, input.current_password, ip);
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const now = ctx.clock.now();
  await write(ctx.db, async (tx) => {
    const clash = (
      await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, email), ne(users.id, user.id)))
    )[0];
    if (clash) {
      throw new AppError(ErrorCode.EmailTaken, 'This e-mail address is used by another account.', {
        email: ['This e-mail address is used by another account.'],
      });
    }
    await tx
      .update(users)
      .set({
        firstname: input.firstname,
        lastname: input.lastname,
        email,
        showEmail: input.show_email,
        ...(passwordHash ? { passwordHash } : {}),
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    // Artist names are searchable: a rename reaches the index in the same transaction, and the tree's region details.
    await reindexArtOfAuthor(tx, user.id);
    if (input.firstname !== user.firstname || input.lastname !== user.lastname)
      await recordArtistRenamed(tx, user.id, now);
    if (passwordHash) {
      await invalidateUserSessions(tx, user.id);
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: now })
        .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    }
  });
  const updated = (await ctx.db.select().from(users).where(eq(users.id, user.id)))[0]!;
  const session = passwordHash ? await write(ctx.db, (tx) => createSession(tx, ctx.clock, user.id)) : null;
  return { user: updated, session };
}
