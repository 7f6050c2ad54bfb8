/** Not found (spec §2): any path the app does not know. */
import { Link } from 'react-router';
import { usePageTitle } from '#client/app/page-title.ts';

export function NotFoundPage() {
  usePageTitle('not found.');
  return (
    <section className="page page--status">
      <p className="page__code">404</p>
      <h1 className="page__title">not found.</h1>
      <p className="page__lead">There is no page at this address.</p>
      <p>
        <Link to="/">Back to the welcome page</Link> or <Link to="/observe">see the tree</Link>.
      </p>
    </section>
  );
}
