/** Welcome (spec §2): a short introduction and the ways in: learn, the tree, and participate for guests. */
import { Link } from 'react-router';
import { useCurrentUser } from '#client/app/current-user.ts';
import { usePageTitle } from '#client/app/page-title.ts';

export function WelcomePage() {
  usePageTitle('');
  const { user } = useCurrentUser();
  return (
    <section className="page page--welcome">
      <h1 className="page__title">welcome.</h1>
      <p className="page__lead">
        Gallery Tree is a community art gallery shaped as a growing tree of squares. Every square holds one piece,
        and every piece connects to its neighbours — so the tree grows only as fast as its artists do.
      </p>
      <p>
        Wander the tree, open any piece, and when you are ready, reserve a square of your own. Taking part is free.
      </p>
      <ul className="welcome-links">
        <li>
          <Link to="/learn" className="button button--quiet">
            learn.
          </Link>
        </li>
        <li>
          <Link to="/observe" className="button">
            observe the tree.
          </Link>
        </li>
        {!user && (
          <li>
            <Link to="/participate" className="button button--quiet">
              participate.
            </Link>
          </li>
        )}
      </ul>
    </section>
  );
}
