import type { DirectoryComment } from '../directory/index.js';
import { COMMENT_CHECK_EVERY_POLLS, checkComments } from './comment-check.js';
import { background, canAffordAnotherPage, compareIds, type Feed, type FeedDependencies } from './feed.js';
import type { FeedItem } from './feed-item.js';
import { makeFeedItem } from './make-item.js';

export interface CommentsFeedState {
  /** Highest comment id already handed to the pipeline. */
  newestId: string;
  /** Polls since the last removal check (absent in state saved before the check existed). */
  pollsSinceCheck?: number;
  /** The next removal check looks past the newest comments (see comment-check). */
  olderNext?: boolean;
}

const PAGE_SIZE = 50;
/** Bounds one poll's spend after a long outage; the next poll continues from the cursor. */
const MAX_PAGES_PER_POLL = 10;

export interface CommentsFeedOptions {
  checkRemovals?: boolean;
  /** The delivered comment a removal check should look back at next, if any (see comment-check). */
  olderTarget?: () => Promise<string | undefined>;
}

/**
 * New comments, walking the V1 `newer` id cursor until caught up; every few polls also one
 * listing of comments, which shows the ones removed upstream (see comment-check).
 */
export function createCommentsFeed(deps: FeedDependencies & CommentsFeedOptions): Feed<CommentsFeedState> {
  const { client, clock, checkRemovals = false, olderTarget } = deps;
  return {
    name: 'comments',
    quotaClass: 'v1',
    // The removal check's one request every few polls, averaged in so the cadence plans for it.
    costPerPoll: checkRemovals ? 1 + 1 / COMMENT_CHECK_EVERY_POLLS : 1,
    async poll(state, signal) {
      if (!state) {
        const latest = await client.listComments(
          { perPage: 1, sortBy: 'id', order: 'desc' },
          background(signal),
        );
        return { items: [], nextState: { newestId: latest.items[0]?.id ?? '0' } };
      }
      // Before the walk, so its span ends where the comments this poll reads begin.
      const checked = checkRemovals
        ? await checkComments(
            client,
            { pollsSinceCheck: state.pollsSinceCheck ?? 0, olderNext: state.olderNext === true },
            olderTarget,
            clock.now(),
            signal,
          )
        : undefined;
      const check = checked?.check;
      const items: FeedItem[] = [];
      let cursor = state.newestId;
      for (let page = 0; page < MAX_PAGES_PER_POLL; page += 1) {
        const result = await client.listComments(
          { newer: cursor, perPage: PAGE_SIZE, sortBy: 'id', order: 'asc' },
          background(signal),
        );
        if (result.notModified) break;
        const now = clock.now();
        for (const comment of result.items) {
          if (compareIds(comment.id, state.newestId) <= 0) continue;
          items.push(toItem(comment, now));
          if (compareIds(comment.id, cursor) > 0) cursor = comment.id;
        }
        // A short page means we are caught up (skipped records still count towards the page).
        if (result.items.length + result.skipped < PAGE_SIZE) break;
        if (!canAffordAnotherPage(client, 'v1', 1)) break;
      }
      items.sort((a, b) => compareIds(a.id, b.id));
      return {
        items,
        nextState: { newestId: cursor, ...checked?.state },
        // Found comments are remembered, so a check after their removal can judge them.
        ...(checkRemovals ? { rememberFound: true } : {}),
        ...(check === undefined
          ? {}
          : {
              observed: check.observed,
              observedIds: check.ids,
              ...(check.newest ? { observedThroughNewest: true } : {}),
            }),
        ...(check?.partial ? { observedPartial: true } : {}),
      };
    },
    async recent(query, call) {
      const now = clock.now();
      // A numeric post id narrows the page upstream; a slug is left to the caller's filter.
      const postId = query.post && /^\d+$/.test(query.post) ? query.post : undefined;
      const result = await client.listComments(
        { perPage: query.limit, sortBy: 'id', order: 'desc', ...(postId ? { postId } : {}) },
        call,
      );
      return result.items.map((comment) => toItem(comment, now));
    },
  };
}

function toItem(comment: DirectoryComment, now: number): FeedItem {
  return makeFeedItem('comments', 'new', { type: 'comment', comment }, now);
}
