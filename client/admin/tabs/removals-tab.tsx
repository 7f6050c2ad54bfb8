/**
 * REMOVALS: artists' requests to take a piece down. Accepting removes the piece (its square becomes available, its
 * connections go quiet, the artist is told); declining needs a reason, which the artist receives.
 */
import { useState } from 'react';
import type { AdminRemovalRequest, RemovalState } from '#shared/admin-api.ts';
import { trpc } from '#client/api/trpc.ts';
import { titleOf } from '../format.ts';
import { ConfirmButton } from '../confirm-button.tsx';
import {
  DateTime,
  EmptyNote,
  NoticeLine,
  QueryView,
  SectionHeading,
  Thumb,
  runStaffAction,
  type Notice,
} from '../parts.tsx';
import { ReasonForm } from '../reason-form.tsx';
import { detailsLinkOf } from '../sections.ts';
import { StateFilter } from './state-filter.tsx';

type Filter = RemovalState | 'all';

const FILTERS: readonly { value: Filter; label: string }[] = [
  { value: 'open', label: 'Open' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'declined', label: 'Declined' },
  { value: 'all', label: 'All' },
];

export function RemovalsTab() {
  const [filter, setFilter] = useState<Filter>('open');
  const [notice, setNotice] = useState<Notice | null>(null);
  const requests = trpc.admin.removalRequests.useQuery(filter === 'all' ? {} : { state: filter });
  return (
    <section className="admin-section">
      <SectionHeading title="removals." lead="Artists asking for a piece to be taken down.">
        <StateFilter label="Show requests" options={FILTERS} value={filter} onChange={setFilter} />
      </SectionHeading>
      <NoticeLine notice={notice} />
      <QueryView query={requests}>
        {(items) =>
          items.length === 0 ? (
            <EmptyNote>No {filter === 'all' ? '' : `${filter} `}removal requests.</EmptyNote>
          ) : (
            <ul className="admin-cards" data-testid="removal-requests">
              {items.map((request) => (
                <RemovalCard key={request.token} request={request} onNotice={setNotice} />
              ))}
            </ul>
          )
        }
      </QueryView>
    </section>
  );
}

function RemovalCard({ request, onNotice }: { request: AdminRemovalRequest; onNotice: (notice: Notice) => void }) {
  const utils = trpc.useUtils();
  const accept = trpc.admin.acceptRemoval.useMutation();
  const decline = trpc.admin.declineRemoval.useMutation();
  const [declining, setDeclining] = useState(false);
  const title = titleOf(request.art.title);
  const refresh = () =>
    Promise.all([
      utils.admin.removalRequests.invalidate(),
      utils.admin.overview.invalidate(),
      utils.admin.staffLog.invalidate(),
    ]);

  const onAccept = () =>
    runStaffAction({
      run: () => accept.mutateAsync({ token: request.token }),
      done: `Removal accepted: “${title}” is taken down and its artist told.`,
      onNotice,
      refresh,
    });

  const onDecline = async (reason: string) => {
    await decline.mutateAsync({ token: request.token, reason });
    onNotice({ kind: 'success', text: `Removal declined: the artist of “${title}” receives your reason.` });
    await refresh();
  };

  return (
    <li className="admin-card" data-testid="removal-request">
      <div className="admin-card__head">
        <Thumb src={request.art.thumb} />
        <div>
          <h2 className="admin-card__title">
            <a href={detailsLinkOf(request.art.cellToken)}>{title}</a>
          </h2>
          <p className="admin-muted">
            {request.requester ? request.requester.name : 'Unknown member'} · {request.email} ·{' '}
            <DateTime time={request.createdAt} />
          </p>
        </div>
        <span className={`admin-badge admin-badge--${request.state}`}>{request.state}</span>
      </div>
      <p className="admin-prose">{request.reason.trim() !== '' ? request.reason : 'No reason given.'}</p>
      {request.state === 'open' ? (
        <div className="admin-card__actions">
          <ConfirmButton
            label="Accept"
            question={`Take down “${title}”? Its square becomes available again and the artist is told.`}
            confirmLabel="Yes, take it down"
            onConfirm={() => void onAccept()}
            busy={accept.isPending}
            danger
          />
          <button
            type="button"
            className="button button--small button--quiet"
            aria-expanded={declining}
            onClick={() => setDeclining(!declining)}
          >
            Decline…
          </button>
          {declining && (
            <ReasonForm
              label="Reason for declining"
              hint="The artist receives this in an e-mail."
              submitLabel="Decline the request"
              onSubmit={onDecline}
            />
          )}
        </div>
      ) : (
        <p className="admin-muted">
          {request.state === 'accepted' ? 'Accepted' : 'Declined'}
          {request.decidedBy && ` by ${request.decidedBy.name}`}
          {request.decidedAt !== null && (
            <>
              {' '}
              on <DateTime time={request.decidedAt} />
            </>
          )}
          {request.decisionNote && <>: {request.decisionNote}</>}
        </p>
      )}
    </li>
  );
}
