/** auth: registration, login, logout, the current user, and password reset (decisions 001 and 006). */
import { loginSchema, registrationSchema, resetRequestSchema, restoreSchema } from '#shared/validation/account.ts';
import { invalidateSession } from '../auth/sessions.ts';
import { login, register, requestPasswordReset, restorePassword, toCurrentUser } from '../services/accounts/index.ts';
import * as examples from './examples/auth.ts';
import { publicProcedure, router, userProcedure } from '../trpc.ts';

export const authRouter = router({
  current: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/user/current',
        who: 'signed-in',
        does: 'the signed-in user (401 for a guest)',
        shape: 'signedInUser',
        example: examples.current,
      },
    })
    .query(({ ctx }) => (ctx.user ? toCurrentUser(ctx.user, ctx.media.urlOf) : null)),

  register: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/register',
        who: 'everyone',
        does: 'creates an observer and signs them in',
        example: examples.register,
      },
    })
    .input(registrationSchema)
    .mutation(async ({ ctx, input }) => {
      const created = await register(ctx, input, ctx.ip);
      ctx.sessionCookie.set(created.token, created.expiresAt);
      return toCurrentUser(created.user, ctx.media.urlOf);
    }),

  login: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/login',
        who: 'everyone',
        does: 'logs in with `{username, password}`',
        example: examples.login,
      },
    })
    .input(loginSchema)
    .mutation(async ({ ctx, input }) => {
      const opened = await login(ctx, input, ctx.ip);
      // A wrong password leaves the current session alone; a right one replaces it (a fresh session on login).
      if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
      ctx.sessionCookie.set(opened.token, opened.expiresAt);
      return toCurrentUser(opened.user, ctx.media.urlOf);
    }),

  logout: userProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/logout',
        who: 'signed-in',
        does: 'ends this session',
        example: examples.logout,
      },
    })
    .mutation(async ({ ctx }) => {
      if (ctx.session) await invalidateSession(ctx.db, ctx.session.id);
      ctx.sessionCookie.clear();
      return { ok: true as const };
    }),

  requestReset: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/password/reset',
        who: 'everyone',
        does: 'mails a reset link (the same answer whether the address exists or not)',
        example: examples.requestReset,
      },
    })
    .input(resetRequestSchema)
    .mutation(async ({ ctx, input }) => {
      await requestPasswordReset(ctx, input, ctx.ip);
      return { ok: true as const };
    }),

  restore: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/password/restore/:token',
        who: 'everyone',
        does: 'sets a new password through the mailed link, ending every session',
        example: examples.restore,
      },
    })
    .input(restoreSchema)
    .mutation(async ({ ctx, input }) => {
      await restorePassword(ctx, input, ctx.ip);
      return { ok: true as const };
    }),
});
