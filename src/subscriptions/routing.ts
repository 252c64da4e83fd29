import type { FeedItem } from '../feeds/feed-item.js';
import type { Destination } from '../ports/index.js';
import { matchesFilters } from './filters.js';
import type { Subscription } from './subscription.js';

export interface RoutingOptions {
  now: number;
  /** Reminder lead time for live subscriptions that did not choose one; 0 = no reminders. */
  defaultRemindMinutes: number;
}

/** The subscriptions that should receive `item`, at most one per destination. */
export function routeItem(
  item: FeedItem,
  subscriptions: readonly Subscription[],
  options: RoutingOptions,
): Subscription[] {
  const chosen = new Map<string, Subscription>();
  for (const subscription of subscriptions) {
    if (subscription.feed !== item.feed || subscription.paused) continue;
    // Never deliver what was found before the subscription existed: no history flood.
    if (item.event === 'new' && item.discoveredAt < subscription.createdAt) continue;
    if (!matchesFilters(item, subscription.filters)) continue;
    if (item.event === 'reminder' && !reminderDue(item, subscription, options)) continue;
    const destination = destinationKey(subscription.platform, subscription.channelId);
    if (!chosen.has(destination)) chosen.set(destination, subscription);
  }
  return [...chosen.values()];
}

function reminderDue(item: FeedItem, subscription: Subscription, options: RoutingOptions): boolean {
  if (item.record.type !== 'live' || item.record.event.startsAt === null) return false;
  const minutes = subscription.filters.remindMinutes ?? options.defaultRemindMinutes;
  if (minutes <= 0) return false;
  const startsAt = Date.parse(item.record.event.startsAt);
  return startsAt > options.now && startsAt - options.now <= minutes * 60_000;
}

export function destinationKey(platform: string, channelId: string): string {
  return `${platform}:${channelId}`;
}

/** Where a subscription's messages go, and that destination's key (an outbox entry's two fields). */
export function subscriptionDestination(
  subscription: Pick<Subscription, 'platform' | 'channelId' | 'workspaceId'>,
): { destination: Destination; destinationKey: string } {
  return {
    destination: {
      platform: subscription.platform,
      channelId: subscription.channelId,
      ...(subscription.workspaceId ? { workspaceId: subscription.workspaceId } : {}),
    },
    destinationKey: destinationKey(subscription.platform, subscription.channelId),
  };
}
