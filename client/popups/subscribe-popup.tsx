/**
 * The subscribe popup: a guest is asked to log in or register; a member asks to be told when this square, or any
 * square, becomes available (docs/product.md, Reservations: Subscriptions).
 */
import { useState, type FormEvent } from 'react';
import { CellStatus } from '#shared/domain.ts';
import { trpc } from '#client/api/trpc.ts';
import { useCurrentUser } from '#client/app/current-user.ts';
import { messages } from '#client/locale/messages.ts';
import { CellFacts } from './cell-facts.tsx';
import type { CellPopupProps } from './cell-popup-props.ts';
import { Popup } from './popup.tsx';
import { ChoiceGroup, ChoiceMessage, GuestPrompt, reservationErrorText } from './reservation-parts.tsx';

type Target = 'cell' | 'any';

export function SubscribePopup({ cell, onClose }: CellPopupProps) {
  const { user } = useCurrentUser();
  return (
    <Popup title="subscribe." eyebrow="not available yet" onClose={onClose} testId="subscribe-popup">
      <CellFacts cell={cell} />
      {user ? (
        <SubscribeForm cell={cell} onClose={onClose} />
      ) : (
        <GuestPrompt what="be told when a square becomes available" cellToken={cell.token} onClose={onClose} />
      )}
    </Popup>
  );
}

/** A reserved square first says so. Submit waits for a choice and for the call; a failure shows its code's message. */
function SubscribeForm({ cell, onClose }: CellPopupProps) {
  const subscribeCell = trpc.cell.subscribe.useMutation();
  const subscribeAny = trpc.cell.subscribeAny.useMutation();
  const [target, setTarget] = useState<Target | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Target | null>(null);
  const sending = subscribeCell.isPending || subscribeAny.isPending;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (target === null || sending) return;
    setError(null);
    try {
      if (target === 'cell' && cell.token !== null) await subscribeCell.mutateAsync({ token: cell.token });
      else await subscribeAny.mutateAsync();
      setDone(target);
    } catch (failure) {
      setError(reservationErrorText(failure, messages.cellSubscribeError));
    }
  };

  if (done) {
    return (
      <div data-testid="subscribe-done">
        <ChoiceMessage kind="success">
          {done === 'cell' ? messages.subscribedToCell : messages.subscribedToAny}
        </ChoiceMessage>
        <div className="popup__actions">
          <button type="button" className="button" onClick={onClose} data-autofocus>
            Done
          </button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate data-testid="subscribe-form">
      {cell.status === CellStatus.Reserved && (
        <p className="popup__lead" data-testid="subscribe-reserved-note">
          This square is currently reserved. However, you can still request the following.
        </p>
      )}
      <ChoiceGroup<Target>
        legend="E-mail me:"
        options={[
          { value: 'cell', label: 'Tell me when this square becomes available', disabled: cell.token === null },
          { value: 'any', label: 'Tell me when any square becomes available' },
        ]}
        value={target}
        onChange={(value) => {
          setTarget(value);
          setError(null);
        }}
        disabled={sending}
      />
      {error && <ChoiceMessage kind="error">{error}</ChoiceMessage>}
      <div className="popup__actions">
        <button type="button" className="button button--quiet" onClick={onClose}>
          Cancel
        </button>
        <button
          type="submit"
          className="button form__submit"
          disabled={target === null || sending}
          aria-busy={sending || undefined}
        >
          {sending ? 'Sending…' : 'SUBMIT'}
        </button>
      </div>
    </form>
  );
}
