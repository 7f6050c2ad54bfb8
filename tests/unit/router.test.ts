/** The app's router without React (client/router/router.ts), on its history in memory. */
import { describe, expect, it } from 'vitest';
import { createMemoryRouter, matchPath, type Location, type RouteDefinition } from '#client/router/router.ts';

const routes: RouteDefinition[] = [
  { path: '/', element: 'welcome', handle: 'welcome' },
  { path: '/profile/:token', element: 'profile', handle: 'profile' },
  { path: '/profile', element: 'edit', handle: 'edit' },
  { path: '/observe/cell/:cellToken/reserve/:reminderToken/extend', element: 'extend', handle: 'extend' },
  { path: '*', element: 'not found', handle: 'notfound' },
];

const where = (location: Location) => `${location.pathname}${location.search}${location.hash}`;

describe('matching an address', () => {
  it('takes each parameter from its segment, decoded', () => {
    expect(matchPath('/profile/:token', '/profile/a%20b')).toEqual({ token: 'a b' });
    expect(matchPath('/observe/cell/:cell/reserve/:reminder/extend', '/observe/cell/c1/reserve/r1/extend')).toEqual({
      cell: 'c1',
      reminder: 'r1',
    });
    // A malformed escape is kept as it came rather than failing the page.
    expect(matchPath('/profile/:token', '/profile/%E0%A4')).toEqual({ token: '%E0%A4' });
  });

  it('ignores case and an ending slash, and needs every segment', () => {
    expect(matchPath('/learn', '/Learn/')).toEqual({});
    expect(matchPath('/learn', '/learn/more')).toBeNull();
    expect(matchPath('/profile/:token', '/profile')).toBeNull();
    expect(matchPath('*', '/any/where')).toEqual({});
  });

  it('picks the first route that matches, in order', () => {
    expect(createMemoryRouter(routes, '/profile').match?.route.handle).toBe('edit');
    expect(createMemoryRouter(routes, '/profile/t1').match).toMatchObject({ params: { token: 't1' } });
    expect(createMemoryRouter(routes, '/nowhere').match?.route.handle).toBe('notfound');
    expect(createMemoryRouter(routes.slice(0, 1), '/nowhere').match).toBeNull();
  });
});

describe('moving', () => {
  it('adds an entry, or replaces it, and tells its listeners each time', () => {
    const router = createMemoryRouter(routes, '/');
    const seen: string[] = [];
    router.subscribe(() => seen.push(where(router.location)));
    const first = router.location.key;
    router.navigate('/profile/t1?tab=art#top');
    expect(router.location).toMatchObject({ pathname: '/profile/t1', search: '?tab=art', hash: '#top' });
    expect(router.location.key).not.toBe(first);
    router.navigate({ search: '?tab=likes' }, { replace: true });
    expect(seen).toEqual(['/profile/t1?tab=art#top', '/profile/t1?tab=likes']);
  });

  it('goes back and forward through its entries; a link to the very address adds none', () => {
    const router = createMemoryRouter(routes, '/');
    router.navigate('/profile');
    router.navigate('/profile');
    router.navigate('?tab=account');
    expect(where(router.location)).toBe('/profile?tab=account');
    router.go(-1);
    expect(where(router.location)).toBe('/profile');
    router.go(-1);
    expect(where(router.location)).toBe('/');
  });

  it('under a base, leaves the base out of the location and puts it into links', () => {
    const router = createMemoryRouter([{ path: '/review/:artToken', element: 'item' }], '/admin/dashboard/review/a1', {
      base: '/admin/dashboard',
    });
    expect(router.location.pathname).toBe('/review/a1');
    expect(router.match?.params).toEqual({ artToken: 'a1' });
    expect(router.href('/review')).toBe('/admin/dashboard/review');
    expect(router.href('/')).toBe('/admin/dashboard');
  });
});

describe('a leave guard', () => {
  it('is asked with both locations, and a refusal keeps the visitor and the history where they were', () => {
    const router = createMemoryRouter(routes, '/profile?tab=art');
    const asked: string[] = [];
    let answer = false;
    const remove = router.guard((from, to) => (asked.push(`${where(from)} → ${where(to)}`), answer));
    router.navigate('/');
    expect(asked).toEqual(['/profile?tab=art → /']);
    expect(where(router.location)).toBe('/profile?tab=art');
    answer = true;
    router.navigate('/');
    expect(where(router.location)).toBe('/');
    remove();
    router.navigate('/profile/t1');
    expect(asked).toHaveLength(2);
  });

  it('refusing Back undoes it: the entry the visitor was at is current again, and Back still leads back after', () => {
    const router = createMemoryRouter(routes, '/');
    router.navigate('/profile');
    let answer = false;
    router.guard(() => answer);
    router.go(-1);
    expect(where(router.location)).toBe('/profile');
    answer = true;
    router.go(-1);
    expect(where(router.location)).toBe('/');
  });
});
