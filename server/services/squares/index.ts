/**
 * The life of a square and its piece, the one place its steps are written: reserving (a square or a branch slot) and
 * extending the hold, submitting, publishing and sending back for changes, releasing, expiring and removing; who
 * holds a square and whether its clock runs, deadlines, and the subscribers told when a square opens. Each step does
 * together what it must never forget: the change log, the search index, the e-mails and the staff log.
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export {
  extendHold,
  extensionRefusal,
  holdRefusal,
  reserveBranchSlotSquare,
  reserveSquare,
  reserveSquareByToken,
  squareToReserve,
  withHoldRefusals,
} from './holding.ts';
export { clockedReservation, holdersPiece, onTheClock } from './holds.ts';
export { fateOfPiece, releaseInTx, removePiece } from './life-cycle.ts';
export { publishPiece, sendBackForChanges, submitPiece } from './review-steps.ts';
export { REMINDER_STEPS, extensionDeadline, latestDueReminder } from './reservation-time.ts';
export { subscribe } from './subscriptions.ts';
