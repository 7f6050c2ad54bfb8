/**
 * Who may do what (docs/product.md, Who may do what), the one table both the server and the client ask: a guest, a
 * member (artist or observer) and an admin, each before squares and pieces of their own and of others.
 */
import { describe, expect, it } from 'vitest';
import { ArtStatus, CellStatus, Role } from '#shared/domain.ts';
import {
  isAdmin,
  mayEditArt,
  mayFollow,
  mayLikeArt,
  mayLikeUser,
  mayRequestRemoval,
  mayReserve,
  maySubscribe,
  type Asker,
} from '#shared/permissions.ts';

const guest: Asker = null;
const artist: Asker = { role: Role.Artist };
const observer: Asker = { role: Role.Observer };
const admin: Asker = { role: Role.Admin };
const members = [artist, observer];

describe('who is who', () => {
  it('knows an admin by role only', () => {
    expect(isAdmin(admin)).toBe(true);
    expect(isAdmin(artist)).toBe(false);
    expect(isAdmin(observer)).toBe(false);
    expect(isAdmin(guest)).toBe(false);
  });
});

describe('squares', () => {
  it('lets anyone signed in reserve a square or ask to be told when one is free, and no guest', () => {
    for (const asker of [...members, admin]) {
      expect(mayReserve(asker)).toBe(true);
      expect(maySubscribe(asker)).toBe(true);
    }
    expect(mayReserve(guest)).toBe(false);
    expect(maySubscribe(guest)).toBe(false);
  });
});

describe("editing a square's piece", () => {
  const square = (status: number, art: { own: boolean; status: number } | null = null) => ({ status, art });

  it('lets the author edit their piece, whatever the square says, and nobody else but an admin', () => {
    for (const status of Object.values(ArtStatus).filter((s) => s !== ArtStatus.Removed)) {
      const own = square(CellStatus.Reserved, { own: true, status });
      const theirs = square(CellStatus.Available, { own: false, status });
      for (const member of members) {
        expect(mayEditArt(member, own), `own piece, status ${status}`).toBe(true);
        expect(mayEditArt(member, theirs), `another's piece, status ${status}`).toBe(false);
      }
      expect(mayEditArt(admin, theirs)).toBe(true);
      expect(mayEditArt(guest, own)).toBe(false);
    }
  });

  it('treats a removed piece as none: an available square is anyone’s to fill, another square no one’s', () => {
    for (const own of [true, false]) {
      expect(mayEditArt(artist, square(CellStatus.Available, { own, status: ArtStatus.Removed }))).toBe(true);
      expect(mayEditArt(artist, square(CellStatus.Published, { own, status: ArtStatus.Removed }))).toBe(false);
    }
  });

  it('lets any member start a piece in an available square only', () => {
    for (const member of members) {
      expect(mayEditArt(member, square(CellStatus.Available))).toBe(true);
      for (const status of [CellStatus.Pending, CellStatus.Reserved, CellStatus.Published]) {
        expect(mayEditArt(member, square(status)), `square status ${status}`).toBe(false);
      }
    }
    expect(mayEditArt(guest, square(CellStatus.Available))).toBe(false);
    expect(mayEditArt(admin, square(CellStatus.Pending))).toBe(true);
  });
});

describe('likes, follows and removals', () => {
  it("lets a member like another's piece, never their own; a guest none", () => {
    for (const asker of [...members, admin]) {
      expect(mayLikeArt(asker, { own: false })).toBe(true);
      expect(mayLikeArt(asker, { own: true })).toBe(false);
    }
    expect(mayLikeArt(guest, { own: false })).toBe(false);
  });

  it('lets only the author ask for their piece to be removed', () => {
    for (const asker of [...members, admin]) {
      expect(mayRequestRemoval(asker, { own: true })).toBe(true);
      expect(mayRequestRemoval(asker, { own: false })).toBe(false);
    }
    expect(mayRequestRemoval(guest, { own: true })).toBe(false);
  });

  it('lets a member like or follow another member, never themselves; a guest neither', () => {
    for (const may of [mayLikeUser, mayFollow]) {
      for (const asker of [...members, admin]) {
        expect(may(asker, { self: false })).toBe(true);
        expect(may(asker, { self: true })).toBe(false);
      }
      expect(may(guest, { self: false })).toBe(false);
    }
  });
});
