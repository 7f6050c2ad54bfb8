/** misc: site-wide reads (initial parameters, the ZIP lookup) and the contact form (docs/api.md). */
import { contactSchema } from '#shared/validation/contact.ts';
import { zipSchema } from '#shared/validation/profile.ts';
import { sendContactMessage } from '../services/mail/index.ts';
import { initialParams } from '../services/tree/index.ts';
import { lookupZip } from '../services/accounts/index.ts';
import { publicProcedure, router } from '../trpc.ts';

export const miscRouter = router({
  initialParams: publicProcedure.query(({ ctx }) => initialParams(ctx)),

  /** Anyone may write; a signed-in sender is remembered with the message. */
  contact: publicProcedure.input(contactSchema).mutation(({ ctx, input }) => {
    sendContactMessage(ctx, input, ctx.ip, ctx.user?.id ?? null);
    return { ok: true as const };
  }),

  /** A US ZIP's city and state, or null when unknown (the profile form fills them in). Rate-limited like search. */
  zip: publicProcedure.input(zipSchema).query(({ ctx, input }) => lookupZip(ctx, input.zip, ctx.ip)),
});
