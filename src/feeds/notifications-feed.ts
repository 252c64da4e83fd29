import type { DirectoryNotification } from '../directory/index.js';
import { background, type Feed, type FeedDependencies, rememberIds } from './feed.js';
import type { FeedItem } from './feed-item.js';
import { makeFeedItem } from './make-item.js';

export interface NotificationsFeedState {
  seen: string[];
}

export interface NotificationsFeedOptions extends FeedDependencies {
  /** Clear the token user's notifications upstream once delivered items are durably queued. */
  clearAfterDelivery: boolean;
}

/** The token user's notifications, every type; optionally cleared upstream after queueing. */
export function createNotificationsFeed(options: NotificationsFeedOptions): Feed<NotificationsFeedState> {
  const { client, clock } = options;
  return {
    name: 'notifications',
    quotaClass: 'v1',
    costPerPoll: options.clearAfterDelivery ? 2 : 1,
    async poll(state, signal) {
      const result = await client.listNotifications({ type: 'all', perPage: 50 }, background(signal));
      if (result.notModified && state) return { items: [], nextState: state };
      if (!state)
        return {
          items: [],
          nextState: {
            seen: rememberIds(
              [],
              result.items.map((n) => n.id),
            ),
          },
        };
      const now = clock.now();
      const fresh = result.items.filter((n) => !state.seen.includes(n.id)).reverse();
      const items: FeedItem[] = fresh.map((notification) => toItem(notification, now));
      return {
        items,
        nextState: {
          seen: rememberIds(
            state.seen,
            fresh.map((n) => n.id),
          ),
        },
      };
    },
    async recent(query, call) {
      const now = clock.now();
      const result = await client.listNotifications({ type: 'all', perPage: query.limit }, call);
      return result.items.map((notification) => toItem(notification, now));
    },
    async afterQueued(items) {
      if (options.clearAfterDelivery && items.length > 0)
        await client.clearNotifications({ priority: 'background' });
    },
  };
}

function toItem(notification: DirectoryNotification, now: number): FeedItem {
  return makeFeedItem('notifications', 'new', { type: 'notification', notification }, now);
}
