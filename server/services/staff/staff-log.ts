/**
 * The staff log: every staff action writes one row, inside the transaction of the change it records, and
 * the dashboard lists them newest first. Also the small helpers every admin service shares.
 */
import { count, desc, eq } from 'drizzle-orm';
import { staffActions, users } from '#drizzle/tables.ts';
import { ADMIN_PAGE_SIZE, type AdminPage, type StaffAction, type StaffLogEntry } from '#shared/admin-api.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import { isAdmin, type Viewer } from '../../permissions.ts';
import type { ServiceContext } from '../context.ts';
import { personRef } from '../display/index.ts';

export type Staff = NonNullable<Viewer>;

/** The admin acting, or the refusal a non-admin gets (the procedures already check; services say it again). */
export function requireStaff(viewer: Viewer): Staff {
  if (!viewer) throw new AppError(ErrorCode.Unauthenticated, 'Log in as staff to do that.');
  if (!isAdmin(viewer)) throw new AppError(ErrorCode.Forbidden, 'Only staff can do that.');
  return viewer;
}

export interface StaffActionRecord {
  action: StaffAction;
  subjectType: 'art' | 'removal_request' | 'contact_message' | 'user' | 'reservation';
  subjectToken: string;
  note?: string | null;
}

/** Writes the log row inside the transaction of the change; its id keys the e-mail the action sends, if any. */
export async function recordStaffAction(
  tx: Queryable,
  staff: Staff,
  now: number,
  record: StaffActionRecord,
): Promise<number> {
  return (
    await tx
      .insert(staffActions)
      .values({
        staffId: staff.id,
        action: record.action,
        subjectType: record.subjectType,
        subjectToken: record.subjectToken,
        note: record.note ?? null,
        createdAt: now,
      })
      .returning({ id: staffActions.id })
  )[0]!.id;
}

export const offsetOf = (page: number): number => (page - 1) * ADMIN_PAGE_SIZE;

/** admin.staffLog: newest first, ADMIN_PAGE_SIZE a page. */
export async function listStaffLog(ctx: ServiceContext, page: number): Promise<AdminPage<StaffLogEntry>> {
  const total = (await ctx.db.select({ n: count() }).from(staffActions))[0]?.n ?? 0;
  const items = (
    await ctx.db
      .select({ entry: staffActions, token: users.token, firstname: users.firstname, lastname: users.lastname })
      .from(staffActions)
      .innerJoin(users, eq(users.id, staffActions.staffId))
      .orderBy(desc(staffActions.createdAt), desc(staffActions.id))
      .limit(ADMIN_PAGE_SIZE)
      .offset(offsetOf(page))
  ).map(({ entry, ...staff }) => ({
    id: entry.id,
    staff: personRef(staff),
    action: entry.action,
    subjectType: entry.subjectType,
    subjectToken: entry.subjectToken,
    note: entry.note,
    createdAt: entry.createdAt,
  }));
  return { items, page, pageSize: ADMIN_PAGE_SIZE, total };
}
