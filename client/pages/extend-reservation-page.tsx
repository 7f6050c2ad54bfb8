/**
 * Extend reservation ('extend reserve.'): Yes gives a held square its one extra week, or the page says why it
 * cannot, and until when the square is held (docs/product.md, Reservations; decision 027). No, or closing, returns to
 * the tree centred on that square and clears the reserved-cell prompt.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from '#client/router/react.tsx';
import type { ReservationDetails } from '#shared/api-types.ts';
import { EXTENSION_DAYS } from '#shared/constants.ts';
import { EXTENSION_PERIOD } from '#shared/durations.ts';
import { cellPath } from '#shared/paths.ts';
import { trpc } from '#client/api/trpc.ts';
import { usePageTitle } from '#client/app/page-title.ts';
import { useReservedCell } from '#client/app/reserved-cell.ts';
import { formatDeadlineDate } from '#client/app/site-time.ts';
import { errorBodyOf } from '#client/forms/form-state.ts';
import { errorMessageFor, messages } from '#client/locale/messages.ts';
import { ChoiceGroup, ChoiceMessage, reservationErrorText } from '#client/popups/reservation-parts.tsx';
import { CloseIcon } from '#client/tree/tree-icons.tsx';

type YesNo = 'yes' | 'no';

export function ExtendReservationPage() {
  usePageTitle('extend reserve.');
  const { cellToken = '', reminderToken = '' } = useParams();
  const navigate = useNavigate();
  const { clearPrompt, refresh } = useReservedCell();
  const input = { cellToken, reminderToken };
  const reservation = trpc.cell.reservation.useQuery(input, {
    retry: false,
    refetchOnWindowFocus: false,
    staleTime: Infinity,
  });
  const extend = trpc.cell.extendReservation.useMutation();
  const [choice, setChoice] = useState<YesNo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [extendedUntil, setExtendedUntil] = useState<number | null>(null);

  const close = () => {
    clearPrompt();
    navigate(cellToken ? cellPath(cellToken, 'tree') : '/observe');
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (choice === null || extend.isPending) return;
    if (choice === 'no') return close();
    setError(null);
    try {
      const answer = await extend.mutateAsync(input);
      setExtendedUntil(answer.expiresAt);
      void refresh();
    } catch (failure) {
      setError(reservationErrorText(failure, messages.cellExtendReserveError));
    }
  };

  let body;
  if (reservation.isPending) {
    body = (
      <p className="extend__status" aria-busy="true">
        Loading...
      </p>
    );
  } else if (extendedUntil !== null) {
    body = (
      <div data-testid="extend-success">
        <ChoiceMessage kind="success">
          Your reservation has been extended until midnight on {formatDeadlineDate(extendedUntil)}, after which the
          square is released to the community.
        </ChoiceMessage>
        <div className="extend__actions">
          <button type="button" className="button" onClick={close}>
            Back to the tree
          </button>
        </div>
      </div>
    );
  } else if (reservation.isError || !reservation.data.extensionAllowed) {
    // Why, from the reservation's own facts; a link that did not load gets its error code's message.
    const text = reservation.isError
      ? (errorMessageFor(errorBodyOf(reservation.error)?.error) ?? messages.cellExtendReserveError)
      : extensionRefusalText(reservation.data);
    body = (
      <div data-testid="extend-not-allowed">
        <ChoiceMessage kind="error">{text}</ChoiceMessage>
        <div className="extend__actions">
          <button type="button" className="button" onClick={close}>
            Back to the tree
          </button>
        </div>
      </div>
    );
  } else {
    body = (
      <form className="extend__form" onSubmit={(event) => void onSubmit(event)} noValidate data-testid="extend-form">
        <ChoiceGroup
          legend="Would you like to extend reservation of this square?"
          options={[
            { value: 'yes', label: 'Yes' },
            { value: 'no', label: 'No' },
          ]}
          value={choice}
          onChange={(value) => {
            setChoice(value);
            setError(null);
          }}
          disabled={extend.isPending}
        />
        {error && <ChoiceMessage kind="error">{error}</ChoiceMessage>}
        <p className="extend__note">
          You can extend once, by {EXTENSION_PERIOD}: the new deadline is midnight {EXTENSION_DAYS} days after the
          current one, {formatDeadlineDate(reservation.data.extendedUntil)}.
        </p>
        <div className="extend__actions">
          <button
            type="submit"
            className="button form__submit"
            disabled={choice === null || extend.isPending}
            aria-busy={extend.isPending || undefined}
          >
            {extend.isPending ? 'Submitting…' : 'SUBMIT'}
          </button>
        </div>
      </form>
    );
  }

  return (
    <section className="page extend" data-testid="extend-page">
      <header className="extend__header">
        <h1 className="page__title">extend reserve.</h1>
        <button type="button" className="close-button extend__close" aria-label="Close" onClick={close}>
          <CloseIcon />
        </button>
      </header>
      <div className="form-card extend__card">{body}</div>
    </section>
  );
}

/** Why this reservation cannot be extended now, with its date, in the words of the page. */
export function extensionRefusalText(details: ReservationDetails): string {
  const until = formatDeadlineDate(details.expiresAt);
  if (details.state === 'submitted')
    return 'Your piece has been sent for review, so the square is held until the staff decide: there is nothing to extend.';
  if (details.state === 'released') return 'This reservation has ended: the square was given back.';
  // The server's refusal says ran out for an active row past its deadline too, before the timer marks it expired.
  if (details.state === 'expired' || details.refusal === 'reservation_expired')
    return `This reservation ran out at midnight on ${until}.`;
  if (details.extended)
    return `This reservation has already had its one extension: the square is yours until midnight on ${until}.`;
  return `This reservation cannot be extended any more; the square is yours until midnight on ${until}.`;
}
