/**
 * Manage profile ('manage profile.'): the tab host, tabs by role (docs/product.md, Who may do what), each tab's panel
 * in client/profile/manage. The selected tab lives in the address (?tab=account) so it can be linked.
 */
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParams } from '#client/router/react.tsx';
import type { CurrentUser } from '#shared/api-types.ts';
import { isObserver, useCurrentUser } from '#client/app/current-user.ts';
import { usePageTitle } from '#client/app/page-title.ts';
import { AccountPanel } from '#client/profile/manage/account-panel.tsx';
import { AtelierPanel } from '#client/profile/manage/atelier-panel.tsx';
import { FollowingPanel } from '#client/profile/manage/following-panel.tsx';
import { ProfilePanel } from '#client/profile/manage/profile-panel.tsx';
import '#client/profile/manage/manage-profile.css';

type TabName = 'profile' | 'account' | 'atelier' | 'following';

const LABELS: Record<TabName, string> = {
  profile: 'Profile',
  account: 'Account',
  atelier: 'Atelier',
  following: 'Following',
};

function tabsFor(user: CurrentUser): TabName[] {
  return isObserver(user) ? ['account', 'following'] : ['profile', 'account', 'atelier', 'following'];
}

export function EditProfilePage() {
  usePageTitle('manage profile.');
  const { user } = useCurrentUser();
  const [search, setSearch] = useSearchParams();
  const baseId = useId();
  const tabRefs = useRef<Partial<Record<TabName, HTMLButtonElement | null>>>({});
  // Guests see no content (the route guard sends them to welcome).
  if (!user) return null;

  const tabs = tabsFor(user);
  const requested = search.get('tab') as TabName | null;
  const selected = requested && tabs.includes(requested) ? requested : tabs[0]!;
  const select = (tab: TabName, focus = false) => {
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        next.set('tab', tab);
        return next;
      },
      { replace: true },
    );
    if (focus) tabRefs.current[tab]?.focus();
  };

  // The tab list follows the WAI-ARIA pattern: arrows, Home and End move between tabs.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.indexOf(selected);
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    select(tabs[(target + tabs.length) % tabs.length]!, true);
  };

  return (
    <section className="page manage-profile">
      <h1 className="page__title">manage profile.</h1>
      {/* eslint-disable-next-line jsx-a11y/interactive-supports-focus -- a tablist with a roving tabindex: its tabs take the focus */}
      <div className="tabs" role="tablist" aria-label="Manage profile" onKeyDown={onKeyDown}>
        {tabs.map((tab) => (
          <button
            key={tab}
            ref={(element) => {
              tabRefs.current[tab] = element;
            }}
            type="button"
            role="tab"
            id={`${baseId}-tab-${tab}`}
            className="tabs__tab"
            aria-selected={tab === selected}
            aria-controls={`${baseId}-panel-${tab}`}
            tabIndex={tab === selected ? 0 : -1}
            onClick={() => select(tab)}
          >
            {LABELS[tab]}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-panel-${selected}`}
        aria-labelledby={`${baseId}-tab-${selected}`}
        tabIndex={-1}
      >
        {panelOf(selected, user)}
      </div>
    </section>
  );
}

function panelOf(tab: TabName, user: CurrentUser): ReactNode {
  switch (tab) {
    case 'profile':
      return <ProfilePanel key={user.token} user={user} />;
    case 'account':
      return <AccountPanel key={user.token} user={user} />;
    case 'atelier':
      return <AtelierPanel user={user} />;
    case 'following':
      return <FollowingPanel user={user} />;
  }
}
