import { describe, expect, it } from 'vitest';
import { cellPath, extendPath, isDeepLink, profilePath } from '#shared/paths.ts';

describe('the paths to a square and a profile', () => {
  it('builds each page of a square', () => {
    expect(cellPath('abc', 'tree')).toBe('/observe?cell=abc');
    expect(cellPath('abc', 'details')).toBe('/observe/cell/abc/details');
    expect(cellPath('abc', 'edit')).toBe('/observe/cell/abc/edit');
    expect(extendPath('abc', 'r1')).toBe('/observe/cell/abc/reserve/r1/extend');
    expect(profilePath('u1')).toBe('/profile/u1');
  });

  it('encodes a token that is not plain, so it stays one path segment', () => {
    expect(cellPath('a/b?c', 'details')).toBe('/observe/cell/a%2Fb%3Fc/details');
    expect(cellPath('a&b', 'tree')).toBe('/observe?cell=a%26b');
    expect(extendPath('a/b', 'x#y')).toBe('/observe/cell/a%2Fb/reserve/x%23y/extend');
    expect(profilePath('u/1')).toBe('/profile/u%2F1');
  });
});

describe('a link to one thing', () => {
  it('is every page a square, a piece, a profile or a reset link has, and the tree opened on a square', () => {
    const split = (path: string) => {
      const url = new URL(path, 'https://gallery.example');
      return isDeepLink(url.pathname, url.search);
    };
    for (const path of [
      cellPath('abc', 'tree'),
      cellPath('abc', 'details'),
      cellPath('abc', 'edit'),
      extendPath('abc', 'r1'),
      profilePath('u1'),
      '/restore-password/tok',
    ])
      expect([path, split(path)]).toEqual([path, true]);
    for (const path of ['/', '/observe', '/observe?row=3&col=-2&zoom=1', '/profile', '/profile?tab=atelier', '/learn'])
      expect([path, split(path)]).toEqual([path, false]);
  });
});
