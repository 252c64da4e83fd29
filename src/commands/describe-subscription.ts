import type { Subscription } from '../subscriptions/index.js';
import { describeAddressing, describeFilters, describeThreading } from '../subscriptions/index.js';
import { describeSchedule, type ScheduleClock } from './describe-schedule.js';

// Shared with `/directory why`'s sentences (src/accounting/), so it lives with the subscription.
export { describePause } from '../subscriptions/index.js';

/**
 * A subscription in one line, as subscribe, unsubscribe and subscriptions show it. With `clock`,
 * its schedule's times carry the zone they are read in and a digest its next run.
 */
export function describeSubscription(
  subscription: Subscription,
  defaultRemindMinutes: number,
  clock?: ScheduleClock,
): string {
  const filters = describeFilters(subscription.filters);
  const remind =
    subscription.feed === 'live' &&
    subscription.filters.remindMinutes === undefined &&
    defaultRemindMinutes > 0
      ? `reminder ${defaultRemindMinutes} min before (default)`
      : '';
  const details = [filters, remind].filter((part) => part !== '').join(', ');
  // The format shows only when it is not the default card, as `--format` would be typed.
  const format =
    subscription.format === undefined || subscription.format === 'full'
      ? ''
      : `, format ${subscription.format}`;
  const threading = describeThreading(subscription.threading);
  // Shown only when not the default (marked), as `--on-removal` would be typed.
  const removal = subscription.onRemoval === 'delete' ? ', deleted if removed upstream' : '';
  const threads = `${removal}${threading === '' ? '' : `, ${threading}`}`;
  const schedule = subscription.schedule === undefined ? '' : describeSchedule(subscription.schedule, clock);
  const when = schedule === '' ? '' : `; ${schedule}`;
  const addressing = describeAddressing(subscription);
  const pings = addressing === '' ? '' : `; ${addressing}`;
  return `${subscription.feed}${details === '' ? ' (everything)' : ` — ${details}`}${format}${threads}${when}${pings}`;
}
