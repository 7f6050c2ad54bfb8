/** misc: site-wide reads (initial parameters). The contact form arrives with the public pages. */
import { initialParams } from '../services/initial-params.ts';
import { publicProcedure, router } from '../trpc.ts';

export const miscRouter = router({
  initialParams: publicProcedure.query(({ ctx }) => initialParams(ctx)),
});
