/** Contact messages for staff: the list, the oldest unhandled first, and marking one handled. */
import { and, asc, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import { contactMessages, users, tableAlias } from '#drizzle/tables.ts';
import { StaffAction, type AdminMessage } from '#shared/admin-api.ts';
import { ErrorCode } from '#shared/errors.ts';
import { write, type Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../permissions.ts';
import type { ServiceContext } from '../context.ts';
import { personRef } from '../display/index.ts';
import { recordStaffAction, requireStaff } from '../staff/index.ts';

function selectMessages(q: Queryable) {
  const sender = tableAlias(users, 'sender');
  const handler = tableAlias(users, 'handler');
  return q
    .select({
      message: contactMessages,
      sender: { token: sender.token, firstname: sender.firstname, lastname: sender.lastname },
      handler: { token: handler.token, firstname: handler.firstname, lastname: handler.lastname },
    })
    .from(contactMessages)
    .leftJoin(sender, eq(sender.id, contactMessages.userId))
    .leftJoin(handler, eq(handler.id, contactMessages.handledBy))
    .$dynamic();
}

function answerOf(row: Awaited<ReturnType<ReturnType<typeof selectMessages>['all']>>[number]): AdminMessage {
  const { message } = row;
  return {
    id: message.id,
    email: message.email,
    reason: message.reason,
    subject: message.subject,
    message: message.message,
    createdAt: message.createdAt,
    user: row.sender && personRef(row.sender),
    handledAt: message.handledAt,
    handledBy: row.handler && personRef(row.handler),
  };
}

/** admin.messages: unhandled ones the oldest first; handled ones (or all) the newest first. */
export async function listMessages(ctx: ServiceContext, handled: boolean | undefined): Promise<AdminMessage[]> {
  const filter =
    handled === undefined
      ? undefined
      : handled
        ? isNotNull(contactMessages.handledAt)
        : isNull(contactMessages.handledAt);
  const order = handled === false ? asc(contactMessages.createdAt) : desc(contactMessages.createdAt);
  return (await selectMessages(ctx.db).where(filter).orderBy(order, asc(contactMessages.id))).map(answerOf);
}

/** admin.markMessageHandled: marking a handled message again changes nothing and logs nothing. */
export async function markMessageHandled(ctx: ServiceContext, viewer: Viewer, id: number): Promise<AdminMessage> {
  const staff = requireStaff(viewer);
  const now = ctx.clock.now();
  return write(ctx.db, async (tx) => {
    const exists = (
      await tx.select({ id: contactMessages.id }).from(contactMessages).where(eq(contactMessages.id, id))
    )[0];
    if (!exists) throw new AppError(ErrorCode.NotFound, 'No contact message has this id.');
    const changed = (
      await tx
        .update(contactMessages)
        .set({ handledAt: now, handledBy: staff.id })
        .where(and(eq(contactMessages.id, id), isNull(contactMessages.handledAt)))
        .returning({ id: contactMessages.id })
    ).length;
    if (changed === 1)
      await recordStaffAction(tx, staff, now, {
        action: StaffAction.MarkMessageHandled,
        subjectType: 'contact_message',
        subjectToken: String(id),
      });
    return answerOf((await selectMessages(tx).where(eq(contactMessages.id, id)).limit(1))[0]!);
  });
}
