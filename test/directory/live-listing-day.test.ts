import { describe, expect, it } from 'vitest';
import { liveNewerDay, startsFrom } from '../../src/directory/index.js';
import { AWKWARD_INSTANTS } from '../support/awkward-instants.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Every offset in use, in quarter hours (there are :30 and :45 zones) from -12:00 to +14:00. */
const OFFSETS = Array.from({ length: (26 * 60) / 15 + 1 }, (_, i) => -12 * 60 + i * 15);

/** Where a service at `offsetMinutes` starts listing for `newer=day`, under both readings of "newer than the date". */
function serviceCutoffs(day: string, offsetMinutes: number): { fromMidnight: number; afterTheDay: number } {
  const midnight = Date.parse(`${day}T00:00:00Z`) - offsetMinutes * MINUTE;
  return { fromMidnight: midnight, afterTheDay: midnight + DAY };
}

describe('liveNewerDay', () => {
  // Every quarter hour of two days around a month end, plus the awkward instants.
  const instants = [
    ...AWKWARD_INSTANTS.map((iso) => Date.parse(iso)),
    ...Array.from({ length: 2 * 96 }, (_, i) => Date.parse('2026-11-30T00:00:00Z') + i * 15 * MINUTE),
  ];

  it('asks for a day no service from -12:00 to +14:00 starts after `from`, under either reading', () => {
    const hidden: string[] = [];
    for (const from of instants) {
      const day = liveNewerDay(from);
      for (const offset of OFFSETS) {
        const { fromMidnight, afterTheDay } = serviceCutoffs(day, offset);
        if (fromMidnight > from || afterTheDay > from) {
          hidden.push(`${new Date(from).toISOString()} at ${offset} min: newer=${day}`);
        }
      }
    }
    expect(hidden).toEqual([]);
  });

  it('asks for a day at most three days early, so the listing stays short', () => {
    for (const from of instants) {
      const day = Date.parse(`${liveNewerDay(from)}T00:00:00Z`);
      expect(from - day).toBeLessThanOrEqual(3 * DAY);
    }
  });

  it('names the day from the UTC instant, also across a leap day', () => {
    expect(liveNewerDay(Date.parse('2026-11-23T03:30:00Z'))).toBe('2026-11-21');
    expect(liveNewerDay(Date.parse('2028-03-01T11:59:00Z'))).toBe('2028-02-28');
    expect(liveNewerDay(Date.parse('2028-03-01T12:00:00Z'))).toBe('2028-02-29');
  });
});

describe('startsFrom', () => {
  const from = Date.parse('2026-11-23T03:30:00Z');
  it('keeps events starting at or after the instant, whatever offset their timestamp carries', () => {
    expect(startsFrom({ startsAt: '2026-11-22T19:30:00.000-08:00' }, from)).toBe(true);
    expect(startsFrom({ startsAt: '2026-11-23T17:29:59.999+14:00' }, from)).toBe(false);
    expect(startsFrom({ startsAt: '2026-11-22T15:31:00.000-12:00' }, from)).toBe(true);
  });

  it('drops undated events and unreadable timestamps', () => {
    expect(startsFrom({ startsAt: null }, from)).toBe(false);
    expect(startsFrom({ startsAt: 'soon' }, from)).toBe(false);
  });
});
