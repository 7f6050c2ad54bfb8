/** auth: who is signed in. Registration, login and password reset arrive with the accounts work. */
import { toCurrentUser } from '../services/users.ts';
import { publicProcedure, router } from '../trpc.ts';

export const authRouter = router({
  current: publicProcedure.query(({ ctx }) => (ctx.user ? toCurrentUser(ctx.user) : null)),
});
