import type { DirectoryPost } from '../directory/index.js';
import { estimateQueryComplexity, POSTS_QUERY } from '../directory/index.js';
import { background, canAffordAnotherPage, type Feed, type FeedDependencies, rememberIds } from './feed.js';
import type { FeedItem } from './feed-item.js';
import { makeFeedItem } from './make-item.js';

export interface PostsFeedState {
  seen: string[];
  /** Newest `createdAt` seen, epoch ms. */
  watermark: number;
}

/** The most posts the service returns in one page. */
const SERVICE_PAGE_MAX = 20;
/** Ten newest posts per poll (the service allows 20): half the complexity, and pages follow when all are new. */
const PAGE_SIZE = 10;
/** After an outage a poll pages back through up to 100 posts; the emulator and service cap pages at 20. */
const MAX_PAGES_PER_POLL = 10;
/** Posts created a little before the watermark may appear late (clock skew, moderation). */
const LATE_GRACE_MS = 60 * 60 * 1000;

/** New posts from the V2 posts connection, newest first, paging back until it meets what was seen. */
export function createPostsFeed(deps: FeedDependencies): Feed<PostsFeedState> {
  const { client, clock } = deps;
  const costPerPage = estimateQueryComplexity(POSTS_QUERY, { first: PAGE_SIZE });
  return {
    name: 'posts',
    quotaClass: 'v2-complexity',
    costPerPoll: costPerPage,
    async poll(state, signal) {
      const collected: DirectoryPost[] = [];
      let skipped = 0;
      let after: string | undefined;
      for (let page = 0; page < (state ? MAX_PAGES_PER_POLL : 1); page += 1) {
        const connection = await client.listPosts(
          { first: PAGE_SIZE, order: 'NEWEST', ...(after ? { after } : {}) },
          background(signal),
        );
        collected.push(...connection.nodes);
        skipped += connection.skipped;
        const goOn = state !== undefined && mayHoldMoreNew(connection.nodes, (p) => isNewPost(p, state));
        if (!goOn || !connection.pageInfo.hasNextPage || !connection.pageInfo.endCursor) break;
        if (!canAffordAnotherPage(client, 'v2-complexity', costPerPage)) break;
        after = connection.pageInfo.endCursor;
      }
      const times = collected.map((p) => Date.parse(p.createdAt ?? '')).filter(Number.isFinite);
      const watermark = Math.max(state?.watermark ?? 0, ...times);
      if (!state)
        return {
          items: [],
          nextState: {
            seen: rememberIds(
              [],
              collected.map((p) => p.id),
            ),
            watermark,
          },
        };

      const now = clock.now();
      const fresh = collected.filter((p) => isNewPost(p, state)).reverse();
      const items: FeedItem[] = fresh.map((post) => toItem(post, now));
      return {
        items,
        observed: collected.map((post) => toItem(post, now)),
        // Read from the newest post on: any post newer than the oldest listed would be listed,
        // so the newest one, once removed, is judged like the others (issue 29).
        observedThroughNewest: true,
        ...(skipped > 0 ? { observedPartial: true } : {}),
        nextState: {
          seen: rememberIds(
            state.seen,
            fresh.map((p) => p.id),
          ),
          watermark,
        },
      };
    },
    async recent(query, call) {
      const now = clock.now();
      const connection = await client.listPosts(
        { first: Math.min(query.limit, SERVICE_PAGE_MAX), order: 'NEWEST' },
        call,
      );
      return connection.nodes.map((post) => toItem(post, now));
    },
  };
}

/** Not seen yet, and not so old that it is history rather than a late arrival. */
/** Whether a poll with this state would hand `post` on as new (see feed-position.ts). */
export function isNewPost(post: DirectoryPost, state: PostsFeedState): boolean {
  if (state.seen.includes(post.id)) return false;
  return !post.createdAt || Date.parse(post.createdAt) >= state.watermark - LATE_GRACE_MS;
}

/**
 * Whether the page after this one may hold posts not seen yet. In creation order, new posts
 * sit above everything seen, so a page that starts with new posts and then meets a seen one
 * is the end, and the poll costs one page. A page of nothing but new posts goes on; so does
 * one with a new post below a seen one: posts do not always arrive in creation order (late
 * publication, clock skew), and that page shows it is happening now. Paging on after every
 * page with anything new cost two pages per finding poll, more than the cadence plans for,
 * so the ledger held the next poll back until the quota window reset.
 */
function mayHoldMoreNew(
  nodes: readonly DirectoryPost[],
  isNewPost: (post: DirectoryPost) => boolean,
): boolean {
  const firstSeen = nodes.findIndex((p) => !isNewPost(p));
  if (firstSeen === -1) return nodes.length > 0;
  return nodes.slice(firstSeen + 1).some(isNewPost);
}

function toItem(post: DirectoryPost, now: number): FeedItem {
  return makeFeedItem('posts', 'new', { type: 'post', post }, now);
}
