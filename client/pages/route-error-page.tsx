/** Shown when a route throws: a plain apology and a way back, never a blank page. */
import { Link, useRouteError } from '#client/router/react.tsx';

export function RouteErrorPage() {
  const error = useRouteError();
  const detail = error instanceof Error ? error.message : null;
  return (
    <section className="page page--status">
      <h1 className="page__title">something went wrong.</h1>
      <p className="page__lead">This page could not be shown. Reloading usually helps.</p>
      {detail && <p className="page__detail">{detail}</p>}
      <p>
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Reload
        </button>{' '}
        <Link to="/">Back to the welcome page</Link>
      </p>
    </section>
  );
}
