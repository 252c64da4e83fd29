import { formatLocal } from '../schedule/index.js';

/**
 * Times as a digest writes them: in the subscription's zone, which is the zone its schedule is
 * read in ("daily@09:00" is 09:00 there), so the text matches the schedule the channel set.
 */
export interface DigestClock {
  /** The zone times are written in: the input's, or UTC when that zone cannot be read. */
  zone: string;
  /** `09:00`, `Mon 23 Nov 09:00` or `Mon 23 Nov`. */
  format(ms: number, style: 'time' | 'day-time' | 'day'): string;
  /** `09:00` when `ms` falls on the same local day as `reference`, else `Mon 23 Nov 09:00`. */
  near(ms: number, reference: number): string;
}

/**
 * A clock for `zone`. The zone was validated when the schedule was set; should it still be
 * unreadable (an IANA zone removed from the host's data), the digest is written in UTC and says
 * so in its footer rather than not posted at all.
 */
export function digestClock(zone: string): DigestClock {
  const usable = readableZone(zone) ? zone : 'UTC';
  const format = (ms: number, style: 'time' | 'day-time' | 'day') => formatLocal(ms, usable, style);
  return {
    zone: usable,
    format,
    near: (ms, reference) =>
      format(ms, 'day') === format(reference, 'day') ? format(ms, 'time') : format(ms, 'day-time'),
  };
}

function readableZone(zone: string): boolean {
  try {
    formatLocal(0, zone, 'time');
    return true;
  } catch {
    return false;
  }
}
