/** misc: site-wide reads (initial parameters, the ZIP lookup) and the contact form (docs/api.md). */
import { contactSchema } from '#shared/validation/contact.ts';
import { zipSchema } from '#shared/validation/profile.ts';
import { sendContactMessage } from '../services/mail/index.ts';
import { initialParams } from '../services/tree/index.ts';
import { lookupZip } from '../services/accounts/index.ts';
import * as examples from './examples/misc.ts';
import { publicProcedure, router } from '../trpc.ts';

export const miscRouter = router({
  initialParams: publicProcedure.query(({ ctx }) => initialParams(ctx)),

  /** Anyone may write; a signed-in sender is remembered with the message. */
  contact: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/misc/contact',
        who: 'everyone',
        does: 'the contact form (stored and mailed), rate-limited',
        example: examples.contact,
      },
    })
    .input(contactSchema)
    .mutation(async ({ ctx, input }) => {
      await sendContactMessage(ctx, input, ctx.ip, ctx.user?.id ?? null);
      return { ok: true as const };
    }),

  /** A US ZIP's city and state, or null when unknown (the profile form fills them in). Rate-limited like search. */
  zip: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/misc/zip/:zip',
        who: 'everyone',
        does: '`{city, state_short}` of a US ZIP (null when unknown), from offline data; it stands in for an external lookup',
        shape: 'zipPlace',
        example: examples.zip,
      },
    })
    .input(zipSchema)
    .query(({ ctx, input }) => lookupZip(ctx, input.zip, ctx.ip)),
});
