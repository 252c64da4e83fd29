import { DateTime } from 'luxon';
import type { DigestRecurrence, LocalTime, QuietHours, Weekday } from './schedule-options.js';
import { WEEKDAYS } from './schedule-options.js';

/**
 * Wall-clock time in an IANA zone ↔ instants, for schedules that must keep their local time on
 * both sides of a DST switch. All calendar arithmetic is luxon's; this file only decides what a
 * schedule means on the two nights a year when a wall time is missing or repeated:
 *
 * - a wall time that does not exist (02:30 on a spring-forward night) happens once, at the first
 *   instant after the gap (03:30 local): a schedule is never skipped;
 * - a wall time that happens twice (01:30 on a fall-back night) happens once, at its first
 *   occurrence: a schedule never runs twice.
 *
 * Every function takes and returns epoch milliseconds; the process's own TZ never matters.
 */

export interface Interval {
  /** Epoch ms, inclusive. */
  start: number;
  /** Epoch ms, exclusive. */
  end: number;
}

/** The first digest slot strictly after `afterMs`. */
export function nextDigestAt(recurrence: DigestRecurrence, zone: string, afterMs: number): number {
  const local = inZone(afterMs, zone);
  if (recurrence.every === 'hourly') return local.startOf('hour').plus({ hours: 1 }).toMillis();
  // Eight days always hold the next slot of a weekly schedule, two that of a daily one.
  for (let days = 0; days <= 8; days += 1) {
    const day = local.startOf('day').plus({ days });
    if (recurrence.every === 'weekly' && weekdayOf(day) !== recurrence.day) continue;
    const slot = wallTimeOn(day, recurrence.at);
    if (slot > afterMs) return slot;
  }
  throw new Error(`no digest slot within 8 days of ${new Date(afterMs).toISOString()} in ${zone}`);
}

/** The latest digest slot at or before `atMs`. */
export function latestDigestAt(recurrence: DigestRecurrence, zone: string, atMs: number): number {
  const local = inZone(atMs, zone);
  if (recurrence.every === 'hourly') return local.startOf('hour').toMillis();
  for (let days = 0; days <= 8; days += 1) {
    const day = local.startOf('day').minus({ days });
    if (recurrence.every === 'weekly' && weekdayOf(day) !== recurrence.day) continue;
    const slot = wallTimeOn(day, recurrence.at);
    if (slot <= atMs) return slot;
  }
  throw new Error(`no digest slot within 8 days before ${new Date(atMs).toISOString()} in ${zone}`);
}

/**
 * The quiet window holding `atMs`, or undefined outside quiet hours. A window whose end is not
 * after its start (22:00-07:00) spans midnight and ends the next local day.
 */
export function quietWindowAt(quiet: QuietHours, zone: string, atMs: number): Interval | undefined {
  const today = inZone(atMs, zone).startOf('day');
  const spansMidnight = minutesOf(quiet.to) <= minutesOf(quiet.from);
  if (minutesOf(quiet.to) === minutesOf(quiet.from)) return undefined;
  // A window that spans midnight and holds `atMs` may have started yesterday.
  for (const startDay of spansMidnight ? [today.minus({ days: 1 }), today] : [today]) {
    const start = wallTimeOn(startDay, quiet.from);
    const end = wallTimeOn(spansMidnight ? startDay.plus({ days: 1 }) : startDay, quiet.to);
    if (start <= atMs && atMs < end) return { start, end };
  }
  return undefined;
}

/** The local clock hour or day holding `atMs` (a volume cap's window). */
export function capWindowAt(period: 'hour' | 'day', zone: string, atMs: number): Interval {
  const start = inZone(atMs, zone).startOf(period);
  const next = period === 'hour' ? start.plus({ hours: 1 }) : start.plus({ days: 1 }).startOf('day');
  return { start: start.toMillis(), end: next.toMillis() };
}

const FORMATS = { time: 'HH:mm', 'day-time': 'ccc d LLL HH:mm', day: 'ccc d LLL' } as const;

/** `09:00`, `Mon 23 Nov 09:00` or `Mon 23 Nov`, in `zone`, in English whatever the machine's locale. */
export function formatLocal(ms: number, zone: string, style: keyof typeof FORMATS): string {
  return inZone(ms, zone).setLocale('en-GB').toFormat(FORMATS[style]);
}

/** Whether `zone` is an IANA zone luxon (and so Intl) can compute with. */
export function isKnownZone(zone: string): boolean {
  return DateTime.fromMillis(0, { zone }).isValid;
}

function inZone(ms: number, zone: string): DateTime {
  const local = DateTime.fromMillis(ms, { zone });
  if (!local.isValid) throw new Error(`unknown time zone "${zone}"`);
  return local;
}

/** The instant `at` happens on the local `day`, by the DST rules above. */
function wallTimeOn(day: DateTime, at: LocalTime): number {
  // luxon moves a time inside a spring-forward gap forward past the gap: the rule we want.
  const slot = day.set({ hour: at.hour, minute: at.minute, second: 0, millisecond: 0 });
  // For a repeated time luxon picks the later occurrence; step back to the first if one exists.
  for (const shift of [3_600_000, 1_800_000]) {
    const earlier = DateTime.fromMillis(slot.toMillis() - shift, { zone: day.zone });
    if (earlier.day === slot.day && earlier.hour === slot.hour && earlier.minute === slot.minute) {
      return earlier.toMillis();
    }
  }
  return slot.toMillis();
}

function weekdayOf(day: DateTime): Weekday {
  // luxon numbers Monday 1 … Sunday 7.
  return WEEKDAYS[day.weekday - 1] as Weekday;
}

function minutesOf(time: LocalTime): number {
  return time.hour * 60 + time.minute;
}
