/** MESSAGES: what visitors wrote through the contact form; staff read each, reply by e-mail, and mark it handled. */
import { useState } from 'react';
import type { AdminMessage } from '#shared/admin-api.ts';
import { trpc } from '#client/api/trpc.ts';
import { DateTime, EmptyNote, NoticeLine, QueryView, SectionHeading, runStaffAction, type Notice } from '../parts.tsx';
import { StateFilter } from './state-filter.tsx';

type Filter = 'unhandled' | 'handled' | 'all';

const FILTERS: readonly { value: Filter; label: string }[] = [
  { value: 'unhandled', label: 'To handle' },
  { value: 'handled', label: 'Handled' },
  { value: 'all', label: 'All' },
];

const inputOf = (filter: Filter) => (filter === 'all' ? {} : { handled: filter === 'handled' });

export function MessagesTab() {
  const [filter, setFilter] = useState<Filter>('unhandled');
  const [notice, setNotice] = useState<Notice | null>(null);
  const list = trpc.admin.messages.useQuery(inputOf(filter));
  return (
    <section className="admin-section">
      <SectionHeading title="messages." lead="Messages sent through the contact page.">
        <StateFilter label="Show messages" options={FILTERS} value={filter} onChange={setFilter} />
      </SectionHeading>
      <NoticeLine notice={notice} />
      <QueryView query={list}>
        {(items) =>
          items.length === 0 ? (
            <EmptyNote>{filter === 'unhandled' ? 'Every message has been handled.' : 'No messages here.'}</EmptyNote>
          ) : (
            <ul className="admin-cards" data-testid="messages">
              {items.map((message) => (
                <MessageCard key={message.id} message={message} onNotice={setNotice} />
              ))}
            </ul>
          )
        }
      </QueryView>
    </section>
  );
}

function MessageCard({ message, onNotice }: { message: AdminMessage; onNotice: (notice: Notice) => void }) {
  const utils = trpc.useUtils();
  const markHandled = trpc.admin.markMessageHandled.useMutation();
  const onMark = () =>
    runStaffAction({
      run: () => markHandled.mutateAsync({ id: message.id }),
      done: `“${message.subject}” is marked handled.`,
      onNotice,
      refresh: () =>
        Promise.all([
          utils.admin.messages.invalidate(),
          utils.admin.overview.invalidate(),
          utils.admin.staffLog.invalidate(),
        ]),
    });
  const reply = `mailto:${message.email}?subject=${encodeURIComponent(`Re: ${message.subject}`)}`;

  return (
    <li className="admin-card" data-testid="message">
      <div className="admin-card__head">
        <div>
          <h2 className="admin-card__title">{message.subject}</h2>
          <p className="admin-muted">
            {message.reason} · from {message.user ? `${message.user.name} (${message.email})` : message.email} ·{' '}
            <DateTime time={message.createdAt} />
          </p>
        </div>
        {message.handledAt !== null && <span className="admin-badge admin-badge--handled">handled</span>}
      </div>
      <p className="admin-prose">{message.message}</p>
      <div className="admin-card__actions">
        <a className="button button--small button--quiet" href={reply}>
          Reply by e-mail
        </a>
        {message.handledAt === null ? (
          <button
            type="button"
            className="button button--small"
            onClick={() => void onMark()}
            disabled={markHandled.isPending}
          >
            {markHandled.isPending ? 'Please wait…' : 'Mark handled'}
          </button>
        ) : (
          <p className="admin-muted">
            Handled{message.handledBy && ` by ${message.handledBy.name}`} on <DateTime time={message.handledAt} />
          </p>
        )}
      </div>
    </li>
  );
}
