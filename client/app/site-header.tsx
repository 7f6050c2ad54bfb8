/** The header (spec §2): the site's name and its menu, each item shown to its audience. The full menu comes later. */
import { Link, NavLink } from 'react-router';
import type { CurrentUser } from '#shared/api-types.ts';
import { isAdmin } from './current-user.ts';

type Audience = 'everyone' | 'guest' | 'user' | 'admin';

interface MenuItem {
  label: string;
  to: string;
  audience: Audience;
  /** A plain link outside the app's routing. */
  external?: boolean;
}

const MENU: MenuItem[] = [
  { label: 'learn', to: '/learn', audience: 'everyone' },
  { label: 'observe', to: '/observe', audience: 'everyone' },
  { label: 'participate', to: '/participate', audience: 'guest' },
  { label: 'contact', to: '/contact', audience: 'everyone' },
  { label: 'login', to: '/login', audience: 'guest' },
  { label: 'register', to: '/registration', audience: 'guest' },
  { label: 'profile', to: '/profile', audience: 'user' },
  { label: 'dashboard', to: '/admin/dashboard', audience: 'admin', external: true },
];

export function isVisibleTo(audience: Audience, user: CurrentUser | null): boolean {
  switch (audience) {
    case 'everyone':
      return true;
    case 'guest':
      return user === null;
    case 'user':
      return user !== null;
    case 'admin':
      return isAdmin(user);
  }
}

export function SiteHeader({ user, fixed }: { user: CurrentUser | null; fixed: boolean }) {
  return (
    <header className={fixed ? 'site-header is-fixed' : 'site-header'}>
      <Link to="/" className="site-header__brand" aria-label="Gallery Tree, welcome page">
        <svg className="site-header__mark" viewBox="0 0 32 32" aria-hidden="true">
          <rect x="13" y="3" width="6" height="6" rx="1" />
          <rect x="6" y="10" width="6" height="6" rx="1" />
          <rect x="13" y="10" width="6" height="6" rx="1" />
          <rect x="20" y="10" width="6" height="6" rx="1" />
          <rect x="13" y="17" width="6" height="6" rx="1" />
          <rect x="13" y="24" width="6" height="5" rx="1" className="site-header__mark-root" />
        </svg>
        <span>gallery tree.</span>
      </Link>
      <nav className="site-header__nav" aria-label="Main">
        <ul>
          {MENU.filter((item) => isVisibleTo(item.audience, user)).map((item) => (
            <li key={item.to}>
              {item.external ? (
                <a href={item.to}>{item.label}</a>
              ) : (
                <NavLink to={item.to}>{item.label}</NavLink>
              )}
            </li>
          ))}
        </ul>
      </nav>
    </header>
  );
}
