/**
 * The edit-reserved-cell popup: the app layout shows it on its own while the user holds a square whose piece is still
 * a draft, asking whether to go on with it (docs/product.md, Reservations).
 */
import { useSyncExternalStore } from 'react';
import { useLocation, useNavigate } from '#client/router/react.tsx';
import { isDeepLink } from '#shared/paths.ts';
import { useReservedCell } from '#client/app/reserved-cell.ts';
import { Popup } from './popup.tsx';
import { formatDeadlineDate } from '#client/app/site-time.ts';
import { editPathOf, ExtendOffer } from './reservation-parts.tsx';

/**
 * Not over a link to something in particular (a square, a piece, someone's profile: the visitor came to see that, and
 * the question waits for their next page), nor on the extend page or in that square's editor (the question would be
 * moot), nor while the preloader plays. Yes opens the editor; either answer clears the prompt for the rest of the
 * browser session and closes.
 */
export function EditReservedCellPopup() {
  const { promptCell, clearPrompt } = useReservedCell();
  const navigate = useNavigate();
  const preloaderPlaying = usePreloaderPlaying();
  const location = useLocation();

  // The extend page and the square's editor are such links too.
  if (!promptCell || preloaderPlaying || isDeepLink(location.pathname, location.search)) return null;

  const answer = (yes: boolean) => {
    clearPrompt();
    if (yes) navigate(editPathOf(promptCell.token));
  };

  return (
    <Popup
      title="your square."
      eyebrow="reserved for you"
      onClose={() => answer(false)}
      testId="edit-reserved-cell-popup"
    >
      <p className="popup__lead">You have a reserved square waiting for your piece. Continue working on it?</p>
      <p className="reserve-note">
        Row {promptCell.row}, column {promptCell.column}: held for you until {formatDeadlineDate(promptCell.expiresAt)}.
      </p>
      <ExtendOffer cell={promptCell} onFollow={clearPrompt} />
      <div className="popup__actions">
        <button type="button" className="button button--quiet" onClick={() => answer(false)}>
          No, later
        </button>
        <button type="button" className="button" onClick={() => answer(true)} data-autofocus>
          Yes, continue
        </button>
      </div>
    </Popup>
  );
}

/** Whether the preloader's mark is still playing (<html data-preloader="playing">): the popup waits for it. */
function usePreloaderPlaying(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const observer = new MutationObserver(onChange);
      observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-preloader'] });
      return () => observer.disconnect();
    },
    () => document.documentElement.dataset.preloader === 'playing',
    () => false,
  );
}
