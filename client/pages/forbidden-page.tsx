/** Forbidden (spec §2): where a visitor without the rights for a page is sent. */
import { Link } from 'react-router';
import { usePageTitle } from '#client/app/page-title.ts';

export function ForbiddenPage() {
  usePageTitle('forbidden.');
  return (
    <section className="page page--status">
      <p className="page__code">403</p>
      <h1 className="page__title">Forbidden</h1>
      <p className="page__lead">You do not have access to this page.</p>
      <p>
        <Link to="/">Back to the welcome page</Link>
      </p>
    </section>
  );
}
