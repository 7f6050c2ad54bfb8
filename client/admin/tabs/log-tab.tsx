/** LOG: every staff action, newest first: who did what, to what, and when. */
import { useState } from 'react';
import { trpc } from '#client/api/trpc.ts';
import { staffActionLabel } from '../labels.ts';
import { AdminTable, DateTime, EmptyNote, QueryView, SectionHeading } from '../parts.tsx';
import { Pager } from './pager.tsx';

export function LogTab() {
  const [page, setPage] = useState(1);
  const log = trpc.admin.staffLog.useQuery({ page }, { placeholderData: (previous) => previous });
  return (
    <section className="admin-section">
      <SectionHeading title="log." lead="What staff have done, the latest first." />
      <QueryView query={log}>
        {(entries) =>
          entries.items.length === 0 ? (
            <EmptyNote>No staff action yet.</EmptyNote>
          ) : (
            <>
              <AdminTable
                testId="staff-log"
                caption="Staff actions, newest first"
                columns={['When', 'Who', 'What', 'Note']}
              >
                {entries.items.map((entry) => (
                  <tr key={entry.id} data-testid="log-entry" data-action={entry.action}>
                    <td>
                      <DateTime time={entry.createdAt} />
                    </td>
                    <td>{entry.staff.name}</td>
                    <td>
                      {staffActionLabel(entry.action)}
                      <br />
                      <span className="admin-muted admin-token">
                        {entry.subjectType} {entry.subjectToken}
                      </span>
                    </td>
                    <td className="admin-prose">{entry.note ?? '—'}</td>
                  </tr>
                ))}
              </AdminTable>
              <Pager
                label="Pages of the log"
                page={entries.page}
                pageSize={entries.pageSize}
                total={entries.total}
                onPage={setPage}
              />
            </>
          )
        }
      </QueryView>
    </section>
  );
}
