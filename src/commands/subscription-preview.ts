import type { FeedFilters } from '../delivery/feed-filters.js';
import { matchesFilters } from '../delivery/router.js';
import { type DirectoryClient, liveNewerDay, startsFrom } from '../directory/index.js';
import { composeFeedRecord } from '../engine/compose-item.js';
import type { FeedRecord } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';
import { makeFeedItem } from '../feeds/make-item.js';
import type { Message } from '../ports/message.js';
import { INTERACTIVE } from './interactive.js';

const PAGE = 50;
/** The live service returns at most 20 posts per page. */
const POSTS_PAGE = 20;

/** A recent page of a feed, newest (or, for live events, soonest) first. */
async function recentRecords(
  client: DirectoryClient,
  feed: FeedName,
  filters: FeedFilters,
  now: number,
): Promise<FeedRecord[]> {
  switch (feed) {
    case 'posts': {
      const page = await client.listPosts({ first: POSTS_PAGE, order: 'NEWEST' }, INTERACTIVE);
      return page.nodes.map((post) => ({ type: 'post', post }));
    }
    case 'comments': {
      // A numeric post filter narrows the page upstream; a slug is matched in the bot.
      const postId = filters.post && /^\d+$/.test(filters.post) ? filters.post : undefined;
      const result = await client.listComments(
        { perPage: PAGE, sortBy: 'id', order: 'desc', ...(postId ? { postId } : {}) },
        INTERACTIVE,
      );
      return result.items.map((comment) => ({ type: 'comment', comment }));
    }
    case 'collections': {
      const result = await client.listCollections(
        { featured: true, perPage: PAGE, sortBy: 'updated_at', order: 'desc' },
        INTERACTIVE,
      );
      return result.items.map((collection) => ({ type: 'collection', collection }));
    }
    case 'live': {
      // As the live feed asks: from a day early enough for any service offset, then only what
      // has not started (undated events too, the feed announces those).
      const result = await client.listLiveEvents({ newer: liveNewerDay(now), perPage: PAGE }, INTERACTIVE);
      return result.items
        .filter((event) => event.startsAt === null || startsFrom(event, now))
        .map((event) => ({ type: 'live', event }));
    }
    case 'notifications': {
      const result = await client.listNotifications({ type: 'all', perPage: PAGE }, INTERACTIVE);
      return result.items.map((notification) => ({ type: 'notification', notification }));
    }
  }
}

/**
 * The most recent item of `feed` that a subscription with `filters` would have received,
 * composed as the channel would see it; undefined when nothing recent matches. Uses the
 * router's own `matchesFilters`, so the preview never promises what delivery would not do.
 */
export async function previewSubscription(
  client: DirectoryClient,
  feed: FeedName,
  filters: FeedFilters,
  now: number,
): Promise<Message | undefined> {
  const records = await recentRecords(client, feed, filters, now);
  for (const record of records) {
    const item = makeFeedItem(feed, 'new', record, now);
    if (matchesFilters(item, filters)) return composeFeedRecord(record, { now });
  }
  return undefined;
}
