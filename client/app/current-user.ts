/** The signed-in user (spec §4, Session): loaded once at start; null means a guest. */
import { Role } from '#shared/domain.ts';
import type { CurrentUser } from '#shared/api-types.ts';
import { trpc } from '#client/api/trpc.ts';

export function useCurrentUser(): { user: CurrentUser | null; isLoading: boolean } {
  const query = trpc.auth.current.useQuery(undefined, { staleTime: 5 * 60_000, retry: false, refetchOnWindowFocus: false });
  // A failed fetch leaves the visitor a guest (spec §4).
  return { user: query.data ?? null, isLoading: query.isPending && query.fetchStatus !== 'idle' };
}

export function isAdmin(user: CurrentUser | null): boolean {
  return user?.role === Role.Admin;
}
