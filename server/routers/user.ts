/** user: the account form, the held square, profiles (user-profile.ts), likes and follows (user-social.ts). */
import * as v from 'valibot';
import { ErrorCode } from '#shared/errors.ts';
import { accountSchema } from '#shared/validation/account.ts';
import { tokenSchema } from '#shared/validation/common.ts';
import { AppError } from '../errors.ts';
import { mayEditAccount } from '../permissions.ts';
import { updateAccount, toCurrentUser } from '../services/accounts/index.ts';
import { router, userProcedure } from '../trpc.ts';
import * as examples from './examples/user.ts';
import { userReservationProcedures } from './reservations.ts';
import { userProfileProcedures } from './user-profile.ts';
import { userSocialProcedures } from './user-social.ts';

export const userRouter = router({
  updateAccount: userProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/user/:token/account',
        who: 'owner',
        does: 'names, e-mail, show_email and password of the account; a new e-mail or password also needs `current_password`',
        example: examples.updateAccount,
      },
    })
    .input(v.intersect([v.object({ token: tokenSchema }), accountSchema]))
    .mutation(async ({ ctx, input }) => {
      const { user } = ctx;
      if (!mayEditAccount(user, input.token))
        throw new AppError(ErrorCode.Forbidden, 'You can only change your own account.');
      const updated = await updateAccount(ctx, user, input, ctx.ip);
      if (updated.session) ctx.sessionCookie.set(updated.session.token, updated.session.expiresAt);
      return toCurrentUser(updated.user, ctx.media.urlOf);
    }),
  /** reservedCell: the viewer's held square. */
  ...userReservationProcedures,
  ...userProfileProcedures,
  ...userSocialProcedures,
});
