import type { CallOptions, DirectoryClient } from '../directory/index.js';
import { createFeed, RECENT_ONLY } from '../feeds/create-feeds.js';
import type { FeedItem } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';
import type { FeedFilters } from '../subscriptions/index.js';

/** How many recent records a subscribe looks through, for its preview and its backfill. */
export const RECENT_LIMIT = 50;

/**
 * What the lookup reserve pays for: a person is waiting on it (the commands' own class, whose
 * share of every quota the feeds leave alone; LOOKUP_RESERVE_FRACTION).
 */
export const LOOKUP_RESERVE: CallOptions = { priority: 'interactive' };

/**
 * A feed's latest records as of `now`, newest first (live events: the next to start), one request
 * shaped as the feed reads its source (`Feed.recent`), narrowed upstream by the subscription's post
 * where the feed can: what a subscription to it would have received lately. The subscribe preview
 * and the backfill choose from it with the router's own filters, so neither promises what delivery
 * would not do.
 */
export function recentItems(
  client: DirectoryClient,
  feed: FeedName,
  filters: FeedFilters,
  now: number,
  call: CallOptions = LOOKUP_RESERVE,
): Promise<FeedItem[]> {
  const source = createFeed(feed, { client, clock: { now: () => now } }, RECENT_ONLY);
  return source.recent({ limit: RECENT_LIMIT, ...(filters.post ? { post: filters.post } : {}) }, call);
}
