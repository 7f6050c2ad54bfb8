/** auth: registration, login, logout, the current user, and password reset (decisions 001 and 006). */
import { loginSchema, registrationSchema, resetRequestSchema, restoreSchema } from '#shared/validation/account.ts';
import { invalidateSession } from '../auth/sessions.ts';
import { login, register, requestPasswordReset, restorePassword, toCurrentUser } from '../services/accounts/index.ts';
import { publicProcedure, router, userProcedure } from '../trpc.ts';

export const authRouter = router({
  current: publicProcedure.query(({ ctx }) => (ctx.user ? toCurrentUser(ctx.user) : null)),

  register: publicProcedure.input(registrationSchema).mutation(async ({ ctx, input }) => {
    const created = await register(ctx, input, ctx.ip);
    ctx.sessionCookie.set(created.token, created.expiresAt);
    return toCurrentUser(created.user);
  }),

  login: publicProcedure.input(loginSchema).mutation(async ({ ctx, input }) => {
    const opened = await login(ctx, input, ctx.ip);
    // A wrong password leaves the current session alone; a right one replaces it (a fresh session on login).
    if (ctx.session) invalidateSession(ctx.db, ctx.session.id);
    ctx.sessionCookie.set(opened.token, opened.expiresAt);
    return toCurrentUser(opened.user);
  }),

  logout: userProcedure.mutation(({ ctx }) => {
    if (ctx.session) invalidateSession(ctx.db, ctx.session.id);
    ctx.sessionCookie.clear();
    return { ok: true as const };
  }),

  requestReset: publicProcedure.input(resetRequestSchema).mutation(({ ctx, input }) => {
    requestPasswordReset(ctx, input, ctx.ip);
    return { ok: true as const };
  }),

  restore: publicProcedure.input(restoreSchema).mutation(async ({ ctx, input }) => {
    await restorePassword(ctx, input, ctx.ip);
    return { ok: true as const };
  }),
});
