/**
 * The frame the information pages share: terms, privacy, faqs and contact, each with the side nav of the four, the
 * current page highlighted.
 */
import type { ReactNode } from 'react';
import { NavLink } from '#client/router/react.tsx';
import { usePageTitle } from '#client/app/page-title.ts';

const SIDE_NAV = [
  { key: 'faqs', label: 'faqs.', to: '/faqs' },
  { key: 'contact', label: 'contact.', to: '/contact' },
  { key: 'terms', label: 'terms.', to: '/terms' },
  { key: 'privacy', label: 'privacy.', to: '/privacy' },
] as const;

interface StaticPageProps {
  /** The title, lowercase with a full stop (docs/product.md, Screens and routes), e.g. 'terms.'. */
  title: string;
  eyebrow?: string;
  lead?: ReactNode;
  /** A date line under the title (terms, privacy). */
  updated?: { iso: string; label: string };
  className?: string;
  children: ReactNode;
}

export function StaticPage({ title, eyebrow, lead, updated, className, children }: StaticPageProps) {
  usePageTitle(title);
  return (
    <div className={className ? `static-page ${className}` : 'static-page'}>
      <nav className="side-nav" aria-label="About the gallery">
        <p className="side-nav__heading">about the gallery</p>
        <ul className="side-nav__list">
          {SIDE_NAV.map((item) => (
            <li key={item.key}>
              <NavLink to={item.to} className="side-nav__link" data-side-nav={item.key}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <article className="static-page__body">
        <header className="static-page__header">
          {eyebrow && <p className="eyebrow">{eyebrow}</p>}
          <h1 className="page__title">{title}</h1>
          {updated && (
            <p className="static-page__updated">
              Last updated <time dateTime={updated.iso}>{updated.label}</time>
            </p>
          )}
          {lead && <p className="page__lead">{lead}</p>}
        </header>
        {children}
      </article>
    </div>
  );
}
