/**
 * The frame of a page that is mostly one form (login, register, reset and restore password): the title ("login.",
 * also the tab's), a short lead, the form on a raised card, and the links that lead elsewhere.
 */
import type { ReactNode } from 'react';
import { usePageTitle } from '#client/app/page-title.ts';
import './forms.css';

export function FormPage({
  title,
  lead,
  links,
  children,
}: {
  title: string;
  lead?: ReactNode;
  links?: ReactNode;
  children: ReactNode;
}) {
  usePageTitle(title);
  return (
    <section className="form-page">
      <h1 className="page__title form-page__title">{title}</h1>
      {lead && <p className="form-page__lead">{lead}</p>}
      <div className="form-card">{children}</div>
      {links && <p className="form-page__links">{links}</p>}
    </section>
  );
}
