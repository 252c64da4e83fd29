/**
 * Instants where a calendar day taken in UTC and one taken in the service's offset disagree,
 * or where calendars are odd: early and late UTC hours, a month's and a leap year's last day,
 * and both 2026 America/Los_Angeles DST nights (the live service keeps Pacific time).
 */
export const AWKWARD_INSTANTS = [
  '2026-11-23T00:30:00Z',
  '2026-11-23T07:59:00Z',
  '2026-11-23T23:59:00Z',
  '2026-11-30T23:30:00Z',
  '2028-02-29T00:30:00Z',
  '2026-03-08T09:30:00Z', // 01:30 PST, half an hour before clocks spring forward
  '2026-11-01T08:30:00Z', // 01:30 PDT, the first pass through the repeated hour
] as const;

/** Service offsets from the westernmost to the easternmost in use, with Pacific standard and daylight time. */
export const SERVICE_OFFSETS = [
  ['-12:00', -720],
  ['-08:00', -480],
  ['-07:00', -420],
  ['+00:00', 0],
  ['+05:30', 330],
  ['+14:00', 840],
] as const;
