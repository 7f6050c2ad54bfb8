/**
 * The staff log and the check that the viewer is staff, shared by review and the dashboard.
 * Other rooms, routers and routes import this file only (docs/architecture.md, Rooms).
 */
export { listStaffLog, offsetOf, recordStaffAction, requireStaff } from './staff-log.ts';
export type { Staff } from './staff-log.ts';
