/** Words for the codes the dashboard shows: roles, statuses, cell types and staff actions. */
import { StaffAction } from '#shared/admin-api.ts';
import { CellStatus, CellType, Role } from '#shared/domain.ts';
import { ART_STATUS_WORDS } from '#shared/words.ts';

export const ROLE_LABELS: Record<number, string> = {
  [Role.Observer]: 'Observer',
  [Role.Artist]: 'Artist',
  [Role.Admin]: 'Admin (staff)',
};

export const ROLE_CHOICES = [Role.Observer, Role.Artist, Role.Admin] as const;

export const ART_STATUS_LABELS: Record<number, string> = ART_STATUS_WORDS;

export const CELL_STATUS_LABELS: Record<number, string> = {
  [CellStatus.Pending]: 'Unavailable',
  [CellStatus.Reserved]: 'Reserved',
  [CellStatus.Published]: 'Published',
  [CellStatus.Available]: 'Available',
};

export const CELL_TYPE_LABELS: Record<number, string> = {
  [CellType.Trunk]: 'Trunk',
  [CellType.Branch]: 'Branch',
};

const STAFF_ACTION_LABELS: Record<StaffAction, string> = {
  publish: 'Published a piece',
  request_changes: 'Requested changes',
  accept_removal: 'Accepted a removal request',
  decline_removal: 'Declined a removal request',
  mark_message_handled: 'Marked a message handled',
  set_role: 'Changed a role',
  disable_user: 'Disabled an account',
  enable_user: 'Enabled an account',
  release_reservation: 'Released a reservation',
};

export function staffActionLabel(action: string): string {
  return Object.hasOwn(STAFF_ACTION_LABELS, action) ? STAFF_ACTION_LABELS[action as StaffAction] : action;
}

export function labelOf(table: Record<number, string>, code: number): string {
  return table[code] ?? `Unknown (${code})`;
}
