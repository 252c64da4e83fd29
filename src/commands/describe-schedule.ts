import type { DigestRecurrence, ScheduleOptions, Weekday } from '../schedule/index.js';
import { formatLocal, formatLocalTime, nextDigestAt } from '../schedule/index.js';
import type { Subscription } from '../subscriptions/index.js';
import type { CommandDependencies } from './types.js';

/** The zone a schedule is shown in, and the instant "next" is counted from. */
export interface ScheduleClock {
  zone: string;
  now: number;
}

const DAY_NAMES: Readonly<Record<Weekday, string>> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};

function recurrenceText(recurrence: DigestRecurrence): string {
  if (recurrence.every === 'hourly') return 'hourly';
  if (recurrence.every === 'daily') return `daily at ${formatLocalTime(recurrence.at)}`;
  return `weekly on ${DAY_NAMES[recurrence.day]} at ${formatLocalTime(recurrence.at)}`;
}

/**
 * A schedule in words, e.g. "digest daily at 09:00 Europe/Berlin (next: Tue 24 Nov 09:00), top 5
 * by votes", "quiet 22:00–07:00", "max 10/hour". With `clock`, local times carry their zone and a
 * digest its next run; without, the zone shows only when the subscription names one (`--tz`).
 */
export function describeSchedule(schedule: ScheduleOptions, clock?: ScheduleClock): string {
  const zone = clock?.zone ?? schedule.timeZone;
  let zoneShown = false;
  const inZone = (text: string) => {
    if (zone === undefined || zoneShown) return text;
    zoneShown = true;
    return `${text} ${zone}`;
  };
  const parts: string[] = [];
  if (schedule.digest) {
    const next =
      clock === undefined
        ? ''
        : ` (next: ${formatLocal(nextDigestAt(schedule.digest, clock.zone, clock.now), clock.zone, 'day-time')})`;
    const recurrence = recurrenceText(schedule.digest);
    parts.push(`digest ${schedule.digest.every === 'hourly' ? recurrence : inZone(recurrence)}${next}`);
    if (schedule.top !== undefined) parts.push(`top ${schedule.top} by votes`);
    if (schedule.digestEmpty) parts.push('empty digests too');
  }
  if (schedule.quiet) {
    parts.push(
      `quiet ${inZone(`${formatLocalTime(schedule.quiet.from)}–${formatLocalTime(schedule.quiet.to)}`)}`,
    );
    if (schedule.quietStrict) parts.push('reminders held too');
  }
  if (schedule.maxPerHour !== undefined) parts.push(`max ${schedule.maxPerHour}/hour`);
  if (schedule.maxPerDay !== undefined) parts.push(inZone(`max ${schedule.maxPerDay}/day`));
  return parts.join(', ');
}

/**
 * When a new subscription's items will show, for the line under `subscribe`'s answer: as they
 * come, or, with a digest, in the digest (never "new ones will appear in this channel", which a
 * digest subscription's items do not). `items` names them: "new ones", "new matching items".
 */
export function arrivalText(
  items: string,
  schedule: ScheduleOptions | undefined,
  clock: ScheduleClock | undefined,
): string {
  if (schedule?.digest !== undefined) {
    const first =
      clock === undefined
        ? ''
        : `, the first on ${formatLocal(nextDigestAt(schedule.digest, clock.zone, clock.now), clock.zone, 'day-time')} ${clock.zone}`;
    return `${items} will not be posted one by one: they are gathered into the digest${first}`;
  }
  const held = [
    schedule?.quiet === undefined
      ? ''
      : 'outside quiet hours (what comes during them is posted when they end)',
    schedule?.maxPerHour === undefined && schedule?.maxPerDay === undefined
      ? ''
      : 'up to the cap (what is over it is summed up when its hour or day ends)',
  ].filter(Boolean);
  return held.length > 0
    ? `${items} will appear in this channel as they come, ${held.join(', and ')}`
    : `${items} will appear in this channel`;
}

/** The zone `subscription`'s schedule is read in, now; undefined when it has no schedule. */
export async function scheduleClock(
  deps: Pick<CommandDependencies, 'zones' | 'clock'>,
  subscription: Subscription,
): Promise<ScheduleClock | undefined> {
  if (subscription.schedule === undefined) return undefined;
  const zone = deps.zones
    ? (await deps.zones.resolve(subscription)).zone
    : (subscription.schedule.timeZone ?? 'UTC');
  return { zone, now: deps.clock.now() };
}
