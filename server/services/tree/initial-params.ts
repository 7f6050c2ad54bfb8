/** The initial parameters every page carries (docs/api.md, GET /api/initial-params). */
import type { InitialParams } from '#shared/api-types.ts';
import { MEDIA_URL_PREFIX } from '../../media-store.ts';
import type { ServiceContext } from '../context.ts';
import { getDefaultTree } from './tree.ts';

export async function initialParams(ctx: Pick<ServiceContext, 'db' | 'config'>): Promise<InitialParams> {
  return {
    treeToken: (await getDefaultTree(ctx.db))?.token ?? null,
    settings: {
      imagePath: MEDIA_URL_PREFIX,
      email: ctx.config.contactEmail,
      helpEmail: ctx.config.helpEmail,
      siteUrl: ctx.config.siteUrl,
      phone: ctx.config.contactPhone,
      timeZone: ctx.config.siteTimezone,
      liveTransport: ctx.config.liveTransport,
    },
  };
}
