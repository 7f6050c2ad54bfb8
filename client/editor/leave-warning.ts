/**
 * Nothing in the art editor is kept until SUBMIT, so leaving it with changes asks first: closing or reloading the
 * tab gets the browser's own question, and a move inside the app (the close button, a header link, Back) gets a
 * confirmation that names what would be lost. A new version of the site waits for it too.
 */
import { useEffect } from 'react';
import { useLeaveGuard } from '#client/router/react.tsx';
import type { LeaveGuard } from '#client/router/router.ts';
import { useUnsavedInput } from '#client/app/client-updates.ts';

export const LEAVE_EDITOR_QUESTION = 'Leave the editor? What you entered here is not saved until you submit it.';

export function useLeaveWarning(active: boolean): void {
  // Nor does a waiting update reload the page meanwhile (client/app/client-updates.ts).
  useUnsavedInput(active);
  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);

  useLeaveGuard(active ? askBeforeLeaving : null);
}

/** A move to another page asks first; a move within the editor's address (its query or fragment) does not. */
const askBeforeLeaving: LeaveGuard = (from, to) =>
  from.pathname === to.pathname || window.confirm(LEAVE_EDITOR_QUESTION);
