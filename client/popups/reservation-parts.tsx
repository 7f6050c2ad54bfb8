/**
 * Parts shared by the reservation screens (the reserve, subscribe and edit-reserved-cell popups, the extend page):
 * the radio choice, the guest's prompt, the message under the choice, the dates and paths they show.
 */
import { EXTENSION_PERIOD } from '#shared/durations.ts';
import { useId, type ReactNode } from 'react';
import { Link, useLocation } from '#client/router/react.tsx';
import type { ReservedCell } from '#shared/api-types.ts';
import { loginPathFor, registrationPathFor } from '#client/app/return-path.ts';
import { formatDeadlineDate } from '#client/app/site-time.ts';
import { errorBodyOf } from '#client/forms/form-state.ts';
import { errorMessageFor } from '#client/locale/messages.ts';
import './reservations.css';
import { cellPath, extendPath } from '#shared/paths.ts';

export interface ChoiceOption<T extends string> {
  value: T;
  label: ReactNode;
  disabled?: boolean;
}

/** A question with its answers as radios; nothing is chosen at first (so submit starts disabled). */
export function ChoiceGroup<T extends string>({
  legend,
  options,
  value,
  onChange,
  disabled,
  testId,
}: {
  legend: ReactNode;
  options: readonly ChoiceOption<T>[];
  value: T | null;
  onChange: (value: T) => void;
  disabled?: boolean;
  testId?: string;
}) {
  const name = useId();
  return (
    <fieldset className="choice" disabled={disabled} data-testid={testId}>
      <legend className="choice__legend">{legend}</legend>
      <div className="choice__options">
        {options.map((option, index) => (
          <label key={option.value} className={option.disabled ? 'choice__option is-disabled' : 'choice__option'}>
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              disabled={option.disabled}
              onChange={() => onChange(option.value)}
              data-autofocus={index === 0 ? true : undefined}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The failure or success line under a choice: an alert for an error, a polite status otherwise. */
export function ChoiceMessage({ kind, children }: { kind: 'error' | 'success'; children: ReactNode }) {
  return (
    <p
      className={`form-message form-message--${kind} choice-message`}
      role={kind === 'error' ? 'alert' : 'status'}
      data-testid="choice-message"
    >
      {children}
    </p>
  );
}

/**
 * A guest's prompt: reserving and subscribing need an account (docs/product.md, Who may do what). Logging in or
 * registering comes back to this square: its link when it has one, else (a branch slot) the view as it stands.
 */
export function GuestPrompt({
  what,
  cellToken,
  onClose,
}: {
  what: string;
  cellToken: string | null;
  onClose: () => void;
}) {
  const location = useLocation();
  const back = cellToken ? cellPath(cellToken, 'tree') : `${location.pathname}${location.search}`;
  return (
    <div className="guest-prompt" data-testid="guest-prompt">
      <p className="popup__lead">
        Log in or create a free account to {what}. It takes a minute, and one account does it all.
      </p>
      <div className="popup__actions">
        <button type="button" className="button button--quiet" onClick={onClose}>
          Close
        </button>
        <Link className="button button--quiet" to={registrationPathFor(back)} onClick={onClose}>
          Register
        </Link>
        <Link className="button" to={loginPathFor(back)} onClick={onClose} data-autofocus>
          Log in
        </Link>
      </div>
    </div>
  );
}

/** The localized message for a failed call's error code (shared/errors.ts), else the screen's own fallback. */
export function reservationErrorText(error: unknown, fallback: string): string {
  return errorMessageFor(errorBodyOf(error)?.error) ?? fallback;
}

/** The extend page of a reservation: the reminder e-mails' link, and the holder's way there from the square. */
export function extendPathOf(cellToken: string, reminderToken: string): string {
  return extendPath(cellToken, reminderToken);
}

/** The viewer's held square when it is `cellToken` (or any, without one); null when nothing (known) is held. */
export function heldCellOf(state: ReservedCell | null | true | undefined, cellToken?: string): ReservedCell | null {
  if (typeof state !== 'object' || state === null) return null;
  return cellToken === undefined || state.token === cellToken ? state : null;
}

/**
 * The one-week extension offered beside a held square (the edit-reserved popup, the editor, the atelier) while it
 * may still be asked for; nothing once it has been used or cannot be.
 */
export function ExtendOffer({ cell, onFollow }: { cell: ReservedCell | null; onFollow?: () => void }) {
  if (!cell?.extensionAllowed) return null;
  return (
    <p className="extend-offer" data-testid="extend-offer">
      Need more time? You can extend once, by {EXTENSION_PERIOD}, until {formatDeadlineDate(cell.extendedUntil)}.{' '}
      <Link to={extendPathOf(cell.token, cell.reminderToken)} onClick={onFollow} data-testid="extend-link">
        EXTEND RESERVATION
      </Link>
    </p>
  );
}

/** The editor of a square (docs/product.md, Screens and routes). */
export function editPathOf(cellToken: string): string {
  return cellPath(cellToken, 'edit');
}
