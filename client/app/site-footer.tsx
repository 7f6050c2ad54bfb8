/**
 * The footer: the logo text, the gallery's addresses and a short menu. The social links exist as
 * data only (site-menu.ts).
 */
import { Link } from '#client/router/react.tsx';
import type { CurrentUser } from '#shared/api-types.ts';
import { ContactDetails } from './contact-details.tsx';
import { LogoMark } from './logo-mark.tsx';
import { FOOTER_MENU, visibleItems } from './site-menu.ts';

export function SiteFooter({ user, hidden = false }: { user: CurrentUser | null; hidden?: boolean }) {
  return (
    <footer className="site-footer" hidden={hidden}>
      <div className="site-footer__inner">
        <div className="site-footer__brand">
          <LogoMark className="site-footer__mark" variant="compact" />
          <div>
            <p className="site-footer__name">gallery tree.</p>
            <p className="site-footer__note">A free community gallery that grows one square at a time.</p>
            <ContactDetails className="site-footer__contact" />
          </div>
        </div>
        <nav aria-label="Footer" className="site-footer__nav">
          <ul className="site-footer__links">
            {visibleItems(FOOTER_MENU, user).map((item) => (
              <li key={item.key}>
                <Link to={item.to} data-footer-item={item.key}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </footer>
  );
}
