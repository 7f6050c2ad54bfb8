/** The CONNECTIONS list of a piece: each connected neighbour's thumbnail (to its details) and why they connect. */
import { personName } from '#shared/people.ts';
import { Link } from '#client/router/react.tsx';
import type { ArtConnection } from '#shared/art-api.ts';
import { cellPath } from '#shared/paths.ts';
import { titleOrUntitled } from '#shared/words.ts';

export function ArtConnections({ connections }: { connections: ArtConnection[] }) {
  return (
    <section className="art-connections" aria-labelledby="art-connections-title" data-testid="art-connections">
      <h2 id="art-connections-title" className="art-section-title">
        Connections
      </h2>
      {connections.length === 0 ? (
        <p className="art-connections__empty">This piece has no connections yet.</p>
      ) : (
        <ul className="art-connections__list">
          {connections.map((connection) => {
            const next = connection.next_cell;
            const title = titleOrUntitled(next.art.title);
            const artist = personName(next.art.author);
            return (
              <li key={connection.token} className="art-connections__item" data-testid="art-connection">
                <Link
                  to={cellPath(next.token, 'details')}
                  className="art-connections__thumb"
                  aria-label={`Details of ${title}${artist ? ` by ${artist}` : ''}`}
                >
                  {next.art.picture ? (
                    <img src={next.art.picture.thumb} alt="" width={88} height={88} loading="lazy" decoding="async" />
                  ) : (
                    <span className="art-connections__no-thumb" aria-hidden="true" />
                  )}
                </Link>
                <div className="art-connections__text">
                  <p className="art-connections__title">
                    {title}
                    {next.art.year !== null && <span className="art-connections__year">, {next.art.year}</span>}
                    {artist && <span className="art-connections__artist"> · {artist}</span>}
                  </p>
                  {connection.description.trim() !== '' && (
                    <p className="art-connections__description">{connection.description}</p>
                  )}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
