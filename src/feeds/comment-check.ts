import type { DirectoryClient } from '../directory/index.js';
import { background, canAffordAnotherPage } from './feed.js';
import type { FeedItem } from './feed-item.js';
import { makeFeedItem } from './make-item.js';

/**
 * Every this many comments polls, one extra request checks for comments removed upstream. Each
 * poll costs at least one request, so the check adds at most a tenth to the feed's own spend.
 */
export const COMMENT_CHECK_EVERY_POLLS = 10;
/** One V1 page: the span one check covers. */
const CHECK_PAGE_SIZE = 50;

/** What the comments feed keeps between checks. */
export interface CommentCheckState {
  pollsSinceCheck: number;
  /** The next check looks further back (see checkComments), when there is anything to look at. */
  olderNext?: boolean;
}

/** The comments one check listed, and the ids they cover (see FeedPollResult). */
export interface CommentCheck {
  observed: FeedItem[];
  /**
   * The ids the listing covers. The newest comments: every id above the lowest listed (all of
   * them when the page was not full), the span running on past the newest listed; a look back:
   * at and below the comment it asked about.
   */
  ids: { above?: string; through?: string };
  /** The newest comments were listed (not a look back). */
  newest?: true;
  /** A record of the page failed validation: values refresh, nothing is judged removed. */
  partial?: true;
}

/**
 * The comments as they exist upstream now, or no check when none is due, the background budget
 * has no room (the lookup reserve is never touched; the next poll tries again), or the request
 * failed. A failure (5xx, timeout) says nothing about what exists, so it must mark nothing.
 *
 * Checks alternate between the newest comments and, when `olderTarget` names a delivered comment
 * past them, the page of comments at and below that id: one request either way, so looking back
 * costs nothing beyond the check's own tenth (the newest are then listed every second check).
 */
export async function checkComments(
  client: DirectoryClient,
  state: CommentCheckState,
  olderTarget: (() => Promise<string | undefined>) | undefined,
  now: number,
  signal: AbortSignal | undefined,
): Promise<{ check?: CommentCheck; state: CommentCheckState }> {
  const polls = state.pollsSinceCheck + 1;
  if (polls < COMMENT_CHECK_EVERY_POLLS || !canAffordAnotherPage(client, 'v1', 1)) {
    return { state: { ...state, pollsSinceCheck: polls } };
  }
  const target = state.olderNext ? await olderTarget?.() : undefined;
  const next: CommentCheckState = { pollsSinceCheck: 0, olderNext: target === undefined };
  // V1 ids are integers: the page "older than target + 1" starts at the target itself.
  const older = target !== undefined && /^\d+$/.test(target) ? (BigInt(target) + 1n).toString() : undefined;
  try {
    const listed = await client.listComments(
      { perPage: CHECK_PAGE_SIZE, sortBy: 'id', order: 'desc', ...(older ? { older } : {}) },
      background(signal),
    );
    // Listing order, oldest first, as the other feeds report what they observed.
    const observed = listed.items
      .map((comment) => makeFeedItem('comments', 'new', { type: 'comment', comment }, now))
      .reverse();
    // A record left out as invalid could be any id of the page: values refresh, but none of it
    // is judged removed (the look back still counts as done, so it moves on to the next).
    const partial = listed.skipped > 0 ? { partial: true as const } : {};
    // A full page covers down to its lowest id; a short one, every id below where it starts. The
    // page is cut by id, so ids judge it: a comment just past it may carry a later time than the
    // ones listed (upstream clocks disagree), and a span of times would take it for removed.
    const full = listed.items.length + listed.skipped >= CHECK_PAGE_SIZE;
    const above = full ? observed[0]?.id : undefined;
    const lowest = above === undefined ? {} : { above };
    if (older === undefined || target === undefined)
      return { check: { observed, ids: lowest, newest: true, ...partial }, state: next };
    return { check: { observed, ids: { through: target, ...lowest }, ...partial }, state: next };
  } catch (error) {
    if (signal?.aborted) throw error;
    return { state: next };
  }
}
