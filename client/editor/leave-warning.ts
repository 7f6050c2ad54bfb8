/**
 * Nothing in the art editor is kept until SUBMIT, so leaving it with changes asks first: closing or reloading the
 * tab gets the browser's own question, and a move inside the app (the close button, a header link, Back) gets a
 * confirmation that names what would be lost. A new version of the site waits for it too.
 */
import { useEffect } from 'react';
import { useBlocker } from 'react-router';
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

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => active && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(LEAVE_EDITOR_QUESTION)) blocker.proceed();
    else blocker.reset();
  }, [blocker]);
}
