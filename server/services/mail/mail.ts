/**
 * E-mail through the outbox (decision 025). Services enqueue inside their own transaction, so a message exists
 * exactly when the change that caused it does; the job runner delivers: over SMTP when SMTP_URL is set, otherwise as
 * an .eml file in the outbox folder with its links logged, so a local user can still follow a reset link.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { and, eq, sql } from 'drizzle-orm';
import { mailOutbox } from '#drizzle/tables.ts';
import { write, type Db, type Queryable } from '../../db.ts';
import type { ServiceContext } from '../context.ts';
import type { JobClaim } from '../jobs.ts';
import { keepRenewing, LEASE_MS, newOwnerId } from '../leases.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  kind: string;
  /** The same key is queued once, however often the enqueue is retried. */
  dedupeKey?: string;
}

export async function enqueueMail(db: Queryable, now: number, mail: OutgoingMail): Promise<void> {
  await db
    .insert(mailOutbox)
    .values({
      dedupeKey: mail.dedupeKey ?? null,
      toAddress: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      kind: mail.kind,
      state: 'queued',
      nextAttemptAt: now,
      createdAt: now,
    })
    .onConflictDoNothing({ target: mailOutbox.dedupeKey });
}

const MAX_ATTEMPTS = 8;
/** One run sends at most this many, or for at most this long, and leaves the rest to the next run. */
const RUN_MAX_MESSAGES = 500;
const RUN_MAX_MS = 60_000;
/**
 * The SMTP connection: timeouts kept well inside a message's claim (a send still waiting when its claim could run
 * out would let another process send the same message), and one connection reused.
 */
const SMTP_OPTIONS = {
  connectionTimeout: '10000',
  greetingTimeout: '10000',
  socketTimeout: '15000',
  // One connection kept open and reused: a new connection for each message costs tens of milliseconds.
  pool: 'true',
  maxConnections: '1',
};

type Transport = nodemailer.Transporter<{ message?: unknown }>;

const transports = new Map<string, Transport>();

/** The SMTP URL with our options added (a query parameter the operator set wins). */
function smtpUrlWithOptions(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const [name, value] of Object.entries(SMTP_OPTIONS))
    if (!url.searchParams.has(name)) url.searchParams.set(name, value);
  return url.toString();
}

/** Closes the SMTP connections kept open (the server stops); a later message opens a new one. */
export function closeMailTransports(): void {
  for (const transport of transports.values()) transport.close();
  transports.clear();
}

function transportFor(ctx: ServiceContext): Transport {
  const key = ctx.config.smtpUrl ?? 'file';
  let transport = transports.get(key);
  if (!transport) {
    transport = (
      ctx.config.smtpUrl
        ? nodemailer.createTransport(smtpUrlWithOptions(ctx.config.smtpUrl))
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
    ) as Transport;
    transports.set(key, transport);
  }
  return transport;
}

const LINK = /https?:\/\/[^\s<>"]+/g;

/**
 * Claims the oldest message that is due, in one statement (decision 025): a queued one whose time has come, or
 * one left 'sending' by an owner whose claim ran out (it died, or lost its database for longer than the lease).
 */
function claimNext(db: Db, owner: string, now: number, leaseMs: number) {
  return write(db, (tx) => claimNextIn(tx, owner, now, leaseMs));
}

async function claimNextIn(db: Queryable, owner: string, now: number, leaseMs: number) {
  const oldestDue = sql`(select id from ${mailOutbox}
    where (state = 'queued' and next_attempt_at <= ${now}) or (state = 'sending' and coalesce(claim_until, 0) <= ${now})
    order by id limit 1)`;
  return (
    await db
      .update(mailOutbox)
      .set({ state: 'sending', claimedBy: owner, claimUntil: now + leaseMs, attempts: sql`${mailOutbox.attempts} + 1` })
      .where(eq(mailOutbox.id, oldestDue))
      .returning()
  )[0];
}

/**
 * Sends what is due, one message at a time, each claimed first (its owner and a lease that is renewed while it is
 * sent), so that any number of processes deliver every message once. A message left 'sending' by an owner that
 * died is taken over once its claim runs out; its Message-ID and file name are fixed by its id, so in the one case
 * that may still repeat it (the owner died after the SMTP server accepted it and before marking it sent) the
 * receiving server can recognise the duplicate.
 */
export async function deliverOutbox(
  ctx: ServiceContext,
  claim: JobClaim = { owner: newOwnerId(), leaseMs: LEASE_MS },
): Promise<number> {
  const { db } = ctx;
  const started = Date.now();
  let sent = 0;
  for (let tried = 0; tried < RUN_MAX_MESSAGES && Date.now() - started < RUN_MAX_MS && !claim.stopping?.(); tried++) {
    const now = ctx.clock.now();
    const mail = await claimNext(db, claim.owner, now, claim.leaseMs);
    if (!mail) break;
    const mine = and(eq(mailOutbox.id, mail.id), eq(mailOutbox.claimedBy, claim.owner));
    const stopRenewing = keepRenewing(
      () =>
        write(
          db,
          async (tx) =>
            await tx
              .update(mailOutbox)
              .set({ claimUntil: ctx.clock.now() + claim.leaseMs })
              .where(and(mine, eq(mailOutbox.state, 'sending'))),
        ),
      claim.leaseMs,
    );
    try {
      const messageId = `<outbox-${mail.id}@${new URL(ctx.config.siteUrl).hostname}>`;
      const result = await transportFor(ctx).sendMail({
        from: ctx.config.mailFrom,
        to: mail.toAddress,
        subject: mail.subject,
        text: mail.textBody,
        messageId,
      });
      if (!ctx.config.smtpUrl) {
        await fs.mkdir(ctx.config.outboxDir, { recursive: true });
        const file = path.join(ctx.config.outboxDir, `${String(mail.id).padStart(6, '0')}-${mail.kind}.eml`);
        await fs.writeFile(file, result.message as Buffer);
        const links = mail.textBody.match(LINK) ?? [];
        ctx.log.info({ to: mail.toAddress, subject: mail.subject, file, links }, 'e-mail written to the outbox folder');
      }
      stopRenewing();
      // Marked sent whoever holds the claim now: it has been sent, and must not be sent again.
      await write(
        db,
        async (tx) =>
          await tx
            .update(mailOutbox)
            .set({ state: 'sent', sentAt: ctx.clock.now(), lastError: null, claimedBy: null, claimUntil: null })
            .where(eq(mailOutbox.id, mail.id)),
      );
      sent++;
    } catch (error) {
      stopRenewing();
      const failed = mail.attempts >= MAX_ATTEMPTS;
      await write(
        db,
        async (tx) =>
          await tx
            .update(mailOutbox)
            .set({
              state: failed ? 'failed' : 'queued',
              lastError: error instanceof Error ? error.message : String(error),
              nextAttemptAt: now + Math.min(2 ** mail.attempts * 30_000, 6 * 60 * 60 * 1000),
              claimedBy: null,
              claimUntil: null,
            })
            .where(mine),
      );
      ctx.log.warn(
        { err: error, mailId: mail.id, attempts: mail.attempts },
        failed ? 'e-mail given up' : 'e-mail will be retried',
      );
    }
  }
  return sent;
}
