/** `?at=YYYY-MM-DD` in the tree page's address: the end of that UTC day, or nothing for anything else. */
import { describe, expect, it } from 'vitest';
import { formatReplayDay, formatTreeUrl, parseReplayDay, parseTreeUrl, replayDayOf } from '#shared/tree/tree-url.ts';

describe('the replay day in the address', () => {
  it('reads a day as its last millisecond, UTC', () => {
    expect(parseReplayDay('?at=2025-03-09')).toBe(Date.UTC(2025, 2, 10) - 1);
    expect(replayDayOf(parseReplayDay('?at=2024-02-29')!)).toBe('2024-02-29');
  });

  it('reads nothing from a missing, malformed or impossible day', () => {
    for (const search of [
      '',
      '?at=',
      '?at=2025-3-9',
      '?at=2025-02-30',
      '?at=2025-13-01',
      '?at=yesterday',
      '?at=2025-03-09T10:00',
    ]) {
      expect(parseReplayDay(search)).toBeNull();
    }
  });

  it('writes the day beside the view and the view beside the day', () => {
    const withDay = formatReplayDay('?row=3&col=-2&zoom=1.5', Date.UTC(2025, 5, 1, 23, 59));
    expect(new URLSearchParams(withDay).get('at')).toBe('2025-06-01');
    expect(parseTreeUrl(withDay)).toEqual({ kind: 'position', row: 3, column: -2, scale: 1.5 });
    const moved = formatTreeUrl(withDay, { row: 7, column: 1, scale: 1 });
    expect(parseReplayDay(moved)).toBe(Date.UTC(2025, 5, 2) - 1);
    expect(formatReplayDay(moved, null)).toBe('?row=7&col=1&zoom=1');
    expect(formatReplayDay('?at=2025-06-01', null)).toBe('');
  });

  it('leaves a day alone as no view at all', () => {
    expect(parseTreeUrl('?at=2025-06-01')).toEqual({ kind: 'none' });
  });
});
