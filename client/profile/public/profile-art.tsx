/**
 * ART on a public profile (docs/product.md, Screens and routes): the published pieces as cards, each with its first thumbnail (to its details),
 * title with year, category, dimensions, likes and views, and the thumbnails of its connections, each linking to
 * that piece's details.
 */
import { Link } from '#client/router/react.tsx';
import type { PublishedArtCard } from '#shared/profile-api.ts';
import { trpc } from '#client/api/trpc.ts';
import { formatDimensions } from '#client/art/art-facts.tsx';
import { atLeastZero } from '#client/ui/counts.ts';
import { cellPath } from '#shared/paths.ts';
import { titleOrUntitled } from '#shared/words.ts';

export function ProfileArt({ token }: { token: string }) {
  const art = trpc.user.publishedArt.useQuery({ token }, { retry: false });
  let body;
  if (art.isPending) body = <p className="profile-art__status">Loading...</p>;
  else if (art.isError) body = <p className="profile-art__status">The pieces could not be loaded just now.</p>;
  else if (art.data.length === 0) body = <p className="profile-art__status">No published pieces yet.</p>;
  else
    body = (
      <ul className="profile-art__grid">
        {art.data.map((card) => (
          <ArtCard key={card.artToken} card={card} />
        ))}
      </ul>
    );
  return (
    <section className="profile-section profile-art" aria-labelledby="profile-art-title" data-testid="profile-art">
      <h2 id="profile-art-title" className="profile-section__title">
        Art
      </h2>
      {body}
    </section>
  );
}

function ArtCard({ card }: { card: PublishedArtCard }) {
  const title = titleOrUntitled(card.title);
  const likes = atLeastZero(card.activity.likes);
  const views = atLeastZero(card.activity.reviews);
  return (
    <li className="art-card" data-testid="profile-art-card">
      <Link to={cellPath(card.cellToken, 'details')} className="art-card__picture" aria-label={`Details of ${title}`}>
        {card.thumb ? (
          <img src={card.thumb} alt="" width={256} height={256} loading="lazy" decoding="async" />
        ) : (
          <span className="art-card__no-picture" />
        )}
      </Link>
      <div className="art-card__body">
        <h3 className="art-card__title">
          <Link to={cellPath(card.cellToken, 'details')}>{title}</Link>
          {card.year !== null && <span className="art-card__year">, {card.year}</span>}
        </h3>
        <p className="art-card__facts">
          {card.category.trim() !== '' && <span>{card.category}</span>}
          <span>{formatDimensions(card)}</span>
        </p>
        <p className="art-card__activity">
          <span>{likes === 1 ? '1 like' : `${likes} likes`}</span>
          <span>{views === 1 ? '1 view' : `${views} views`}</span>
        </p>
        {card.connections.length > 0 && (
          <ul className="art-card__connections" aria-label="Connected pieces">
            {card.connections.map((connection) => (
              <li key={connection.cellToken}>
                <Link
                  to={cellPath(connection.cellToken, 'details')}
                  className="art-card__connection"
                  aria-label="Details of a connected piece"
                >
                  {connection.thumb ? (
                    <img src={connection.thumb} alt="" width={40} height={40} loading="lazy" decoding="async" />
                  ) : (
                    <span className="art-card__no-picture" />
                  )}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}
