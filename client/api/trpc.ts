/** The tRPC client (classic @trpc/react-query integration): every typed call the React client makes goes here. */
import { httpBatchLink } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import type { AppRouter } from '#server/root.ts';
import { TRPC_MAX_BATCH } from '#shared/constants.ts';
import { CLIENT_BUILD_HEADER, noteServerBuild } from '#client/app/client-updates.ts';
import { apiHeaders } from './initial-params.ts';

export const trpc = createTRPCReact<AppRouter>();

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      httpBatchLink({
        url: '/trpc',
        maxItems: TRPC_MAX_BATCH,
        headers: () => apiHeaders(),
        // Each answer names the client build the server hands out now (client/app/client-updates.ts).
        fetch: async (url, options) => {
          const response = await fetch(url, { ...options, credentials: 'same-origin' });
          noteServerBuild(response.headers.get(CLIENT_BUILD_HEADER));
          return response;
        },
      }),
    ],
  });
}
