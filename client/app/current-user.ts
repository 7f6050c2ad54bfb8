/**
 * The signed-in user: loaded once at start; null means a guest. Logging in, registering and
 * saving the account reload it; logging out empties it, and the route guards then send the visitor to welcome.
 */
import { useCallback } from 'react';
import { Role } from '#shared/domain.ts';
import { ErrorCode } from '#shared/errors.ts';
import type { CurrentUser } from '#shared/api-types.ts';
import { trpc } from '#client/api/trpc.ts';
import { errorBodyOf } from '#client/forms/form-state.ts';

export function useCurrentUser(): { user: CurrentUser | null; isLoading: boolean } {
  const query = trpc.auth.current.useQuery(undefined, {
    staleTime: 5 * 60_000,
    retry: false,
    refetchOnWindowFocus: false,
  });
  // A failed fetch leaves the visitor a guest.
  return { user: query.data ?? null, isLoading: query.isPending && query.fetchStatus !== 'idle' };
}

export function isAdmin(user: CurrentUser | null): boolean {
  return user?.role === Role.Admin;
}

/** An observer has not shared a piece yet; manage profile shows them fewer tabs (docs/product.md, Who may do what). */
export function isObserver(user: CurrentUser | null): boolean {
  return user?.role === Role.Observer;
}

/**
 * Reloads the current user after the session changed (login, registration, account saved), together with every
 * other query, since what they answer may depend on who asks. Resolves once the active ones have answered.
 */
export function useReloadCurrentUser(): () => Promise<void> {
  const utils = trpc.useUtils();
  return useCallback(() => utils.invalidate(), [utils]);
}

/**
 * Logs out: ends the session on the server, then forgets the user here and refreshes every query. The layout stays
 * mounted (no loading flash); the guards send the visitor to welcome once the user is empty (decision 007). A session
 * the server had already ended counts as logged out; any other failure is rethrown with the user left as is.
 */
export function useLogout(): { logout: () => Promise<void>; isPending: boolean } {
  const utils = trpc.useUtils();
  const mutation = trpc.auth.logout.useMutation();
  const { mutateAsync } = mutation;
  const logout = useCallback(async () => {
    try {
      await mutateAsync();
    } catch (error) {
      if (errorBodyOf(error)?.error !== ErrorCode.Unauthenticated) {
        await utils.auth.current.invalidate();
        throw error;
      }
    }
    await utils.auth.current.cancel();
    utils.auth.current.setData(undefined, null);
    await utils.invalidate();
  }, [mutateAsync, utils]);
  return { logout, isPending: mutation.isPending };
}
