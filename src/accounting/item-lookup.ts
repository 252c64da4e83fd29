import {
  type CallOptions,
  type DirectoryClient,
  type DirectoryLiveEvent,
  type IdOrSlug,
  lastSegmentOf,
  liveNewerDay,
} from '../directory/index.js';
import type { FeedItem, FeedRecord } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';
import { makeFeedItem } from '../feeds/make-item.js';

/** A person is waiting: the lookup may spend the quota reserve the feeds leave alone. */
const INTERACTIVE: CallOptions = { priority: 'interactive' };
/** Live events or notifications read looking for one id: one page. */
const ONE_PAGE = 50;

/**
 * The item as its feed would have seen it, in one directory request shaped as that feed reads
 * (the comments feed's V1 listing, narrowed to the one id); null when the directory has no such
 * item. A live event the live feed last listed (`listed`) costs no request at all.
 */
export async function lookUpItem(
  client: DirectoryClient,
  feed: FeedName,
  ref: IdOrSlug,
  context: { now: number; listed: readonly DirectoryLiveEvent[] },
): Promise<FeedItem | null> {
  const record = await lookUpRecord(client, feed, ref, context);
  return record === null ? null : makeFeedItem(feed, 'new', record, context.now);
}

async function lookUpRecord(
  client: DirectoryClient,
  feed: FeedName,
  ref: IdOrSlug,
  { now, listed }: { now: number; listed: readonly DirectoryLiveEvent[] },
): Promise<FeedRecord | null> {
  switch (feed) {
    case 'posts': {
      const post = await client.getPost(ref, INTERACTIVE);
      return post === null ? null : { type: 'post', post };
    }
    case 'comments': {
      if (!('id' in ref)) return null;
      const id = BigInt(ref.id);
      const page = await client.listComments(
        { older: String(id + 1n), newer: String(id - 1n), perPage: 1, sortBy: 'id', order: 'desc' },
        INTERACTIVE,
      );
      const comment = page.items.find((c) => c.id === ref.id);
      return comment === undefined ? null : { type: 'comment', comment };
    }
    case 'collections': {
      const collection = await client.getCollection(ref, INTERACTIVE);
      return collection === null ? null : { type: 'collection', collection };
    }
    case 'live': {
      const named = (event: DirectoryLiveEvent) =>
        'id' in ref ? event.id === ref.id : lastSegmentOf(event.url) === ref.slug;
      const event =
        listed.find(named) ??
        (
          await client.listLiveEvents(
            'slug' in ref ? { slug: ref.slug, perPage: 5 } : { newer: liveNewerDay(now), perPage: ONE_PAGE },
            INTERACTIVE,
          )
        ).items.find(named);
      return event === undefined ? null : { type: 'live', event };
    }
    case 'notifications': {
      const page = await client.listNotifications({ type: 'all', perPage: ONE_PAGE }, INTERACTIVE);
      const notification = page.items.find((n) => 'id' in ref && n.id === ref.id);
      return notification === undefined ? null : { type: 'notification', notification };
    }
  }
}
