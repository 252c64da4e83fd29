import type { DirectoryClient } from '../directory/index.js';
import { background, canAffordAnotherPage } from './feed.js';
import type { FeedItem } from './feed-item.js';
import { makeFeedItem } from './make-item.js';

/**
 * Every this many comments polls, one extra request lists the newest comments so the ones
 * posted lately and since removed upstream can be marked. Each poll costs at least one
 * request, so the check adds at most a tenth to the feed's own spend.
 */
export const COMMENT_CHECK_EVERY_POLLS = 10;
/** One V1 page: the newest comments, whose span the removal check covers. */
const CHECK_PAGE_SIZE = 50;

/**
 * The newest comments as they exist upstream now, or undefined when no check is due, the
 * background budget has no room (the lookup reserve is never touched; the next poll tries
 * again), or the request failed. A failure (5xx, timeout) says nothing about what exists, so
 * it must mark nothing: the check is simply skipped until the next one.
 */
export async function checkRecentComments(
  client: DirectoryClient,
  pollsSinceCheck: number,
  now: number,
  signal: AbortSignal | undefined,
): Promise<{ observed?: FeedItem[]; pollsSinceCheck: number }> {
  const polls = pollsSinceCheck + 1;
  if (polls < COMMENT_CHECK_EVERY_POLLS || !canAffordAnotherPage(client, 'v1', 1)) {
    return { pollsSinceCheck: polls };
  }
  try {
    const listed = await client.listComments(
      { perPage: CHECK_PAGE_SIZE, sortBy: 'id', order: 'desc' },
      background(signal),
    );
    // Listing order, oldest first, as the other feeds report what they observed.
    const observed = listed.items
      .map((comment) => makeFeedItem('comments', 'new', { type: 'comment', comment }, now))
      .reverse();
    return { observed, pollsSinceCheck: 0 };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { pollsSinceCheck: 0 };
  }
}
