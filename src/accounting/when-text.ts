import { formatDuration, formatLocal } from '../schedule/index.js';

/**
 * An instant as `/directory why` says it: `14:05 Europe/Berlin (in 3 min)`, or with its day when
 * not today there (`Tue 24 Nov 09:00 UTC (20 h ago)`), in the zone the subscription's times are
 * told in.
 */
export function when(at: number, zone: string, now: number): string {
  const today = formatLocal(at, zone, 'day') === formatLocal(now, zone, 'day');
  const clock = formatLocal(at, zone, today ? 'time' : 'day-time');
  const relative =
    Math.abs(at - now) < 1000
      ? 'just now'
      : at > now
        ? `in ${formatDuration(at - now)}`
        : `${formatDuration(now - at)} ago`;
  return `${clock} ${zone} (${relative})`;
}
