/** Welcome: a short introduction and the ways in: learn, the tree, and participate (for guests only). */
import { Link } from '#client/router/react.tsx';
import { LogoMark } from '#client/app/logo-mark.tsx';
import { useCurrentUser } from '#client/app/current-user.ts';
import { usePageTitle } from '#client/app/page-title.ts';
import { WELCOME } from './copy/welcome.ts';

export function WelcomePage() {
  usePageTitle('');
  const { user } = useCurrentUser();
  return (
    <div className="welcome">
      <section className="welcome__hero">
        <div className="welcome__intro">
          <p className="eyebrow">{WELCOME.eyebrow}</p>
          <h1 className="page__title welcome__title">welcome{user ? `, ${user.firstname}` : ''}.</h1>
          <p className="page__lead">{WELCOME.lead}</p>
          <p className="welcome__body">{WELCOME.body}</p>
          <ul className="welcome-links">
            <li>
              <Link to="/observe" className="button" data-welcome-link="observe">
                observe the tree.
              </Link>
            </li>
            <li>
              <Link to="/learn" className="button button--quiet" data-welcome-link="learn">
                learn.
              </Link>
            </li>
            {!user && (
              <li>
                <Link to="/participate" className="button button--quiet" data-welcome-link="participate">
                  participate.
                </Link>
              </li>
            )}
          </ul>
        </div>
        <figure className="welcome__art" aria-hidden="true">
          <div className="welcome__frame">
            <LogoMark className="welcome__mark" />
          </div>
          <figcaption className="welcome__caption">
            <span className="welcome__caption-title">The tree, in miniature.</span> Fourteen squares, one seed, every
            piece touching the next.
          </figcaption>
        </figure>
      </section>
      <ul className="welcome-facts" aria-label="Gallery Tree in numbers">
        {WELCOME.facts.map((fact) => (
          <li key={fact.label} className="welcome-fact">
            <span className="welcome-fact__figure">{fact.figure}</span>
            <span className="welcome-fact__label">{fact.label}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
