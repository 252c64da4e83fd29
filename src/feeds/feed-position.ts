import { type CollectionsFeedState, isNewlyFeatured } from './collections-feed.js';
import type { CommentsFeedState } from './comments-feed.js';
import { compareIds } from './feed.js';
import type { FeedRecord } from './feed-item.js';
import { isNewPost, type PostsFeedState } from './posts-feed.js';

/**
 * Where a record stands against its feed's saved position: `ahead` — the next poll would find it
 * (or the feed was never polled); `passed` — the feed has polled past it (found it, or it predates
 * the feed's first poll); `never` — the feed does not carry it as it is (a collection that is not
 * featured). Read from the state each feed saves, as its own poll reads it.
 */
export type FeedPosition = 'ahead' | 'passed' | 'never';

/** `state`: the feed's saved state, as stored (undefined: never polled). */
export function positionOf(record: FeedRecord, state: unknown): FeedPosition {
  if (state === undefined || state === null) return 'ahead';
  switch (record.type) {
    case 'post':
      return isNewPost(record.post, state as PostsFeedState) ? 'ahead' : 'passed';
    case 'comment':
      return compareIds(record.comment.id, (state as CommentsFeedState).newestId) > 0 ? 'ahead' : 'passed';
    case 'collection':
      if (record.collection.featuredAt === undefined) return 'never';
      return isNewlyFeatured(record.collection, state as CollectionsFeedState) ? 'ahead' : 'passed';
    case 'live':
      return seenIn(state, record.event.id) ? 'passed' : 'ahead';
    case 'notification':
      return seenIn(state, record.notification.id) ? 'passed' : 'ahead';
  }
}

/** Whether a feed that remembers ids (live events, notifications) has handed this one on. */
export function seenIn(state: unknown, id: string): boolean {
  const seen = (state as { seen?: unknown } | undefined)?.seen;
  return Array.isArray(seen) && seen.includes(id);
}
