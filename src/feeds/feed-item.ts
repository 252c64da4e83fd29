import type {
  DirectoryCollection,
  DirectoryComment,
  DirectoryLiveEvent,
  DirectoryNotification,
  DirectoryPost,
} from '../directory/index.js';
import type { FeedName } from './feed-names.js';

export type FeedRecord =
  /** `rankToday`: the post's place in today's ranking (top 20), when the engine has learnt it. */
  | { type: 'post'; post: DirectoryPost; rankToday?: number }
  | { type: 'comment'; comment: DirectoryComment }
  | { type: 'collection'; collection: DirectoryCollection }
  | { type: 'live'; event: DirectoryLiveEvent }
  | { type: 'notification'; notification: DirectoryNotification };

/** What a subscription's filters look at, computed once per item. */
export interface ItemFacets {
  /** Lower-cased searchable text (names, bodies, taglines) for keyword filters. */
  text: string;
  /** Lower-cased usernames of the author, makers, creator. */
  usernames: string[];
  /** Ids and slugs of the post the item is about (comments) or is (posts). */
  postRefs: string[];
  votes?: number;
  liveVideo?: boolean;
}

/** One thing a feed found that subscribers may want to hear about. */
export interface FeedItem {
  feed: FeedName;
  /** `new`, or `reminder` for the live feed's "starting soon". */
  event: 'new' | 'reminder';
  id: string;
  /** Stable across polls, restarts and instances: `${feed}:${event}:${id}`. The dedupe key's item part. */
  key: string;
  record: FeedRecord;
  facets: ItemFacets;
  /** Epoch ms when the bot first saw the item; routes only to subscriptions older than this. */
  discoveredAt: number;
}

export function itemKey(feed: FeedName, event: FeedItem['event'], id: string): string {
  return `${feed}:${event}:${id}`;
}
