/** user: the account form, the held square, profiles (user-profile.ts), likes and follows (user-social.ts). */
import * as v from 'valibot';
import { ErrorCode } from '#shared/errors.ts';
import { accountSchema } from '#shared/validation/account.ts';
import { tokenSchema } from '#shared/validation/common.ts';
import { AppError } from '../errors.ts';
import { mayEditAccount } from '../permissions.ts';
import { updateAccount, toCurrentUser } from '../services/accounts/index.ts';
import { router, userProcedure } from '../trpc.ts';
import { userReservationProcedures } from './reservations.ts';
import { userProfileProcedures } from './user-profile.ts';
import { userSocialProcedures } from './user-social.ts';

export const userRouter = router({
  updateAccount: userProcedure
    .input(v.intersect([v.object({ token: tokenSchema }), accountSchema]))
    .mutation(async ({ ctx, input }) => {
      const user = ctx.user!;
      if (!mayEditAccount(user, input.token))
        throw new AppError(ErrorCode.Forbidden, 'You can only change your own account.');
      const updated = await updateAccount(ctx, user, input, ctx.ip);
      if (updated.session) ctx.sessionCookie.set(updated.session.token, updated.session.expiresAt);
      return toCurrentUser(updated.user);
    }),
  /** reservedCell: the viewer's held square (GET /api/user/{token}/reserve). */
  ...userReservationProcedures,
  ...userProfileProcedures,
  ...userSocialProcedures,
});
