import { facetsOf } from './facets.js';
import { type FeedItem, type FeedRecord, itemKey } from './feed-item.js';
import type { FeedName } from './feed-names.js';

/** The upstream id of the record inside a feed item. */
export function recordId(record: FeedRecord): string {
  switch (record.type) {
    case 'post':
      return record.post.id;
    case 'comment':
      return record.comment.id;
    case 'collection':
      return record.collection.id;
    case 'live':
      return record.event.id;
    case 'notification':
      return record.notification.id;
  }
}

/** Wraps a record as a feed item: its stable key and the facets filters look at, computed once. */
export function makeFeedItem(
  feed: FeedName,
  event: FeedItem['event'],
  record: FeedRecord,
  discoveredAt: number,
): FeedItem {
  const id = recordId(record);
  return { feed, event, id, key: itemKey(feed, event, id), record, facets: facetsOf(record), discoveredAt };
}
