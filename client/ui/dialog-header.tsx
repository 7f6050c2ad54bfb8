/**
 * A modal dialog's header (the .dialog look in client/styles): an optional eyebrow, the title its dialog is labelled
 * by, and the close button.
 */
import type { ReactNode } from 'react';

export function DialogHeader({
  titleId,
  title,
  eyebrow,
  onClose,
}: {
  titleId: string;
  title: ReactNode;
  eyebrow?: string;
  onClose: () => void;
}) {
  return (
    <header className="dialog__header">
      {eyebrow && <p className="eyebrow">{eyebrow}</p>}
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <button type="button" className="dialog__close" aria-label="Close" onClick={onClose}>
        <span aria-hidden="true">×</span>
      </button>
    </header>
  );
}
