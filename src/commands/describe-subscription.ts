import { describeFilters } from '../delivery/feed-filters.js';
import type { Subscription } from '../delivery/subscriptions.js';

/** A subscription in one line, as subscribe, unsubscribe and subscriptions show it. */
export function describeSubscription(subscription: Subscription, defaultRemindMinutes: number): string {
  const filters = describeFilters(subscription.filters);
  const remind =
    subscription.feed === 'live' &&
    subscription.filters.remindMinutes === undefined &&
    defaultRemindMinutes > 0
      ? `reminder ${defaultRemindMinutes} min before (default)`
      : '';
  const details = [filters, remind].filter((part) => part !== '').join(', ');
  return `${subscription.feed}${details === '' ? ' (everything)' : ` — ${details}`}`;
}
