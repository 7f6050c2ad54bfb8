/**
 * The edit-reserved-cell popup (spec §2 Popups): shown by the app layout on its own when the user holds a reserved
 * square whose piece is still a draft (art status 0) and the page is not the extend-reservation page (nor that
 * square's editor, where the question would be moot). Yes opens the editor; either answer clears the prompt for the
 * rest of the session and closes.
 */
import { useSyncExternalStore } from 'react';
import { useMatch, useNavigate } from 'react-router';
import { useReservedCell } from '#client/app/reserved-cell.ts';
import { Popup } from './popup.tsx';
import { editPathOf, ExtendOffer, formatShortDate } from './reservation-parts.tsx';

export function EditReservedCellPopup() {
  const { promptCell, clearPrompt } = useReservedCell();
  const onExtendPage = useMatch('/observe/cell/:cellToken/reserve/:reminderToken/extend') !== null;
  const editing = useMatch('/observe/cell/:cellToken/edit');
  const navigate = useNavigate();
  const preloaderPlaying = usePreloaderPlaying();

  if (!promptCell || preloaderPlaying || onExtendPage || editing?.params.cellToken === promptCell.token) return null;

  const answer = (yes: boolean) => {
    clearPrompt();
    if (yes) void navigate(editPathOf(promptCell.token));
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
        Row {promptCell.row}, column {promptCell.column}: held for you until {formatShortDate(promptCell.expiresAt)}.
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
