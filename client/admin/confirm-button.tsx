/**
 * A button for an action that cannot be undone with one click (release a reservation, disable an account): the
 * first press asks, in place, "are you sure?" with the consequence spelled out; only the second press acts. Focus
 * moves to the question's confirm button and back to the first button on cancel.
 */
import { useEffect, useRef, useState } from 'react';

interface ConfirmButtonProps {
  label: string;
  /** The question, with what will happen: "Release row 4, column 2? Its holder loses the square." */
  question: string;
  confirmLabel: string;
  onConfirm: () => void;
  busy?: boolean;
  disabled?: boolean;
  danger?: boolean;
}

export function ConfirmButton({
  label,
  question,
  confirmLabel,
  onConfirm,
  busy = false,
  disabled = false,
  danger = false,
}: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    if (asking) confirmRef.current?.focus();
    else if (wasAsking.current) openRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <button
        ref={openRef}
        type="button"
        className={danger ? 'button button--small button--danger' : 'button button--small button--quiet'}
        disabled={disabled || busy}
        onClick={() => setAsking(true)}
      >
        {busy ? 'Please wait…' : label}
      </button>
    );
  }
  return (
    <span className="admin-confirm" role="group" aria-label={question}>
      <span className="admin-confirm__question">{question}</span>
      <button
        ref={confirmRef}
        type="button"
        className={danger ? 'button button--small button--danger' : 'button button--small'}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button button--small button--quiet" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
