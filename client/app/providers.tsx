/** React Query and tRPC around the whole app: one query client, one tRPC client; and the user's reserved square. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { createTrpcClient, trpc } from '#client/api/trpc.ts';
import { ReservedCellProvider } from './reserved-cell.ts';

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 } } }),
  );
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <ReservedCellProvider>{children}</ReservedCellProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}
