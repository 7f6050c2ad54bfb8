/**
 * ATELIER of manage profile: the member's squares with a piece, newest first. A piece not yet submitted offers
 * UPLOAD ARTWORK (and, on a held square, the one-week extension); the others VIEW DETAILS and VIEW ON TREE. Each
 * row says where the piece stands (decision 015).
 */
import { Link } from '#client/router/react.tsx';
import type { CurrentUser } from '#shared/api-types.ts';
import { ArtStatus, isArtInProgress } from '#shared/domain.ts';
import type { AtelierItem } from '#shared/profile-api.ts';
import { trpc } from '#client/api/trpc.ts';
import { formatDimensions } from '#client/art/art-facts.tsx';
import { useReservedCell } from '#client/app/reserved-cell.ts';
import { formatDeadlineDate } from '#client/app/site-time.ts';
import { ExtendOffer, heldCellOf } from '#client/popups/reservation-parts.tsx';
import { atLeastZero } from '#client/ui/counts.ts';
import { shortDate } from '../profile-text.ts';
import { ListPanel } from './list-panel.tsx';
import { cellPath } from '#shared/paths.ts';
import { ART_STATUS_WORDS, titleOrUntitled } from '#shared/words.ts';

/** Where a piece stands, as its author reads it. */
export function atelierStatus(item: AtelierItem): string {
  switch (item.status) {
    case ArtStatus.Draft:
      return item.reservedUntil !== null ? `Reserved until ${formatDeadlineDate(item.reservedUntil)}` : 'Draft';
    default:
      return ART_STATUS_WORDS[item.status as ArtStatus] ?? ART_STATUS_WORDS[ArtStatus.Removed];
  }
}

const isInProgress = (item: AtelierItem) => isArtInProgress(item.status);

export function AtelierPanel({ user }: { user: CurrentUser }) {
  const art = trpc.user.art.useQuery({ token: user.token }, { retry: false });
  return (
    <ListPanel
      title="Your atelier"
      lead="Every piece you have made or are making, newest first."
      query={art}
      failure="The pieces could not be loaded just now. Please try again in a moment."
      empty={
        <p className="panel-status" data-testid="atelier-empty">
          You currently have no uploaded pieces
        </p>
      }
    >
      {(items) => <AtelierTable items={items} />}
    </ListPanel>
  );
}

function AtelierTable({ items }: { items: AtelierItem[] }) {
  const { reservedCell } = useReservedCell();
  return (
    <div className="profile-table-wrap">
      <table className="data-table profile-table" data-testid="atelier-table">
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Picture</span>
            </th>
            <th scope="col">Title</th>
            <th scope="col">Size</th>
            <th scope="col">Category</th>
            <th scope="col">Date added</th>
            <th scope="col">Likes</th>
            <th scope="col">Views</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.artToken} data-testid="atelier-row">
              <td className="profile-table__picture">
                {item.thumb ? (
                  <img className="data-table__thumb" src={item.thumb} alt="" width={56} height={56} loading="lazy" />
                ) : (
                  <span className="data-table__thumb" />
                )}
              </td>
              <td className="profile-table__title">
                <span data-testid="atelier-title">{titleOrUntitled(item.title)}</span>
                <span className="profile-table__status" data-testid="atelier-status">
                  {atelierStatus(item)}
                </span>
              </td>
              <td data-label="Size" className="profile-table__nowrap">
                {formatDimensions(item)}
              </td>
              <td data-label="Category">{item.category.trim() !== '' ? item.category : '—'}</td>
              <td data-label="Date added" className="profile-table__nowrap">
                {shortDate(item.created_at)}
              </td>
              <td data-label="Likes">{atLeastZero(item.activity.likes)}</td>
              <td data-label="Views">{atLeastZero(item.activity.reviews)}</td>
              <td className="profile-table__actions">
                <span className="profile-table__buttons">
                  {isInProgress(item) ? (
                    <>
                      <Link to={cellPath(item.cellToken, 'edit')} className="button" data-testid="atelier-upload">
                        UPLOAD ARTWORK
                      </Link>
                      <ExtendOffer cell={heldCellOf(reservedCell, item.cellToken)} />
                    </>
                  ) : item.status === ArtStatus.Removed ? (
                    // Its square was released: it may hold someone else's piece now, so no link leads there.
                    <span className="profile-table__status" data-testid="atelier-kept">
                      Kept here; its square was released.
                    </span>
                  ) : (
                    <>
                      <Link to={cellPath(item.cellToken, 'details')} className="button" data-testid="atelier-details">
                        VIEW DETAILS
                      </Link>
                      <Link
                        to={cellPath(item.cellToken, 'tree')}
                        className="button button--quiet"
                        data-testid="atelier-tree"
                      >
                        VIEW ON TREE
                      </Link>
                    </>
                  )}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
