import { describe, expect, it } from 'vitest';
import { cellPath, extendPath, profilePath } from '#shared/paths.ts';

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
