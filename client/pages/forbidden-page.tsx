/** Forbidden: shows 403 and Forbidden; where a visitor without the rights for a page is sent. */
import { Link } from '#client/router/react.tsx';
import { usePageTitle } from '#client/app/page-title.ts';
import { StatusArt } from './status-art.tsx';

export function ForbiddenPage() {
  usePageTitle('forbidden.');
  return (
    <section className="page page--status">
      <StatusArt variant="locked" />
      <p className="page__code">403</p>
      <h1 className="page__title">Forbidden</h1>
      <p className="page__lead">
        This square is not yours to open. If you think it should be, log in with the right account or write to us.
      </p>
      <p className="page__actions">
        <Link to="/" className="button">
          back to welcome.
        </Link>
        <Link to="/contact" className="button button--quiet">
          contact.
        </Link>
      </p>
    </section>
  );
}
