/** The tRPC client (classic @trpc/react-query integration): every typed call the React client makes goes here. */
import { httpBatchLink } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import type { AppRouter } from '#server/root.ts';
import { TRPC_MAX_BATCH } from '#shared/constants.ts';
import { apiHeaders } from './initial-params.ts';

export const trpc = createTRPCReact<AppRouter>();

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      httpBatchLink({
        url: '/trpc',
        maxItems: TRPC_MAX_BATCH,
        headers: () => apiHeaders(),
        fetch: (url, options) => fetch(url, { ...options, credentials: 'same-origin' }),
      }),
    ],
  });
}
