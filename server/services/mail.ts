/**
 * E-mail through the outbox (DESIGN.md §8). Services enqueue inside their own transaction, so a message exists
 * exactly when the change that caused it does; the job runner delivers: over SMTP when SMTP_URL is set, otherwise as
 * an .eml file in the outbox folder with its links logged, so a local user can still follow a reset link.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import { mailOutbox } from '#drizzle/schema.ts';
import type { Queryable } from '../db.ts';
import type { ServiceContext } from './context.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  kind: string;
  /** The same key is queued once, however often the enqueue is retried. */
  dedupeKey?: string;
}

export function enqueueMail(db: Queryable, now: number, mail: OutgoingMail): void {
  db.insert(mailOutbox)
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
    .onConflictDoNothing({ target: mailOutbox.dedupeKey })
    .run();
}

const MAX_ATTEMPTS = 8;
const BATCH = 20;

type Transport = nodemailer.Transporter<{ message?: unknown }>;

const transports = new Map<string, Transport>();

function transportFor(ctx: ServiceContext): Transport {
  const key = ctx.config.smtpUrl ?? 'file';
  let transport = transports.get(key);
  if (!transport) {
    transport = (
      ctx.config.smtpUrl
        ? nodemailer.createTransport(ctx.config.smtpUrl)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
    ) as Transport;
    transports.set(key, transport);
  }
  return transport;
}

const LINK = /https?:\/\/[^\s<>"]+/g;

/**
 * Sends what is due. A row is marked 'sending' before the attempt and 'sent' after it; a row left 'sending' by a
 * crash is tried again on the next run (its file name and Message-ID are fixed by its id, so a retry overwrites
 * the same file and an SMTP server can recognise the duplicate).
 */
export async function deliverOutbox(ctx: ServiceContext): Promise<number> {
  const { db } = ctx;
  const now = ctx.clock.now();
  const due = db
    .select()
    .from(mailOutbox)
    .where(and(inArray(mailOutbox.state, ['queued', 'sending']), lte(mailOutbox.nextAttemptAt, now)))
    .orderBy(asc(mailOutbox.id))
    .limit(BATCH)
    .all();
  let sent = 0;
  for (const mail of due) {
    db.update(mailOutbox).set({ state: 'sending', attempts: mail.attempts + 1 }).where(eq(mailOutbox.id, mail.id)).run();
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
      db.update(mailOutbox).set({ state: 'sent', sentAt: ctx.clock.now(), lastError: null }).where(eq(mailOutbox.id, mail.id)).run();
      sent++;
    } catch (error) {
      const attempts = mail.attempts + 1;
      const failed = attempts >= MAX_ATTEMPTS;
      db.update(mailOutbox)
        .set({
          state: failed ? 'failed' : 'queued',
          lastError: error instanceof Error ? error.message : String(error),
          nextAttemptAt: now + Math.min(2 ** attempts * 30_000, 6 * 60 * 60 * 1000),
        })
        .where(eq(mailOutbox.id, mail.id))
        .run();
      ctx.log.warn({ err: error, mailId: mail.id, attempts }, failed ? 'e-mail given up' : 'e-mail will be retried');
    }
  }
  return sent;
}
