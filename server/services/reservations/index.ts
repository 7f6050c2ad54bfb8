/**
 * Reserving a square or a branch slot, extending the hold, and the timers that remind and release.
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export { RESERVATION_JOBS } from './reservation-jobs.ts';
export { extendReservation, getMyReservation, getReservation, reserveBranchSlot, reserveCell } from './reservations.ts';
