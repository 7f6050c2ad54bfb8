/**
 * The dashboard's providers and routes. Each section has its own address under /admin/dashboard (the server serves
 * the page for all of them), so the browser's back button and a shared link both work.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { RouterView } from '#client/router/react.tsx';
import { createBrowserRouter } from '#client/router/router.ts';
import { createTrpcClient, trpc } from '#client/api/trpc.ts';
import { AdminLayout } from './admin-layout.tsx';
import { ADMIN_BASE } from './sections.ts';
import { LogTab } from './tabs/log-tab.tsx';
import { MessagesTab } from './tabs/messages-tab.tsx';
import { NotFoundTab } from './tabs/not-found-tab.tsx';
import { OverviewTab } from './tabs/overview-tab.tsx';
import { RemovalsTab } from './tabs/removals-tab.tsx';
import { ReservationsTab } from './tabs/reservations-tab.tsx';
import { ReviewItemPage } from './tabs/review-item-page.tsx';
import { ReviewQueueTab } from './tabs/review-queue-tab.tsx';
import { UsersTab } from './tabs/users-tab.tsx';

function createDashboardRouter() {
  return createBrowserRouter(
    [
      { path: '/', element: <OverviewTab /> },
      { path: '/review', element: <ReviewQueueTab /> },
      { path: '/review/:artToken', element: <ReviewItemPage /> },
      { path: '/removals', element: <RemovalsTab /> },
      { path: '/messages', element: <MessagesTab /> },
      { path: '/users', element: <UsersTab /> },
      { path: '/reservations', element: <ReservationsTab /> },
      { path: '/log', element: <LogTab /> },
      { path: '*', element: <NotFoundTab /> },
    ],
    { base: ADMIN_BASE },
  );
}

/** One query client and one tRPC client, as in the app; staff coming back to the tab see fresh lists. */
function AdminProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(
    () => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: true, retry: 1 } } }),
  );
  const [trpcClient] = useState(createTrpcClient);
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}

export function AdminApp() {
  const [router] = useState(createDashboardRouter);
  return (
    <AdminProviders>
      <RouterView router={router} layout={<AdminLayout />} />
    </AdminProviders>
  );
}
