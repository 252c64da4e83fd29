import type { DirectoryLiveEvent } from './types.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** The westernmost offset in use (UTC−12:00): the last place on Earth where a day begins. */
const WESTERNMOST_OFFSET_MS = -12 * HOUR_MS;

/**
 * The `newer=YYYY-MM-DD` to send to GET /v1/live so that the service hides no event starting
 * at or after `from`, whatever its own offset.
 *
 * The service reads that date as a calendar day in its own offset (Pacific on the live
 * service, with DST; the emulator's `v1OffsetMinutes`), and the spec does not say whether
 * "newer than the date" begins at that day's midnight or after the day ends. The UTC date
 * of `from` is ahead of the service's date for hours every day, and those hours hold exactly
 * the soonest events (their "starting soon" reminders were lost from 00:00 to 08:00 UTC).
 *
 * We do not learn the offset from the timestamps: there is none to learn from before the
 * first event, it changes at each DST switch, and the offset a record is rendered in need not
 * be the one the filter uses. Instead we ask for a day early enough for every offset there is
 * (−12:00 to +14:00) under either reading: the calendar day at UTC−12:00, minus one more day
 * for the "after the day ends" reading. The listing then starts 1 to 3 days before `from`;
 * callers drop those past events themselves with `startsFrom`. That costs a few extra rows on
 * the first page, never a missed event.
 */
export function liveNewerDay(from: number): string {
  return new Date(from + WESTERNMOST_OFFSET_MS - DAY_MS).toISOString().slice(0, 10);
}

/**
 * Whether a listed event starts at or after `from`: the local filter that goes with
 * `liveNewerDay`. Undated events (kept by `newer`, as the spec says) do not count.
 */
export function startsFrom(event: Pick<DirectoryLiveEvent, 'startsAt'>, from: number): boolean {
  if (event.startsAt === null) return false;
  const at = Date.parse(event.startsAt);
  return !Number.isNaN(at) && at >= from;
}

/**
 * Whether a listed page is wholly before `from` (every event dated and started earlier): the
 * days-early start of the listing, which a caller's page cap should not count. An empty page is not.
 */
export function whollyBefore(events: readonly Pick<DirectoryLiveEvent, 'startsAt'>[], from: number): boolean {
  return events.length > 0 && events.every((e) => e.startsAt !== null && !startsFrom(e, from));
}
