import { createCollectionsFeed } from './collections-feed.js';
import { createCommentsFeed } from './comments-feed.js';
import type { Feed, FeedDependencies } from './feed.js';
import { FEED_NAMES, type FeedName } from './feed-names.js';
import { createLiveFeed } from './live-feed.js';
import { createNotificationsFeed } from './notifications-feed.js';
import { createPostsFeed } from './posts-feed.js';

/** What some feeds need beyond the client and clock, from configuration and subscriptions. */
export interface FeedSettings {
  /** The earliest reminder any live subscription wants, in minutes before the start; 0 = none. */
  reminderHorizonMinutes: () => number;
  /** Clear the token user's notifications upstream once delivered items are durably queued. */
  clearNotificationsAfterDelivery: boolean;
  /** Spend a little quota spotting comments removed upstream (only worth it with edits on). */
  checkRemovedComments: boolean;
  /** The delivered comment the removal check should look back at next, if any. */
  olderCommentToCheck?: () => Promise<string | undefined>;
}

/** For a feed that is only asked what is recent, never polled for delivery: no side effects. */
export const RECENT_ONLY: FeedSettings = {
  reminderHorizonMinutes: () => 0,
  clearNotificationsAfterDelivery: false,
  checkRemovedComments: false,
};

const FACTORIES: { readonly [Name in FeedName]: (deps: FeedDependencies, settings: FeedSettings) => Feed } = {
  posts: (deps) => createPostsFeed(deps),
  comments: (deps, settings) =>
    createCommentsFeed({
      ...deps,
      checkRemovals: settings.checkRemovedComments,
      ...(settings.olderCommentToCheck ? { olderTarget: settings.olderCommentToCheck } : {}),
    }),
  collections: (deps) => createCollectionsFeed(deps),
  live: (deps, settings) =>
    createLiveFeed({ ...deps, reminderHorizonMinutes: settings.reminderHorizonMinutes }),
  notifications: (deps, settings) =>
    createNotificationsFeed({ ...deps, clearAfterDelivery: settings.clearNotificationsAfterDelivery }),
};

/** The feed a subscription's feed name means. */
export function createFeed(name: FeedName, deps: FeedDependencies, settings: FeedSettings): Feed {
  return FACTORIES[name](deps, settings);
}

/** Every feed the bot publishes, in `FEED_NAMES` order. */
export function createFeeds(deps: FeedDependencies, settings: FeedSettings): Feed[] {
  return FEED_NAMES.map((name) => createFeed(name, deps, settings));
}
