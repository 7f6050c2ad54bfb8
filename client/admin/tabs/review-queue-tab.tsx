/** REVIEW: the pieces waiting for staff, oldest submission first; each opens the review of that piece. */
import { Link } from '#client/router/react.tsx';
import { trpc } from '#client/api/trpc.ts';
import { titleOf } from '../format.ts';
import { AdminTable, DateTime, EmptyNote, QueryView, SectionHeading, Thumb } from '../parts.tsx';

export function ReviewQueueTab() {
  const queue = trpc.admin.queue.useQuery({});
  return (
    <section className="admin-section">
      <SectionHeading
        title="review."
        lead="Pieces waiting for review, the longest-waiting first. Open one to see it whole and decide."
      />
      <QueryView query={queue}>
        {(items) =>
          items.length === 0 ? (
            <EmptyNote>Nothing is waiting for review.</EmptyNote>
          ) : (
            <AdminTable
              testId="review-queue"
              caption="Pieces waiting for review, oldest first"
              columns={['Piece', 'Artist', 'Submitted', { hidden: 'Open' }]}
            >
              {items.map((item) => (
                <tr key={item.artToken} data-testid="queue-item" data-art={item.artToken}>
                  <td>
                    <span className="admin-piece">
                      <Thumb src={item.thumb} />
                      <span>{titleOf(item.title)}</span>
                    </span>
                  </td>
                  <td>{item.author.name}</td>
                  <td>
                    <DateTime time={item.submittedAt} />
                  </td>
                  <td className="admin-table__actions">
                    <Link
                      className="button button--small"
                      to={`/review/${encodeURIComponent(item.artToken)}`}
                      aria-label={`Review ${titleOf(item.title)} by ${item.author.name}`}
                    >
                      Review
                    </Link>
                  </td>
                </tr>
              ))}
            </AdminTable>
          )
        }
      </QueryView>
    </section>
  );
}
