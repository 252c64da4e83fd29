import { describe, expect, it } from 'vitest';
import type { DigestRecurrence } from '../../src/schedule/schedule-options.js';
import {
  capWindowAt,
  formatLocal,
  isKnownZone,
  latestDigestAt,
  nextDigestAt,
  quietWindowAt,
} from '../../src/schedule/schedule-slots.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const NY = 'America/New_York';
const daily = (hour: number, minute = 0): DigestRecurrence => ({ every: 'daily', at: { hour, minute } });

/** Every slot of `recurrence` from `fromIso` on, `count` of them, as UTC ISO strings. */
function slots(recurrence: DigestRecurrence, zone: string, fromIso: string, count: number): string[] {
  const out: string[] = [];
  let after = at(fromIso);
  for (let i = 0; i < count; i += 1) {
    after = nextDigestAt(recurrence, zone, after);
    out.push(iso(after));
  }
  return out;
}

describe('digest slots in a zone with DST', () => {
  it('runs a 09:00 New York digest at 09:00 local on both sides of the spring switch', () => {
    // 8 March 2026: clocks go from 02:00 EST to 03:00 EDT.
    expect(slots(daily(9), NY, '2026-03-06T15:00:00Z', 4)).toEqual([
      '2026-03-07T14:00:00.000Z', // Sat 09:00 EST
      '2026-03-08T13:00:00.000Z', // Sun 09:00 EDT
      '2026-03-09T13:00:00.000Z',
      '2026-03-10T13:00:00.000Z',
    ]);
  });

  it('runs a 09:00 New York digest at 09:00 local on both sides of the autumn switch', () => {
    // 1 November 2026: clocks go from 02:00 EDT back to 01:00 EST.
    expect(slots(daily(9), NY, '2026-10-30T15:00:00Z', 3)).toEqual([
      '2026-10-31T13:00:00.000Z', // 09:00 EDT
      '2026-11-01T14:00:00.000Z', // 09:00 EST
      '2026-11-02T14:00:00.000Z',
    ]);
  });

  it('runs a 02:30 schedule once on the spring-forward night, just after the gap (03:30 EDT)', () => {
    expect(slots(daily(2, 30), NY, '2026-03-07T12:00:00Z', 3)).toEqual([
      '2026-03-08T07:30:00.000Z', // 02:30 does not exist: 03:30 EDT
      '2026-03-09T06:30:00.000Z', // 02:30 EDT
      '2026-03-10T06:30:00.000Z',
    ]);
  });

  it('runs a 01:30 schedule once on the fall-back night, at its first occurrence (EDT)', () => {
    expect(slots(daily(1, 30), NY, '2026-10-31T12:00:00Z', 3)).toEqual([
      '2026-11-01T05:30:00.000Z', // 01:30 EDT; 01:30 EST an hour later is skipped
      '2026-11-02T06:30:00.000Z',
      '2026-11-03T06:30:00.000Z',
    ]);
  });

  it('agrees with itself: the latest slot at a slot is that slot, and just before it the previous one', () => {
    for (const slot of slots(daily(1, 30), NY, '2026-10-30T00:00:00Z', 5)) {
      const time = at(slot);
      expect(latestDigestAt(daily(1, 30), NY, time)).toBe(time);
      expect(nextDigestAt(daily(1, 30), NY, latestDigestAt(daily(1, 30), NY, time - 1))).toBe(time);
    }
  });

  it('keeps 29 February and month and year ends', () => {
    expect(slots(daily(23, 30), 'UTC', '2028-02-28T23:45:00Z', 2)).toEqual([
      '2028-02-29T23:30:00.000Z',
      '2028-03-01T23:30:00.000Z',
    ]);
    expect(slots(daily(0, 5), 'Asia/Tokyo', '2026-12-31T14:00:00Z', 1)).toEqual([
      '2026-12-31T15:05:00.000Z', // 00:05 on 1 January in Tokyo
    ]);
  });

  it('runs a weekly digest on its local weekday, even where that is another UTC day', () => {
    const monday9: DigestRecurrence = { every: 'weekly', day: 'mon', at: { hour: 9, minute: 0 } };
    // Monday 09:00 in Auckland (+13:00) is Sunday 20:00 UTC.
    expect(slots(monday9, 'Pacific/Auckland', '2026-11-23T00:00:00Z', 2)).toEqual([
      '2026-11-29T20:00:00.000Z',
      '2026-12-06T20:00:00.000Z',
    ]);
    expect(latestDigestAt(monday9, 'Pacific/Auckland', at('2026-11-29T19:59:00Z'))).toBe(
      at('2026-11-22T20:00:00Z'),
    );
  });

  it('runs an hourly digest on the local hour, which in Kolkata is half past the UTC hour', () => {
    expect(slots({ every: 'hourly' }, 'Asia/Kolkata', '2026-11-23T10:00:00Z', 2)).toEqual([
      '2026-11-23T10:30:00.000Z',
      '2026-11-23T11:30:00.000Z',
    ]);
  });

  it('runs an hourly digest every real hour through the repeated hour of a fall-back night', () => {
    expect(slots({ every: 'hourly' }, NY, '2026-11-01T04:30:00Z', 3)).toEqual([
      '2026-11-01T05:00:00.000Z', // 01:00 EDT
      '2026-11-01T06:00:00.000Z', // 01:00 EST
      '2026-11-01T07:00:00.000Z', // 02:00 EST
    ]);
  });
});

