/** The initial parameters every page carries (docs/api.md, GET /api/initial-params). */
import type { InitialParams } from '#shared/api-types.ts';
import type { ServiceContext } from '../context.ts';
import { getDefaultTree } from './tree.ts';

export async function initialParams(ctx: Pick<ServiceContext, 'db' | 'config' | 'media'>): Promise<InitialParams> {
  return {
    treeToken: (await getDefaultTree(ctx.db))?.token ?? null,
    settings: {
      // What every picture address starts with: /media/, or the public address of the store or its CDN.
      imagePath: ctx.media.urlBase,
      email: ctx.config.contactEmail,
      helpEmail: ctx.config.helpEmail,
      siteUrl: ctx.config.siteUrl,
      phone: ctx.config.contactPhone,
      timeZone: ctx.config.siteTimezone,
      liveTransport: ctx.config.liveTransport,
    },
  };
}
