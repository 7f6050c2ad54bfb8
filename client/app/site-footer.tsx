/** The footer (spec §2): the site's name and a short menu. */
import { Link } from 'react-router';
import type { CurrentUser } from '#shared/api-types.ts';

const LINKS: { label: string; to: string; guestsOnly?: boolean }[] = [
  { label: 'learn', to: '/learn' },
  { label: 'observe', to: '/observe' },
  { label: 'participate', to: '/participate', guestsOnly: true },
  { label: 'terms', to: '/terms' },
  { label: 'privacy', to: '/privacy' },
  { label: 'faqs', to: '/faqs' },
  { label: 'contact', to: '/contact' },
];

export function SiteFooter({ user }: { user: CurrentUser | null }) {
  return (
    <footer className="site-footer">
      <p className="site-footer__brand">gallery tree.</p>
      <nav aria-label="Footer">
        <ul className="site-footer__links">
          {LINKS.filter((link) => !link.guestsOnly || user === null).map((link) => (
            <li key={link.to}>
              <Link to={link.to}>{link.label}</Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="site-footer__note">A community gallery that grows one square at a time.</p>
    </footer>
  );
}
