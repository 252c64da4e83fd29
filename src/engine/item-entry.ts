import { entryThread, type OutboxEntry } from '../delivery/index.js';
import type { FeedItem } from '../feeds/feed-item.js';
import { formatMessage } from '../messages/index.js';
import type { Message } from '../ports/index.js';
import type { Subscription } from '../subscriptions/index.js';
import { addressMessage, subscriptionDestination } from '../subscriptions/index.js';
import { shownState } from './refresh-shown.js';

/**
 * The outbox entry delivering `item` to `subscription`'s channel, as any item goes: `full` (the
 * item's message, composed once for every destination) in the subscription's format, under its
 * post's message when it is a reply, with the values it shows kept for edits in place. It carries
 * the mentions and poster the subscription configured (never any the item's text names), and the
 * item's record for a platform that is sent it (`recordPlatforms`: ChatAdapter.wantsRecords).
 */
export function itemEntry(
  item: FeedItem,
  subscription: Subscription,
  full: Message,
  now: number,
  recordPlatforms?: ReadonlySet<string>,
): OutboxEntry {
  const thread = entryThread(item, subscription);
  const record = recordPlatforms?.has(subscription.platform) ? item.record : undefined;
  return {
    ...subscriptionDestination(subscription),
    itemKey: item.key,
    message: addressMessage(formatMessage(full, subscription.format), subscription, item),
    shown: shownState(item.record, now),
    subscriptionIds: [subscription.id],
    enqueuedAt: now,
    attempts: 0,
    notBefore: now,
    ...(thread === undefined ? {} : { thread }),
    ...(record === undefined ? {} : { record }),
  };
}
