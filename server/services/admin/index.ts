/**
 * The staff dashboard's own work: admins, contact messages, the overview, removal decisions, staff releases of
 * reservations and the users list. Nothing imports this room; it sits on top.
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export { createOrPromoteAdmin, generatePassword } from './admins.ts';
export { listMessages, markMessageHandled } from './messages.ts';
export { getOverview } from './overview.ts';
export { acceptRemoval, declineRemoval, listRemovalRequests } from './removals.ts';
export { listActiveReservations, releaseReservationByStaff } from './reservations.ts';
export { disableUser, enableUser, listUsers, setRole } from './users.ts';
