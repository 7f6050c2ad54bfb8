/**
 * The header's menu as data: its items in order, each with its audience, and the rule that says who sees what. No
 * audience: everyone; guest-only: guests; user-only: any signed-in user (admins included); admin-only: admins.
 */
import type { CurrentUser } from '#shared/api-types.ts';
import { isAdmin } from './current-user.ts';

export type Audience = 'guest' | 'user' | 'admin';

export interface MenuItem {
  /** Stable key, used by tests as data-menu-item. */
  key: string;
  label: string;
  to: string;
  audience?: Audience;
  /** A plain link outside the app's routing (the admin dashboard is a page of its own). */
  external?: boolean;
}

export const HEADER_MENU: readonly MenuItem[] = [
  { key: 'learn', label: 'learn', to: '/learn' },
  { key: 'observe', label: 'observe', to: '/observe' },
  { key: 'participate', label: 'participate', to: '/participate', audience: 'guest' },
  { key: 'contact', label: 'contact', to: '/contact' },
  { key: 'login', label: 'login', to: '/login', audience: 'guest' },
  { key: 'register', label: 'register', to: '/registration', audience: 'guest' },
  { key: 'profile', label: 'profile', to: '/profile', audience: 'user' },
  { key: 'dashboard', label: 'dashboard', to: '/admin/dashboard', audience: 'admin', external: true },
];

export const FOOTER_MENU: readonly MenuItem[] = [
  { key: 'learn', label: 'learn', to: '/learn' },
  { key: 'observe', label: 'observe', to: '/observe' },
  { key: 'participate', label: 'participate', to: '/participate', audience: 'guest' },
  { key: 'terms', label: 'terms', to: '/terms' },
  { key: 'privacy', label: 'privacy', to: '/privacy' },
  { key: 'faqs', label: 'faqs', to: '/faqs' },
  { key: 'contact', label: 'contact', to: '/contact' },
];

export function isVisibleTo(audience: Audience | undefined, user: CurrentUser | null): boolean {
  switch (audience) {
    case undefined:
      return true;
    case 'guest':
      return user === null;
    case 'user':
      return user !== null;
    case 'admin':
      return isAdmin(user);
  }
}

export function visibleItems(items: readonly MenuItem[], user: CurrentUser | null): MenuItem[] {
  return items.filter((item) => isVisibleTo(item.audience, user));
}
