import type { DirectoryClient } from '../directory/index.js';
import { composeFeedRecord } from '../engine/index.js';
import { createFeed, RECENT_ONLY } from '../feeds/create-feeds.js';
import type { FeedName } from '../feeds/feed-names.js';
import type { Message } from '../ports/index.js';
import type { FeedFilters } from '../subscriptions/index.js';
import { matchesFilters } from '../subscriptions/index.js';
import { INTERACTIVE } from './interactive.js';

/** How many recent records the preview looks through for one that matches. */
const RECENT_LIMIT = 50;

/**
 * The most recent item of `feed` that a subscription with `filters` would have received,
 * composed as the channel would see it; undefined when nothing recent matches. The feed reads
 * its own source (as of `now`, the command's instant) and the router's own `matchesFilters`
 * picks, so the preview never promises what delivery would not do.
 */
export async function previewSubscription(
  client: DirectoryClient,
  feed: FeedName,
  filters: FeedFilters,
  now: number,
): Promise<Message | undefined> {
  const source = createFeed(feed, { client, clock: { now: () => now } }, RECENT_ONLY);
  const recent = await source.recent(
    { limit: RECENT_LIMIT, ...(filters.post ? { post: filters.post } : {}) },
    INTERACTIVE,
  );
  const match = recent.find((item) => matchesFilters(item, filters));
  return match && composeFeedRecord(match.record, { now });
}
