/**
 * The life of a square and its piece that several rooms share: who holds a square and whether its clock runs,
 * releasing it (the one place that decides what becomes of the piece), the changes window, deadlines, and the
 * subscribers told when a square opens.
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export { openChangesWindow } from './changes-window.ts';
export { clockedReservation, holdersPiece, isActiveReservationOf, onTheClock } from './holds.ts';
export { fateOfPiece, releaseInTx, removePiece } from './life-cycle.ts';
export { REMINDER_STEPS, extensionDeadline, latestDueReminder, reservationDeadline } from './reservation-time.ts';
export { notifyAvailable, subscribe } from './subscriptions.ts';
