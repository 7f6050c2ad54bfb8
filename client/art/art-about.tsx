/** The collapsible block of the details page: the piece's description, then the artist's picture and description. */
import { personName } from '#shared/people.ts';
import { useId, useState } from 'react';
import { Link } from '#client/router/react.tsx';
import type { ArtAuthor } from '#shared/art-api.ts';
import { Avatar } from '#client/app/avatar.tsx';
import { profilePath } from '#shared/paths.ts';

export function ArtAbout({ description, author }: { description: string; author: ArtAuthor }) {
  const [open, setOpen] = useState(true);
  const bodyId = useId();
  const authorName = personName(author);
  return (
    <section className="art-about" data-testid="art-about">
      <h2 className="art-about__heading">
        <button
          type="button"
          className="art-about__toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen(!open)}
        >
          <span>About this piece</span>
          <span className="art-about__chevron" aria-hidden="true" />
        </button>
      </h2>
      <div id={bodyId} className="art-about__body" hidden={!open}>
        <p className="art-about__text" data-testid="art-description">
          {description.trim() !== '' ? description : 'The artist has not described this piece yet.'}
        </p>
        <div className="art-about__artist">
          <Link to={profilePath(author.token)} className="art-about__avatar-link" tabIndex={-1} aria-hidden="true">
            <Avatar image={author.image} name={authorName} className="art-about__avatar" decorative />
          </Link>
          <div>
            <p className="art-about__artist-name">
              <Link to={profilePath(author.token)}>{authorName || 'The artist'}</Link>
            </p>
            {author.description.trim() !== '' && <p className="art-about__artist-text">{author.description}</p>}
          </div>
        </div>
      </div>
    </section>
  );
}
