import type { FeedItem } from '../feeds/feed-item.js';
import type { Subscription, SubscriptionIndex } from '../subscriptions/index.js';
import { destinationKey } from '../subscriptions/index.js';
import type { DeliveredLedger } from './delivered-ledger.js';
import type { Outbox } from './outbox.js';
import { threadParentKey } from './threads.js';

/**
 * The comments a posts subscription with `--thread-comments` receives: those on a post its channel
 * received (posted, or queued to be), never any other. A channel that already gets the comment from
 * a comments subscription gets it once, from that one (`routed`).
 */
export async function threadCommentRoutes(
  items: readonly FeedItem[],
  index: SubscriptionIndex,
  routed: ReadonlySet<string>,
  deps: { ledger: DeliveredLedger; outbox: Outbox },
): Promise<{ item: FeedItem; subscription: Subscription }[]> {
  const subscriptions = index.threadCommentSubscriptions();
  if (subscriptions.length === 0) return [];
  const wanted: { item: FeedItem; subscription: Subscription; destination: string; parentKey: string }[] = [];
  const seen = new Set(routed);
  for (const item of items) {
    const parentKey = threadParentKey(item);
    if (parentKey === undefined) continue;
    for (const subscription of subscriptions) {
      // No history flood: only comments found after the subscription was made.
      if (item.discoveredAt < subscription.createdAt) continue;
      const destination = destinationKey(subscription.platform, subscription.channelId);
      if (seen.has(`${destination}|${item.key}`)) continue;
      seen.add(`${destination}|${item.key}`);
      wanted.push({ item, subscription, destination, parentKey });
    }
  }
  if (wanted.length === 0) return [];
  const posted = await deps.ledger.delivered(
    wanted.map((w) => ({ destination: w.destination, itemKey: w.parentKey })),
  );
  return wanted
    .filter((w, i) => posted[i] || deps.outbox.has(w.destination, w.parentKey))
    .map(({ item, subscription }) => ({ item, subscription }));
}
