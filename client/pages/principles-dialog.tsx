/**
 * The principles popup: The Ground's four principles in a modal dialog. Built on the native <dialog>, so focus is
 * trapped and Escape closes it; a click on the backdrop closes it too.
 */
import { useEffect, useId, useRef } from 'react';
import { DialogHeader } from '#client/ui/dialog-header.tsx';
import { THE_GROUND, THE_GROUND_INTRO } from './copy/principles.ts';

export function PrinciplesDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on the backdrop closes the dialog; Escape and its close button do for the keyboard
    <dialog
      ref={ref}
      className="dialog principles"
      aria-labelledby={titleId}
      data-testid="principles-dialog"
      onClose={onClose}
      onClick={(event) => {
        // The dialog element itself is only hit on its backdrop; its content sits in the inner box.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <div className="dialog__box">
        <DialogHeader titleId={titleId} eyebrow="our principles" title="the ground." onClose={onClose} />
        <p className="dialog__lead">{THE_GROUND_INTRO}</p>
        <ol className="principles__list">
          {THE_GROUND.map((principle, i) => (
            <li key={principle.name} className="principle" data-testid="principle">
              <span className={`principle__mark principle__mark--${i}`} aria-hidden="true" />
              <div>
                <h3 className="principle__name">{principle.name}</h3>
                <p className="principle__summary">
                  {principle.summary}
                  {principle.rule && <span className="principle__rule"> {principle.rule}.</span>}
                </p>
                <p className="principle__body">{principle.body}</p>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </dialog>
  );
}
