/**
 * What staff read before deciding on a piece: every picture at full size, every field (the AI label among them),
 * where the square sits on the tree, the proposed connections, and the artist with their other pieces.
 */
import { personName } from '#shared/people.ts';
import type { ArtistPiece, ReviewItem } from '#shared/admin-api.ts';
import { ArtStatus } from '#shared/domain.ts';
import { AI_USE_LABELS, formatDimensions } from '#client/art/art-facts.tsx';
import { titleOf } from '../format.ts';
import { ART_STATUS_LABELS, CELL_STATUS_LABELS, CELL_TYPE_LABELS, ROLE_LABELS, labelOf } from '../labels.ts';
import { DateTime, EmptyNote, Thumb } from '../parts.tsx';
import { detailsLinkOf, profileLinkOf, treeLinkOf } from '../sections.ts';

const listed = (values: readonly string[]) => (values.length > 0 ? values.join(', ') : '—');
const plain = (value: string) => (value.trim() !== '' ? value : '—');

export function ReviewPictures({ item }: { item: ReviewItem }) {
  const title = titleOf(item.art.title);
  const count = item.pictures.length;
  if (count === 0) return <EmptyNote>This piece has no pictures.</EmptyNote>;
  return (
    <div className="admin-pictures" data-testid="review-pictures">
      {item.pictures.map((picture, index) => (
        <figure key={picture.token} className="admin-picture">
          <img
            src={picture.image}
            width={picture.width}
            height={picture.height}
            alt={count > 1 ? `${title}, picture ${index + 1} of ${count}` : title}
            decoding="async"
          />
          <figcaption>
            {index === 0 ? 'Main picture' : `Picture ${index + 1}`} · {picture.width} × {picture.height} px ·{' '}
            <a href={picture.image} target="_blank" rel="noopener">
              open on its own
            </a>
          </figcaption>
        </figure>
      ))}
    </div>
  );
}

export function ReviewFields({ item }: { item: ReviewItem }) {
  const { art } = item;
  const rows: [string, string][] = [
    ['Title', plain(art.title)],
    ['Year', art.year === null ? '—' : String(art.year)],
    ['Category', plain(art.category)],
    ['Subject', plain(art.subject)],
    ['Style', plain(art.style)],
    ['Medium', listed(art.medium)],
    ['Materials', listed(art.materials)],
    ['Dimensions', formatDimensions(art)],
    ['Keywords', listed(art.keywords)],
  ];
  return (
    <section className="admin-panel" aria-labelledby="review-fields-title">
      <h2 id="review-fields-title" className="admin-subtitle">
        The piece
      </h2>
      <p className={`admin-ai admin-ai--${art.ai_use}`} data-testid="review-ai-label">
        <span className="admin-ai__label">AI use</span> {AI_USE_LABELS[art.ai_use] ?? AI_USE_LABELS.none}
      </p>
      <dl className="admin-facts" data-testid="review-fields">
        {rows.map(([label, value]) => (
          <div key={label} className="admin-facts__row">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <div className="admin-facts__row admin-facts__row--wide">
          <dt>Description</dt>
          <dd className="admin-prose">{plain(art.description)}</dd>
        </div>
        <div className="admin-facts__row">
          <dt>Status</dt>
          <dd>{labelOf(ART_STATUS_LABELS, art.status)}</dd>
        </div>
        <div className="admin-facts__row">
          <dt>Started</dt>
          <dd>
            <DateTime time={art.createdAt} />
          </dd>
        </div>
        {art.submittedAt !== null && (
          <div className="admin-facts__row">
            <dt>Submitted</dt>
            <dd>
              <DateTime time={art.submittedAt} />
            </dd>
          </div>
        )}
        {art.publishedAt !== null && (
          <div className="admin-facts__row">
            <dt>Published</dt>
            <dd>
              <DateTime time={art.publishedAt} />
            </dd>
          </div>
        )}
        {art.reviewNote && (
          <div className="admin-facts__row admin-facts__row--wide">
            <dt>Last changes requested</dt>
            <dd className="admin-prose">{art.reviewNote}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}

export function ReviewPlace({ item }: { item: ReviewItem }) {
  const { cell } = item;
  return (
    <section className="admin-panel" aria-labelledby="review-place-title" data-testid="review-place">
      <h2 id="review-place-title" className="admin-subtitle">
        On the tree
      </h2>
      <p>
        Row {cell.row}, column {cell.column} · {labelOf(CELL_TYPE_LABELS, cell.type)} square ·{' '}
        {labelOf(CELL_STATUS_LABELS, cell.status)}
      </p>
      <p>
        <a href={treeLinkOf(cell.token)} data-testid="review-tree-link">
          See the square on the tree
        </a>
      </p>
    </section>
  );
}

/** A selected connection of a piece under review is only proposed: it becomes active when the piece is published. */
function connectionState(connectionStatus: number, artStatus: number): string {
  if (connectionStatus !== 1) return 'not selected';
  return artStatus === ArtStatus.Published ? 'active' : 'proposed';
}

export function ReviewConnections({ item }: { item: ReviewItem }) {
  return (
    <section className="admin-panel" aria-labelledby="review-connections-title" data-testid="review-connections">
      <h2 id="review-connections-title" className="admin-subtitle">
        Proposed connections
      </h2>
      {item.connections.length === 0 ? (
        <EmptyNote>The artist proposed no connections.</EmptyNote>
      ) : (
        <ul className="admin-list">
          {item.connections.map((connection) => (
            <li key={connection.cellToken} className="admin-list__item">
              <Thumb src={connection.neighbour?.thumb ?? null} />
              <div>
                <p className="admin-list__title">
                  {connection.neighbour
                    ? `${titleOf(connection.neighbour.title)} by ${connection.neighbour.author.name}`
                    : 'A square with no piece'}
                  <span className="admin-muted">
                    {' '}
                    · row {connection.row}, column {connection.column} ·{' '}
                    {connectionState(connection.status, item.art.status)}
                  </span>
                </p>
                <p className="admin-prose">{plain(connection.description)}</p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function ReviewArtist({ item }: { item: ReviewItem }) {
  const { artist } = item;
  return (
    <section className="admin-panel" aria-labelledby="review-artist-title" data-testid="review-artist">
      <h2 id="review-artist-title" className="admin-subtitle">
        The artist
      </h2>
      <p>
        <a href={profileLinkOf(artist.token)}>{personName(artist, 'Unnamed')}</a> · {artist.email} ·{' '}
        {labelOf(ROLE_LABELS, artist.role)}
      </p>
      <h3 className="admin-subtitle admin-subtitle--small">Their other pieces</h3>
      {item.otherPieces.length === 0 ? (
        <EmptyNote>This is their first piece.</EmptyNote>
      ) : (
        <OtherPieces pieces={item.otherPieces} />
      )}
    </section>
  );
}

function OtherPieces({ pieces }: { pieces: ArtistPiece[] }) {
  return (
    <ul className="admin-list admin-list--compact">
      {pieces.map((piece) => (
        <li key={piece.artToken} className="admin-list__item">
          <Thumb src={piece.thumb} size={40} />
          <span>
            <a href={detailsLinkOf(piece.cellToken)}>{titleOf(piece.title)}</a>
            <span className="admin-muted"> · {labelOf(ART_STATUS_LABELS, piece.status)}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