describe('quiet hours', () => {
  const night = { from: { hour: 22, minute: 0 }, to: { hour: 7, minute: 0 } };

  it('spans midnight: a time after midnight belongs to the window that started the evening before', () => {
    expect(quietWindowAt(night, 'Europe/Berlin', at('2026-11-23T03:00:00Z'))).toEqual({
      start: at('2026-11-22T21:00:00Z'),
      end: at('2026-11-23T06:00:00Z'),
    });
    expect(quietWindowAt(night, 'Europe/Berlin', at('2026-11-23T06:00:00Z'))).toBeUndefined();
    expect(quietWindowAt(night, 'Europe/Berlin', at('2026-11-23T21:00:00Z'))?.start).toBe(
      at('2026-11-23T21:00:00Z'),
    );
  });

  it('holds a window within one day, and none of zero length', () => {
    const lunch = { from: { hour: 12, minute: 0 }, to: { hour: 13, minute: 30 } };
    expect(quietWindowAt(lunch, 'UTC', at('2026-11-23T12:59:00Z'))).toEqual({
      start: at('2026-11-23T12:00:00Z'),
      end: at('2026-11-23T13:30:00Z'),
    });
    expect(quietWindowAt(lunch, 'UTC', at('2026-11-23T11:59:00Z'))).toBeUndefined();
    const none = { from: { hour: 9, minute: 0 }, to: { hour: 9, minute: 0 } };
    expect(quietWindowAt(none, 'UTC', at('2026-11-23T09:00:00Z'))).toBeUndefined();
  });

  it('is an hour shorter on the spring-forward night and an hour longer on the fall-back night', () => {
    const spring = quietWindowAt(night, NY, at('2026-03-08T05:00:00Z'));
    const autumn = quietWindowAt(night, NY, at('2026-11-01T05:00:00Z'));
    expect(((spring?.end ?? 0) - (spring?.start ?? 0)) / 3_600_000).toBe(8);
    expect(((autumn?.end ?? 0) - (autumn?.start ?? 0)) / 3_600_000).toBe(10);
  });
});

describe('cap windows and local text', () => {
  it('gives the local clock hour and the local day, 23 or 25 hours long on DST nights', () => {
    expect(capWindowAt('hour', 'Asia/Kolkata', at('2026-11-23T10:10:00Z'))).toEqual({
      start: at('2026-11-23T09:30:00Z'),
      end: at('2026-11-23T10:30:00Z'),
    });
    const fallBack = capWindowAt('day', NY, at('2026-11-01T12:00:00Z'));
    expect((fallBack.end - fallBack.start) / 3_600_000).toBe(25);
    const springForward = capWindowAt('day', NY, at('2026-03-08T12:00:00Z'));
    expect((springForward.end - springForward.start) / 3_600_000).toBe(23);
  });

  it('writes times in the zone asked for, in English', () => {
    const instant = at('2026-11-23T23:30:00Z');
    expect(formatLocal(instant, 'Asia/Tokyo', 'day-time')).toBe('Tue 24 Nov 08:30');
    expect(formatLocal(instant, 'America/Los_Angeles', 'day')).toBe('Mon 23 Nov');
    expect(formatLocal(instant, 'UTC', 'time')).toBe('23:30');
  });

  it('knows IANA zones and refuses made-up ones', () => {
    expect(isKnownZone('Europe/Berlin')).toBe(true);
    expect(isKnownZone('Europe/Berln')).toBe(false);
    expect(() => nextDigestAt(daily(9), 'Mars/Olympus', 0)).toThrow(/unknown time zone "Mars\/Olympus"/);
  });
});
