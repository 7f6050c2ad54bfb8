/**
 * The reserve popup, opened by an available square or branch slot: a guest is asked to log in or register, a member
 * reserves it in three steps (docs/product.md, Reservations).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from '#client/router/react.tsx';
import { RESERVATION_DAYS } from '#shared/constants.ts';
import type { ReservedCell } from '#shared/api-types.ts';
import { CellStatus } from '#shared/domain.ts';
import { initialParams } from '#client/api/initial-params.ts';
import { trpc } from '#client/api/trpc.ts';
import { useCurrentUser } from '#client/app/current-user.ts';
import { useReservedCell } from '#client/app/reserved-cell.ts';
import { formatDeadlineDate } from '#client/app/site-time.ts';
import { DAY_MS, RESERVATION_PERIOD } from '#shared/durations.ts';
import { messages } from '#client/locale/messages.ts';
import { catchUpLiveTree } from '#client/tree/use-tree-snapshot.ts';
import { CellFacts } from './cell-facts.tsx';
import type { CellPopupProps } from './cell-popup-props.ts';
import { Popup } from './popup.tsx';
import { ChoiceGroup, ChoiceMessage, editPathOf, GuestPrompt, reservationErrorText } from './reservation-parts.tsx';

type YesNo = 'yes' | 'no';

const YES_NO = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
] as const;

export function ReservePopup({ cell, onClose }: CellPopupProps) {
  const { user } = useCurrentUser();
  const { reservedCell } = useReservedCell();
  // Once reserved, the facts say so.
  const [reservedStatus, setReservedStatus] = useState<number | null>(null);
  return (
    <Popup
      title="reserve."
      eyebrow={
        reservedStatus !== null
          ? 'reserved for you'
          : cell.token === null
            ? 'a new branch square'
            : 'an available square'
      }
      onClose={onClose}
      testId="reserve-popup"
    >
      <CellFacts cell={reservedStatus === null ? cell : { ...cell, status: reservedStatus }} />
      {user && reservedStatus === null && typeof reservedCell === 'object' && reservedCell !== null ? (
        <AlreadyHolding held={reservedCell} onClose={onClose} />
      ) : user ? (
        <ReserveSteps cell={cell} onClose={onClose} onReserved={() => setReservedStatus(CellStatus.Reserved)} />
      ) : (
        <GuestPrompt what="reserve this square" cellToken={cell.token} onClose={onClose} />
      )}
    </Popup>
  );
}

/**
 * A member holds one square at a time: one who holds one is told so before choosing anything, with the way to it
 * (the server refuses a second reservation anyway, and its message still shows if this page did not know yet).
 */
function AlreadyHolding({ held, onClose }: { held: ReservedCell; onClose: () => void }) {
  return (
    <div className="reserve-held" data-testid="reserve-held">
      <p className="popup__lead">
        You already hold a square (row {held.row}, column {held.column}) until {formatDeadlineDate(held.expiresAt)}. A
        member holds one square at a time: upload your piece there first.
      </p>
      <div className="popup__actions">
        <button type="button" className="button button--quiet" onClick={onClose}>
          Close
        </button>
        <Link className="button" to={editPathOf(held.token)} onClick={onClose} data-autofocus>
          Open your square
        </Link>
      </div>
    </div>
  );
}

/**
 * Step 0: reserve this square? (no closes) → step 1: upload now? (yes opens the editor of the reserved square, the new
 * branch square's when a slot was reserved) → step 2: thanks, and the deadline. A trunk square is reserved by its
 * token, a branch slot (no cell yet) by its row and column. Submit waits for a choice and for the call.
 */
function ReserveSteps({ cell, onClose, onReserved }: CellPopupProps & { onReserved: () => void }) {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const { setReservedCell } = useReservedCell();
  const reserve = trpc.cell.reserve.useMutation();
  const reserveBranch = trpc.cell.reserveBranch.useMutation();
  const [step, setStep] = useState<0 | 1 | 2>(0);
  const [choice, setChoice] = useState<YesNo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reserved, setReserved] = useState<ReservedCell | null>(null);
  const pending = reserve.isPending || reserveBranch.isPending;
  // Each new step takes the keyboard to its first control (the button it came from is disabled or gone); closing
  // gives it back to the tree's canvas (the tree page does that).
  const stepRoot = useRef<HTMLElement>(null);
  useEffect(() => {
    if (step > 0) stepRoot.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, [step]);

  const choose = (value: YesNo) => {
    setChoice(value);
    setError(null);
  };

  const submitReserve = async () => {
    if (choice === 'no') return onClose();
    setError(null);
    try {
      const treeToken = initialParams().treeToken ?? undefined;
      const answer =
        cell.token !== null
          ? await reserve.mutateAsync({ token: cell.token })
          : await reserveBranch.mutateAsync({ treeToken, row: cell.row, column: cell.column });
      setReserved(answer);
      setReservedCell(answer);
      onReserved();
      // The tree changed: the tree on screen asks for the change at once, and the viewer's own squares too.
      catchUpLiveTree(treeToken);
      void utils.cell.mine.invalidate();
      setChoice(null);
      setStep(1);
    } catch (failure) {
      setError(reservationErrorText(failure, messages.cellReserveError));
    }
  };

  const submitUpload = () => {
    if (!reserved) return;
    if (choice === 'yes') {
      onClose();
      navigate(editPathOf(reserved.token));
    } else {
      setStep(2);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (choice === null || pending) return;
    if (step === 0) void submitReserve();
    else if (step === 1) submitUpload();
  };

  if (step === 2) {
    const deadline = reserved?.expiresAt ?? Date.now() + RESERVATION_DAYS * DAY_MS;
    return (
      <div className="reserve-thanks" data-testid="reserve-step-2" ref={(node) => void (stepRoot.current = node)}>
        <p className="reserve-thanks__title">Thank you, the square is yours.</p>
        <p>
          You have until <strong data-testid="reserve-deadline">{formatDeadlineDate(deadline)}</strong> to upload your
          piece. Whenever you are ready, come back, log in and open your square on the tree (the target button finds it
          for you).
        </p>
        <div className="popup__actions">
          <button type="button" className="button" onClick={onClose} data-autofocus>
            Done
          </button>
        </div>
      </div>
    );
  }

  return (
    <form
      className="reserve-form"
      onSubmit={onSubmit}
      noValidate
      data-testid={`reserve-step-${step}`}
      ref={(node) => void (stepRoot.current = node)}
    >
      {step === 0 ? (
        <ChoiceGroup
          legend="Would you like to reserve this square?"
          options={YES_NO}
          value={choice}
          onChange={choose}
          disabled={pending}
        />
      ) : (
        <>
          <ChoiceMessage kind="success">
            Reserved. The square is held for you for the next {RESERVATION_PERIOD}.
          </ChoiceMessage>
          <ChoiceGroup legend="Ready to upload your piece now?" options={YES_NO} value={choice} onChange={choose} />
        </>
      )}
      {error && <ChoiceMessage kind="error">{error}</ChoiceMessage>}
      <div className="popup__actions">
        <button
          type="submit"
          className="button form__submit"
          disabled={choice === null || pending}
          aria-busy={pending || undefined}
        >
          {pending ? 'Reserving…' : 'SUBMIT'}
        </button>
      </div>
    </form>
  );
}
