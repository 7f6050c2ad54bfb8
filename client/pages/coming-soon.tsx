/** The honest panel of a page that is not built yet: its title in the spec's style and one plain sentence. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { usePageTitle } from '#client/app/page-title.ts';

export function ComingSoon({ title, children }: { title: string; children?: ReactNode }) {
  usePageTitle(title);
  return (
    <section className="page">
      <h1 className="page__title">{title}</h1>
      <p className="page__lead">This page is coming soon.</p>
      {children ?? (
        <p>
          Meanwhile, the <Link to="/observe">tree</Link> is open to everyone.
        </p>
      )}
    </section>
  );
}
