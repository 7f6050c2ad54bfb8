/** Not found: any path the app does not know. */
import { Link } from '#client/router/react.tsx';
import { usePageTitle } from '#client/app/page-title.ts';
import { StatusArt } from './status-art.tsx';

export function NotFoundPage() {
  usePageTitle('not found.');
  return (
    <section className="page page--status">
      <StatusArt variant="missing" />
      <p className="page__code">404</p>
      <h1 className="page__title">not found.</h1>
      <p className="page__lead">Nothing grows at this address. It may have moved, or the link may be mistyped.</p>
      <p className="page__actions">
        <Link to="/" className="button">
          back to welcome.
        </Link>
        <Link to="/observe" className="button button--quiet">
          observe the tree.
        </Link>
      </p>
    </section>
  );
}
