/**
 * The signed-in user's reserved square, fetched whenever the user becomes a (different) member and cleared for a
 * guest, and the state of the edit-reserved-cell prompt that asks about it.
 */
import { createContext, createElement, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { ArtStatus } from '#shared/domain.ts';
import type { ReservedCell } from '#shared/api-types.ts';
import { trpc } from '#client/api/trpc.ts';
import { useCurrentUser } from './current-user.ts';

/**
 * null: nothing held (or a guest); true: the fetch failed ("something is held, we cannot say what", so nothing asks
 * about it); undefined: not known yet.
 */
export type ReservedCellState = ReservedCell | null | true | undefined;

export interface ReservedCellContextValue {
  reservedCell: ReservedCellState;
  /**
   * The square the edit-reserved-cell popup should ask about now, or null: a held draft, asked about once per browser
   * session (all its tabs); answering it, reserving a square, or closing the extend page clears it for the rest of it.
   */
  promptCell: ReservedCell | null;
  /** After a reserve: the new square is the user's, and since they just chose it nobody asks about it again. */
  setReservedCell: (cell: ReservedCell | null) => void;
  /** Fetches it again (after an extension, say). */
  refresh: () => Promise<void>;
  /** Clears the prompt for the rest of the session (either answer clears it; so does the extend page). */
  clearPrompt: () => void;
}

const ReservedCellContext = createContext<ReservedCellContextValue | null>(null);

export function ReservedCellProvider({ children }: { children: ReactNode }) {
  const value = useReservedCellState();
  return createElement(ReservedCellContext.Provider, { value }, children);
}

export function useReservedCell(): ReservedCellContextValue {
  const value = useContext(ReservedCellContext);
  if (!value) throw new Error('useReservedCell needs a ReservedCellProvider above it.');
  return value;
}

function useReservedCellState(): ReservedCellContextValue {
  const { user } = useCurrentUser();
  const utils = trpc.useUtils();
  const userToken = user?.token ?? null;
  // Keyed by the user, so logging in as someone else fetches theirs (the server checks the token is the viewer's).
  const input = useMemo(() => ({ token: userToken ?? undefined }), [userToken]);
  const query = trpc.user.reservedCell.useQuery(input, {
    enabled: userToken !== null,
    staleTime: 5 * 60_000,
    retry: false,
    refetchOnWindowFocus: false,
  });
  // Whether this user's prompt is done with in this browser session (answered, a square reserved just now, or the
  // extend page closed): kept in a session cookie, so a reload or a new tab does not ask again but a new visit does.
  const [clearedFor, setClearedFor] = useState<string | null>(readCleared);
  const cleared = userToken !== null && clearedFor === userToken;

  let reservedCell: ReservedCellState;
  if (userToken === null) reservedCell = null;
  else if (query.isError) reservedCell = true;
  else reservedCell = query.data;

  const promptCell =
    !cleared && typeof reservedCell === 'object' && reservedCell !== null && reservedCell.art.status === ArtStatus.Draft
      ? reservedCell
      : null;

  const clearPrompt = useCallback(() => {
    if (userToken === null) return;
    writeCleared(userToken);
    setClearedFor(userToken);
  }, [userToken]);
  const setReservedCell = useCallback(
    (cell: ReservedCell | null) => {
      // The user has just chosen this square: nobody needs to remind them of it.
      if (cell) clearPrompt();
      utils.user.reservedCell.setData(input, cell);
    },
    [clearPrompt, input, utils],
  );
  const refresh = useCallback(() => utils.user.reservedCell.invalidate(), [utils]);

  return useMemo(
    () => ({ reservedCell, promptCell, setReservedCell, refresh, clearPrompt }),
    [reservedCell, promptCell, setReservedCell, refresh, clearPrompt],
  );
}

/**
 * The user whose prompt is done with, in a cookie without an expiry: every tab of the browser reads it (a new tab does
 * not ask again), and the browser forgets it when it closes (the next visit asks once more).
 */
const CLEARED_COOKIE = 'gallery-tree-reserved-prompt';

/**
 * Cookies can be refused: then the prompt is simply cleared for this page only. Rendered without a page (in Node,
 * a component test), nothing is cleared.
 */
function readCleared(): string | null {
  if (typeof document === 'undefined') return null;
  const entry = document.cookie.split('; ').find((pair) => pair.startsWith(`${CLEARED_COOKIE}=`));
  if (!entry) return null;
  try {
    return decodeURIComponent(entry.slice(CLEARED_COOKIE.length + 1));
  } catch {
    return null;
  }
}

function writeCleared(userToken: string): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${CLEARED_COOKIE}=${encodeURIComponent(userToken)}; Path=/; SameSite=Lax${secure}`;
}
