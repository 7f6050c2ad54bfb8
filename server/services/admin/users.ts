/**
 * Users for staff (docs/product.md, Roles): search by name or e-mail, change a role, disable an account (which ends all
 * its sessions; a disabled account cannot log in) and enable it again. Staff never change or disable themselves.
 */
import { and, asc, count, eq, or, sql } from 'drizzle-orm';
import { sessions, users } from '#drizzle/tables.ts';
import { ADMIN_PAGE_SIZE, StaffAction, type AdminPage, type AdminUser } from '#shared/admin-api.ts';
import { Role } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import { write, type Queryable } from '../../db.ts';
import { AppError } from '../../errors.ts';
import type { Viewer } from '../../permissions.ts';
import type { ServiceContext } from '../context.ts';
import { offsetOf, recordStaffAction, requireStaff, type Staff } from '../staff/index.ts';

export interface UsersQuery {
  search: string;
  role?: Role | undefined;
  page: number;
}

type UserRow = typeof users.$inferSelect;

const answerOf = (user: UserRow): AdminUser => ({
  token: user.token,
  firstname: user.firstname,
  lastname: user.lastname,
  email: user.email,
  role: user.role,
  disabled: user.disabledAt !== null,
  createdAt: user.createdAt,
});

/** LIKE pattern for "contains", with the user's % and _ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** admin.users: the matching accounts by name, ADMIN_PAGE_SIZE a page. `search` matches e-mail, first, last or full name. */
export async function listUsers(ctx: ServiceContext, query: UsersQuery): Promise<AdminPage<AdminUser>> {
  const pattern = containing(query.search.toLowerCase());
  const bySearch = query.search
    ? or(
        // lower() on both sides: SQLite's LIKE ignores ASCII case, PostgreSQL's does not.
        sql`lower(${users.email}) like ${pattern} escape '\\'`,
        sql`lower(${users.firstname} || ' ' || ${users.lastname}) like ${pattern} escape '\\'`,
      )
    : undefined;
  const filter = and(bySearch, query.role === undefined ? undefined : eq(users.role, query.role));
  const total = (await ctx.db.select({ n: count() }).from(users).where(filter))[0]?.n ?? 0;
  const items = (
    await ctx.db
      .select()
      .from(users)
      .where(filter)
      .orderBy(asc(sql`lower(${users.lastname})`), asc(sql`lower(${users.firstname})`), asc(users.id))
      .limit(ADMIN_PAGE_SIZE)
      .offset(offsetOf(query.page))
  ).map(answerOf);
  return { items, page: query.page, pageSize: ADMIN_PAGE_SIZE, total };
}

/** The other account a token names, or not_found; one's own account is refused (own_account). */
async function otherUser(tx: Queryable, staff: Staff, userToken: string): Promise<UserRow> {
  const user = (await tx.select().from(users).where(eq(users.token, userToken)))[0];
  if (!user) throw new AppError(ErrorCode.NotFound, 'No user has this token.');
  if (user.id === staff.id)
    throw new AppError(ErrorCode.OwnAccount, 'Staff cannot change the role of, or disable, their own account.');
  return user;
}

/** What a change sets on the account and how the staff log names it. */
type Plan = { set: Partial<UserRow>; action: StaffAction; note?: string };

function changeUser(
  ctx: ServiceContext,
  viewer: Viewer,
  userToken: string,
  change: (tx: Queryable, user: UserRow, now: number) => Plan | null | Promise<Plan | null>,
): Promise<AdminUser> {
  const staff = requireStaff(viewer);
  const now = ctx.clock.now();
  return write(ctx.db, async (tx) => {
    const user = await otherUser(tx, staff, userToken);
    const plan = await change(tx, user, now);
    if (!plan) return answerOf(user);
    const updated = (
      await tx
        .update(users)
        .set({ ...plan.set, updatedAt: now })
        .where(eq(users.id, user.id))
        .returning()
    )[0]!;
    await recordStaffAction(tx, staff, now, {
      action: plan.action,
      subjectType: 'user',
      subjectToken: user.token,
      note: plan.note ?? null,
    });
    return answerOf(updated);
  });
}

const ROLE_NAMES: Record<number, string> = {
  [Role.Observer]: 'observer',
  [Role.Artist]: 'artist',
  [Role.Admin]: 'admin',
};
const roleName = (role: number) => ROLE_NAMES[role] ?? String(role);

/** admin.setRole: setting the role it already has changes nothing and logs nothing. */
export async function setRole(ctx: ServiceContext, viewer: Viewer, userToken: string, role: Role): Promise<AdminUser> {
  return changeUser(ctx, viewer, userToken, (_tx, user) =>
    user.role === role
      ? null
      : { set: { role }, action: StaffAction.SetRole, note: `${roleName(user.role)} -> ${roleName(role)}` },
  );
}

/** admin.disableUser: the account cannot log in any more and every session it has ends now. */
export async function disableUser(ctx: ServiceContext, viewer: Viewer, userToken: string): Promise<AdminUser> {
  return changeUser(ctx, viewer, userToken, async (tx, user, now) => {
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    return user.disabledAt === null ? { set: { disabledAt: now }, action: StaffAction.DisableUser } : null;
  });
}

/** admin.enableUser: the account may log in again (its old sessions stay ended). */
export async function enableUser(ctx: ServiceContext, viewer: Viewer, userToken: string): Promise<AdminUser> {
  return changeUser(ctx, viewer, userToken, (_tx, user) =>
    user.disabledAt === null ? null : { set: { disabledAt: null }, action: StaffAction.EnableUser },
  );
}
