/** One piece under review: the decision first, then everything staff need to make it (review-item-parts.tsx). */
import { useState } from 'react';
import { Link, useParams } from '#client/router/react.tsx';
import { trpc } from '#client/api/trpc.ts';
import { titleOf } from '../format.ts';
import { DateTime, NoticeLine, QueryView, SectionHeading, type Notice } from '../parts.tsx';
import { treeLinkOf } from '../sections.ts';
import { ReviewDecision } from './review-decision.tsx';
import { ReviewArtist, ReviewConnections, ReviewFields, ReviewPictures, ReviewPlace } from './review-item-parts.tsx';

export function ReviewItemPage() {
  const artToken = useParams().artToken ?? '';
  const item = trpc.admin.reviewItem.useQuery({ artToken }, { retry: false });
  const [notice, setNotice] = useState<Notice | null>(null);

  return (
    <section className="admin-section">
      <p className="admin-back">
        <Link to="/review">← the review queue</Link>
      </p>
      <QueryView query={item}>
        {(data) => (
          <>
            <SectionHeading
              title={titleOf(data.art.title)}
              lead={
                <>
                  by {data.artist.name}
                  {data.art.submittedAt !== null && (
                    <>
                      {' '}
                      · submitted <DateTime time={data.art.submittedAt} />
                    </>
                  )}
                </>
              }
            />
            <NoticeLine notice={notice} />
            {notice?.kind === 'success' && (
              <p className="admin-after">
                <Link to="/review">Back to the queue</Link> ·{' '}
                <a href={treeLinkOf(data.cell.token)}>See the square on the tree</a>
              </p>
            )}
            <div className="admin-review">
              <div className="admin-review__main">
                <ReviewPictures item={data} />
              </div>
              <div className="admin-review__side">
                <ReviewDecision item={data} onDecided={setNotice} onFailed={setNotice} />
                <ReviewFields item={data} />
                <ReviewPlace item={data} />
                <ReviewConnections item={data} />
                <ReviewArtist item={data} />
              </div>
            </div>
          </>
        )}
      </QueryView>
    </section>
  );
}
