/**
 * The contact form: a message is kept in contact_messages for the staff and mailed to the help address through the
 * outbox, both in one transaction, so a message is never stored without its e-mail or the other way round. Limited per
 * IP (docs/product.md, Limits).
 */
import { contactMessages } from '#drizzle/tables.ts';
import type { ContactMessage } from '#shared/validation/contact.ts';
import type { ServiceContext } from '../context.ts';
import { enqueueMail } from './mail.ts';
import { LIMITS, hitRateLimit } from '../rate-limit.ts';
import { write } from '../../db.ts';

export interface SentContactMessage {
  id: number;
}

/** Stores the (already validated) message and queues its e-mail to the help address. */
export async function sendContactMessage(
  ctx: ServiceContext,
  input: ContactMessage,
  ip: string,
  userId: number | null,
): Promise<SentContactMessage> {
  const now = ctx.clock.now();
  // Outside the transaction, like the other limits: a refused attempt still counts.
  await hitRateLimit(ctx.db, now, LIMITS.contactPerIp, ip);
  return write(ctx.db, async (tx) => {
    const row = (
      await tx
        .insert(contactMessages)
        .values({
          userId,
          email: input.email,
          reason: input.reason,
          subject: input.subject,
          message: input.message,
          createdAt: now,
        })
        .returning({ id: contactMessages.id })
    )[0]!;
    await enqueueMail(tx, now, {
      to: ctx.config.helpEmail,
      kind: 'contact',
      dedupeKey: `contact:${row.id}`,
      subject: `[${input.reason}] ${oneLine(input.subject)}`,
      text: [
        `A message from the Gallery Tree contact form (#${row.id}).`,
        '',
        `Reply to: ${input.email}`,
        `Reason:   ${input.reason}`,
        `Subject:  ${input.subject}`,
        `Sent by:  ${userId === null ? 'a guest' : `signed-in user #${userId}`}`,
        `Sent at:  ${new Date(now).toISOString()}`,
        '',
        input.message,
      ].join('\n'),
    });
    return { id: row.id };
  });
}

/** A subject header never carries a line break from the form. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
