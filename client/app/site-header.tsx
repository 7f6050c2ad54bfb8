/**
 * The header: the mark, the signed-in visitor's strip, and a toggle that opens a collapsible menu of the items their
 * audience may see (site-menu.ts); how the open menu behaves is decision 007's.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useNavigate } from '#client/router/react.tsx';
import type { CurrentUser } from '#shared/api-types.ts';
import { Avatar } from './avatar.tsx';
import { useLogout } from './current-user.ts';
import { LogoMark } from './logo-mark.tsx';
import { HEADER_MENU, visibleItems } from './site-menu.ts';

interface SiteHeaderProps {
  user: CurrentUser | null;
  fixed: boolean;
  menuOpen: boolean;
  onMenuOpenChange: (open: boolean) => void;
}

/**
 * Closes the menu on every window resize, a change of height alone included. While it is open the routed view is
 * hidden and the page is too short to scroll, so a phone's sliding address bar does not close it under a finger.
 */
function useCloseOnResize(open: boolean, close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const onResize = () => close();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    window.addEventListener('resize', onResize);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('resize', onResize);
      window.removeEventListener('keydown', onKey);
    };
  }, [open, close]);
}

export function SiteHeader({ user, fixed, menuOpen, onMenuOpenChange }: SiteHeaderProps) {
  const panelId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const close = useCallback(() => onMenuOpenChange(false), [onMenuOpenChange]);
  useCloseOnResize(menuOpen, close);

  // Opening moves focus into the menu; closing it from inside returns focus to the toggle.
  const wasOpen = useRef(menuOpen);
  useEffect(() => {
    if (menuOpen && !wasOpen.current) panelRef.current?.querySelector<HTMLElement>('a, button')?.focus();
    if (!menuOpen && wasOpen.current && panelRef.current?.contains(document.activeElement)) toggleRef.current?.focus();
    wasOpen.current = menuOpen;
  }, [menuOpen]);

  const items = visibleItems(HEADER_MENU, user);
  const classes = ['site-header', fixed && 'is-fixed', menuOpen && 'is-open'].filter(Boolean).join(' ');

  return (
    <header className={classes}>
      <div className="site-header__bar">
        <Link to="/" className="brand" aria-label="Gallery Tree, welcome page" onClick={close}>
          <LogoMark className="brand__mark" variant="compact" />
          <span className="brand__name">gallery tree.</span>
        </Link>
        {user && !menuOpen && (
          <Link to="/profile" className="user-strip" data-testid="user-strip" title="Manage your profile">
            <Avatar image={user.image} name={user.firstname} className="user-strip__avatar" decorative />
            <span className="user-strip__name">{user.firstname}</span>
          </Link>
        )}
        <button
          ref={toggleRef}
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls={panelId}
          onClick={() => onMenuOpenChange(!menuOpen)}
        >
          <span className="menu-toggle__label">{menuOpen ? 'close' : 'menu'}</span>
          <span className="menu-toggle__icon" aria-hidden="true">
            <span />
            <span />
            <span />
            <span />
          </span>
        </button>
      </div>
      <div ref={panelRef} id={panelId} className="menu-panel" hidden={!menuOpen} data-testid="menu-panel">
        <div className="menu-panel__inner">
          <nav className="menu-panel__nav" aria-label="Main">
            <ul className="menu-panel__list">
              {items.map((item, index) => (
                <li key={item.key} className="menu-panel__item">
                  {item.external ? (
                    <a className="menu-link" href={item.to} data-menu-item={item.key} onClick={close}>
                      <span className="menu-link__index" aria-hidden="true">
                        {String(index + 1).padStart(2, '0')}
                      </span>
                      {item.label}
                    </a>
                  ) : (
                    <NavLink className="menu-link" to={item.to} data-menu-item={item.key} onClick={close}>
                      <span className="menu-link__index" aria-hidden="true">
                        {String(index + 1).padStart(2, '0')}
                      </span>
                      {item.label}
                    </NavLink>
                  )}
                </li>
              ))}
            </ul>
          </nav>
          <aside className="menu-panel__aside">{user ? <SignedIn user={user} onDone={close} /> : <GuestNote />}</aside>
        </div>
      </div>
    </header>
  );
}

function GuestNote() {
  return (
    <>
      <p className="menu-panel__eyebrow">a free community gallery</p>
      <p className="menu-panel__note">
        One square, one piece, every piece connected. Reserving a square costs nothing.
      </p>
    </>
  );
}

function SignedIn({ user, onDone }: { user: CurrentUser; onDone: () => void }) {
  const { logout, isPending } = useLogout();
  const navigate = useNavigate();
  const [failed, setFailed] = useState(false);
  const onLogout = async () => {
    setFailed(false);
    try {
      await logout();
      onDone();
      navigate('/', { replace: true });
    } catch {
      setFailed(true);
    }
  };
  return (
    <>
      <p className="menu-panel__eyebrow">signed in as</p>
      <p className="menu-panel__who">
        <Avatar image={user.image} name={user.firstname} className="menu-panel__avatar" decorative />
        <span>
          {user.firstname} {user.lastname}
        </span>
      </p>
      <button
        type="button"
        className="button button--on-dark"
        data-menu-item="logout"
        onClick={() => void onLogout()}
        disabled={isPending}
      >
        {isPending ? 'logging out…' : 'log out'}
      </button>
      {failed && (
        <p className="menu-panel__error" role="alert">
          We could not log you out just now. Please try again.
        </p>
      )}
    </>
  );
}
