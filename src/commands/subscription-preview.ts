import type { DirectoryClient } from '../directory/index.js';
import { composeFeedRecord, recentItems } from '../engine/index.js';
import type { FeedItem } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';
import type { Message } from '../ports/index.js';
import type { FeedFilters } from '../subscriptions/index.js';
import { matchesFilters } from '../subscriptions/index.js';
import { INTERACTIVE } from './interactive.js';

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
  return previewOf(await recentItems(client, feed, filters, now, INTERACTIVE), filters, now);
}

/** The preview among a feed's recent items already fetched (`recentItems`, newest first). */
export function previewOf(
  recent: readonly FeedItem[],
  filters: FeedFilters,
  now: number,
): Message | undefined {
  const match = recent.find((item) => matchesFilters(item, filters));
  return match && composeFeedRecord(match.record, { now });
}
