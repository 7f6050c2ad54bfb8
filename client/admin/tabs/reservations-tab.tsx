/** RESERVATIONS: every square held right now, who holds it and until when; staff may release one (after a confirm). */
import { useState } from 'react';
import type { AdminReservation } from '#shared/admin-api.ts';
import { ArtStatus } from '#shared/domain.ts';
import { trpc } from '#client/api/trpc.ts';
import { ConfirmButton } from '../confirm-button.tsx';
import { CELL_TYPE_LABELS, labelOf } from '../labels.ts';
import {
  AdminTable,
  DateTime,
  EmptyNote,
  NoticeLine,
  QueryView,
  SectionHeading,
  runStaffAction,
  type Notice,
} from '../parts.tsx';
import { treeLinkOf } from '../sections.ts';

export function ReservationsTab() {
  const reservations = trpc.admin.reservations.useQuery({});
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <section className="admin-section">
      <SectionHeading title="reservations." lead="Squares held by members now, the soonest to run out first." />
      <NoticeLine notice={notice} />
      <QueryView query={reservations}>
        {(items) =>
          items.length === 0 ? (
            <EmptyNote>No square is reserved right now.</EmptyNote>
          ) : (
            <AdminTable
              testId="reservations"
              caption="Squares reserved now"
              columns={['Square', 'Held by', 'Reserved', 'Runs out', { hidden: 'Release' }]}
            >
              {items.map((reservation) => (
                <ReservationRow key={reservation.id} reservation={reservation} onNotice={setNotice} />
              ))}
            </AdminTable>
          )
        }
      </QueryView>
    </section>
  );
}

function ReservationRow({
  reservation,
  onNotice,
}: {
  reservation: AdminReservation;
  onNotice: (notice: Notice) => void;
}) {
  const utils = trpc.useUtils();
  const release = trpc.admin.releaseReservation.useMutation();
  const { cell, user } = reservation;
  const place = `row ${cell.row}, column ${cell.column}`;
  const sentBack = reservation.artStatus === ArtStatus.ChangesRequested;

  const onRelease = () =>
    runStaffAction({
      run: () => release.mutateAsync({ reservationId: reservation.id }),
      done: `The square at ${place} is released.`,
      onNotice,
      refresh: () =>
        Promise.all([
          utils.admin.reservations.invalidate(),
          utils.admin.overview.invalidate(),
          utils.admin.staffLog.invalidate(),
        ]),
    });

  return (
    <tr data-testid="reservation-row">
      <td>
        <a href={treeLinkOf(cell.token)}>{place[0]!.toUpperCase() + place.slice(1)}</a>
        <span className="admin-muted"> · {labelOf(CELL_TYPE_LABELS, cell.type).toLowerCase()}</span>
        {sentBack && <span className="admin-muted"> · changes requested</span>}
      </td>
      <td>
        {user.name}
        <br />
        <span className="admin-muted">{user.email}</span>
      </td>
      <td>
        <DateTime time={reservation.createdAt} />
      </td>
      <td>
        <DateTime time={reservation.expiresAt} />
        {reservation.extended && <span className="admin-muted"> (extended)</span>}
      </td>
      <td className="admin-table__actions">
        <ConfirmButton
          label="Release"
          question={`Release ${place}? ${user.name} loses the square${sentBack ? '; the piece sent back stays in their atelier.' : ' and any unsent draft in it.'}`}
          confirmLabel="Yes, release"
          onConfirm={() => void onRelease()}
          busy={release.isPending}
          danger
        />
      </td>
    </tr>
  );
}
