/** The frame every popup shares: a modal dialog with its title and a close button. */
import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { CloseIcon } from '#client/tree/tree-icons.tsx';
import './popups.css';

export interface PopupProps {
  title: string;
  /** A small line above the title saying what kind of popup this is. */
  eyebrow?: string;
  onClose: () => void;
  children: ReactNode;
  /** Wider frame, for tables. */
  wide?: boolean;
  testId?: string;
}

/**
 * Built on the native <dialog> opened with showModal(), so the page behind is inert and focus stays inside; Escape,
 * the close button and a click on the backdrop all close it through `onClose`, so the owner's state decides. Focus
 * moves in on open (to the element marked data-autofocus, else the first control) and goes back where it was on close.
 */
export function Popup({ title, eyebrow, onClose, children, wide, testId }: PopupProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const latestClose = useRef(onClose);
  latestClose.current = onClose;

  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (previous?.isConnected) previous.focus({ preventScroll: true });
    };
  }, []);

  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on the backdrop closes the dialog; Escape and its close button do for the keyboard
    <dialog
      ref={ref}
      className={wide ? 'popup popup--wide' : 'popup'}
      aria-modal="true"
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(event) => {
        // Escape: the owner closes it (and so unmounts it), rather than the browser behind React's back.
        event.preventDefault();
        latestClose.current();
      }}
      onClick={(event) => {
        // The dialog element itself is only hit on its backdrop; the content sits in the inner box.
        if (event.target === event.currentTarget) latestClose.current();
      }}
    >
      <div className="popup__box">
        <header className="popup__header">
          {eyebrow && <p className="eyebrow popup__eyebrow">{eyebrow}</p>}
          <h2 id={titleId} className="popup__title">
            {title}
          </h2>
          <button
            type="button"
            className="close-button popup__close"
            aria-label="Close"
            onClick={() => latestClose.current()}
          >
            <CloseIcon />
          </button>
        </header>
        <div className="popup__body">{children}</div>
      </div>
    </dialog>
  );
}
