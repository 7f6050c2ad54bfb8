/** misc: site-wide reads (initial parameters) and the contact form (spec §2, §7). */
import { contactSchema } from '#shared/validation/contact.ts';
import { sendContactMessage } from '../services/contact.ts';
import { initialParams } from '../services/initial-params.ts';
import { publicProcedure, router } from '../trpc.ts';

export const miscRouter = router({
  initialParams: publicProcedure.query(({ ctx }) => initialParams(ctx)),

  /** Anyone may write; a signed-in sender is remembered with the message. */
  contact: publicProcedure.input(contactSchema).mutation(({ ctx, input }) => {
    sendContactMessage(ctx, input, ctx.ip, ctx.user?.id ?? null);
    return { ok: true as const };
  }),
});
