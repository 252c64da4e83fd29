import type { Random } from './prng.js';
import type { Store } from './store.js';

/** How many of the newest posts, comments and collections churn touches. */
const RECENT = 10;
/**
 * Only what has been listed a while is removed (moderation follows reports): anything a poller
 * could see is seen before it goes, so "every record created is delivered once" stays exact.
 */
const REMOVABLE_AFTER_MS = 5 * 60_000;

/**
 * Rates per activity event. Low enough that the directory still grows as the activity
 * counts promise (a deletion takes back at most one record), high enough that a bot keeping
 * messages current sees a vote change on most polls and a removal now and then.
 */
export const CHURN_RATES = {
  votes: 0.6,
  collectionProduct: 0.1,
  deletePost: 0.004,
  deleteComment: 0.006,
  cancelLive: 0.01,
} as const;

/**
 * Changes what already exists, beside the activity that adds records: votes on recent posts,
 * products in featured collections, and now and then a removal upstream (a post without
 * comments, a comment without replies, an upcoming live event cancelled; each listed for a while first). It draws from its
 * own random stream, so the records activity adds are the same with or without it.
 */
export function createChurn(store: Store, random: Random): (at: number) => void {
  return (at) => {
    if (random.chance(CHURN_RATES.votes)) {
      const post = newest(store.posts);
      if (post !== undefined) store.addVotes(post, random.int(1, 3));
    }
    if (random.chance(CHURN_RATES.collectionProduct)) {
      const featured = newest(store.collections, (c) => c.featuredAt !== null);
      const post = newest(store.posts);
      if (featured !== undefined && post !== undefined) store.addToCollection(featured, post);
    }
    if (random.chance(CHURN_RATES.deletePost)) {
      const post = newest(
        store.posts,
        (p, id) => p.createdAt <= at - REMOVABLE_AFTER_MS && (store.commentCountByPost.get(id) ?? 0) === 0,
      );
      if (post !== undefined) store.deletePost(post);
    }
    if (random.chance(CHURN_RATES.deleteComment)) {
      const comment = newest(
        store.comments,
        (c, id) => c.createdAt <= at - REMOVABLE_AFTER_MS && (store.childCountByComment.get(id) ?? 0) === 0,
      );
      if (comment !== undefined) store.deleteComment(comment);
    }
    if (random.chance(CHURN_RATES.cancelLive)) {
      const event = newest(
        store.liveEvents,
        (e, id) =>
          e.startsAt !== null &&
          e.startsAt > at &&
          (store.liveScheduledAt.get(id) ?? 0) <= at - REMOVABLE_AFTER_MS,
      );
      if (event !== undefined) store.cancelLive(event);
    }
  };

  /** One of the `RECENT` newest ids of a map (ids grow with insertion) that pass `keep`. */
  function newest<T>(
    records: ReadonlyMap<number, T>,
    keep: (record: T, id: number) => boolean = () => true,
  ): number | undefined {
    const ids: number[] = [];
    for (const [id, record] of records) if (keep(record, id)) ids.push(id);
    const recent = ids.slice(-RECENT);
    return recent.length === 0 ? undefined : random.pick(recent);
  }
}
