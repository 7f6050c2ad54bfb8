/**
 * The profile client's pure parts: which stored URLs may become links, the address line and MEMBER SINCE, the
 * read-more excerpt, the avatar file's type check, and the cropper's arithmetic (bounds of 5 to 3000 picture
 * pixels, the picture never leaving a gap it could fill, APPLY drawing exactly what the frame shows).
 */
import { describe, expect, it } from 'vitest';
import { AVATAR_LIMITS } from '#shared/constants.ts';
import { hasImageSignature } from '#client/profile/avatar/avatar-file.ts';
import {
  clampView,
  cropSquare,
  initialView,
  moveView,
  placement,
  scaleOf,
  sliderOf,
  zoomRange,
  zoomView,
} from '#client/profile/avatar/crop-geometry.ts';
import { addressLine, displayUrl, httpHref, memberSince } from '#client/profile/profile-text.ts';
import { normalizeLineBreaks as normalizedLines } from '#shared/validation/rules.ts';
import { excerptOf } from '#client/profile/public/read-more.tsx';

describe('links on a profile', () => {
  it('links http and https, and www. as https', () => {
    expect(httpHref('https://ada.example/work')).toBe('https://ada.example/work');
    expect(httpHref('HTTP://ada.example')).toBe('http://ada.example/');
    expect(httpHref('www.ada.example')).toBe('https://www.ada.example/');
  });

  it('never links another scheme, whatever the server stored', () => {
    for (const url of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<b>x</b>',
      'vbscript:x',
      'ftp://x.example',
      '//evil.example',
      'https//x',
      'http://',
      '',
    ]) {
      expect(httpHref(url), url).toBeNull();
    }
  });

  it('shows a link without its scheme', () => {
    expect(displayUrl('https://ada.example/')).toBe('ada.example');
    expect(displayUrl('http://ada.example/work')).toBe('ada.example/work');
  });
});

describe('profile text', () => {
  it('joins the address parts that are there', () => {
    expect(
      addressLine({ city: 'New York', zipcode: '10001', state: 'NY', countryName: 'United States of America' }),
    ).toBe('New York, 10001, NY, United States of America');
    expect(addressLine({ city: '', zipcode: ' ', state: 'Bavaria', countryName: 'Germany' })).toBe('Bavaria, Germany');
  });

  it('writes MEMBER SINCE as MMMM D, YYYY in capitals', () => {
    expect(memberSince(new Date(2026, 10, 2, 12).getTime())).toBe('NOVEMBER 2, 2026');
  });

  it('reads the CR LF line breaks of a multipart form as LF', () => {
    expect(normalizedLines('one\r\ntwo\rthree\nfour')).toBe('one\ntwo\nthree\nfour');
  });

  it('cuts a long text at a word, and leaves a short one whole', () => {
    expect(excerptOf('Two lines\nonly.')).toBeNull();
    const long = 'word '.repeat(200).trim();
    const excerpt = excerptOf(long)!;
    expect(excerpt.endsWith('word…')).toBe(true);
    expect(excerpt.length).toBeLessThan(330);
    expect(excerptOf('one\ntwo\nthree\nfour\nfive')).toBe('one\ntwo\nthree\nfour…');
  });
});

describe('the avatar file check', () => {
  const bytes = (...values: number[]) => new Uint8Array(values);
  it('knows JPEG, PNG and GIF by their first bytes', () => {
    expect(hasImageSignature(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe(true);
    expect(hasImageSignature(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe(true);
    expect(hasImageSignature(new TextEncoder().encode('GIF89a..'))).toBe(true);
  });

  it('refuses text named like an image, WebP and empty files', () => {
    expect(hasImageSignature(new TextEncoder().encode('just some text'))).toBe(false);
    expect(hasImageSignature(new TextEncoder().encode('RIFF\0\0\0\0WEBP'))).toBe(false);
    expect(hasImageSignature(bytes())).toBe(false);
  });
});

describe('the avatar cropper', () => {
  const frame = 200;
  const wide = { width: 800, height: 400 };

  it('starts with the picture filling the frame, centred', () => {
    const view = initialView(wide, frame);
    expect(view).toEqual({ scale: 0.5, offsetX: 0, offsetY: 0 });
    expect(cropSquare(view, wide, frame)).toEqual({ x: 200, y: 0, side: 400 });
  });

  it('keeps the square between 5 and 3000 picture pixels', () => {
    const huge = { width: 6000, height: 4000 };
    const range = zoomRange(huge, frame);
    expect(frame / range.min).toBe(AVATAR_LIMITS.cropMax);
    expect(frame / range.max).toBe(AVATAR_LIMITS.cropMin);
    expect(cropSquare(zoomView(initialView(huge, frame), 1e-6, huge, frame), huge, frame).side).toBe(3000);
    expect(cropSquare(zoomView(initialView(huge, frame), 1e6, huge, frame), huge, frame).side).toBe(5);
  });

  it('zooms out as far as the whole picture, never further', () => {
    const range = zoomRange(wide, frame);
    expect(wide.width * range.min).toBe(frame);
  });

  it('does not let a picture larger than the frame leave a gap, nor a smaller one leave the frame', () => {
    const start = initialView(wide, frame);
    // 800 x 0.5 = 400 wide on screen: 100 px to spare on each side; none vertically.
    expect(moveView(start, 500, 500, wide, frame)).toEqual({ scale: 0.5, offsetX: 100, offsetY: 0 });
    const zoomedOut = zoomView(start, 0.25, wide, frame); // 200 x 100 on screen
    expect(moveView(zoomedOut, 0, -500, wide, frame)).toEqual({ scale: 0.25, offsetX: 0, offsetY: -50 });
  });

  it('keeps the point under the frame centre when zooming', () => {
    const moved = moveView(initialView(wide, frame), 60, 0, wide, frame);
    const before = cropSquare(moved, wide, frame);
    const after = cropSquare(zoomView(moved, 1, wide, frame), wide, frame);
    expect(after.x + after.side / 2).toBeCloseTo(before.x + before.side / 2);
    expect(after.y + after.side / 2).toBeCloseTo(before.y + before.side / 2);
  });

  it('moves the slider on a logarithmic track, end to end', () => {
    const range = zoomRange(wide, frame);
    expect(sliderOf(range.min, range)).toBe(0);
    expect(sliderOf(range.max, range)).toBe(1000);
    expect(scaleOf(sliderOf(0.5, range), range)).toBeCloseTo(0.5, 2);
  });

  it('draws on the 300 px output exactly what the frame shows', () => {
    const view = clampView({ scale: 0.5, offsetX: -100, offsetY: 0 }, wide, frame);
    const square = cropSquare(view, wide, frame);
    const at = placement(view, wide, frame, 300);
    // The crop's top-left picture pixel lands at the output's origin, and its side spans 300 px.
    expect(at.x + (square.x / wide.width) * at.width).toBeCloseTo(0);
    expect(at.y + (square.y / wide.height) * at.height).toBeCloseTo(0);
    expect((square.side / wide.width) * at.width).toBeCloseTo(300);
  });
});
