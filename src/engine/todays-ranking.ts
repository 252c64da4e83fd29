import type Keyv from 'keyv';
import type { DeliveredLedger, EditLimits } from '../delivery/index.js';
import type { DirectoryClient, DirectoryPost } from '../directory/index.js';
import { estimateQueryComplexity, RANKED_POST_IDS_QUERY } from '../directory/index.js';
import { background } from '../feeds/feed.js';
import type { FeedItem } from '../feeds/feed-item.js';
import { makeFeedItem } from '../feeds/make-item.js';
import { directoryKeys } from '../store/index.js';
import type { SubscriptionIndex } from '../subscriptions/index.js';
import { destinationKey } from '../subscriptions/index.js';

/** Places a message shows ("#3 today"): the directory's first page of the day; below it, nothing. */
export const RANKED_PLACES = 20;
/** What one look at the ranking costs in complexity points (ids only). */
export const RANKING_COST = estimateQueryComplexity(RANKED_POST_IDS_QUERY, { first: RANKED_PLACES });
/** Today's posts remembered, so a message can be edited after its post left the posts feed's page. */
const REMEMBERED_POSTS = 100;
const DAY_MS = 86_400_000;

/**
 * What the bot knows of today (a UTC day, like `posts today`): the ranking as last asked for,
 * and today's posts as the posts feed last listed them, which is what their messages show.
 */
interface RankingMemory {
  day: string;
  /** When the ranking was last asked for, answered or not: the next ask waits EDIT_MIN_INTERVAL_S. */
  askedAt?: number;
  /** Post ids, #1 first. */
  ranked: string[];
  posts: DirectoryPost[];
}

export interface RankingDeps {
  client: Pick<DirectoryClient, 'rankedPostIds' | 'ledger'>;
  store: Keyv;
  directoryId: string;
  ledger: DeliveredLedger;
  limits: EditLimits;
}

export interface RankingContext {
  index: SubscriptionIndex;
  now: number;
  defaultRemindMinutes: number;
  /** What the posts feed's next poll needs: an ask never takes it (the poll comes first). */
  pollCost: number;
  signal?: AbortSignal | undefined;
}

export interface RankedPoll {
  /** The poll's new items and observed items, each post with its rank of the day when it has one. */
  items: FeedItem[];
  observed: FeedItem[];
  /** Today's remembered posts outside this listing whose rank was or is shown: edit them too. */
  unlisted: FeedItem[];
}

/**
 * The rank of the day for the posts feed's items. The directory ranks posts (`order: RANKING`);
 * the bot asks for today's first page, ids only, at most once per EDIT_MIN_INTERVAL_S, only
 * while a message of one of today's posts is still editable, and only from the background
 * budget (never the lookup reserve) when it leaves room for the next poll: the cadence plans
 * polls, not asks, so an ask must never make a poll wait. A failed ask keeps the last ranking
 * until the next one.
 */
export function createTodaysRanking(deps: RankingDeps) {
  const key = directoryKeys(deps.directoryId).feedState('posts:ranking');

  /** Whether a destination holds a message of one of these posts posted under EDIT_MAX_AGE_H ago. */
  async function anyEditable(posts: readonly DirectoryPost[], context: RankingContext): Promise<boolean> {
    for (const post of [...posts].reverse()) {
      const item = postItem(post, undefined, context.now);
      for (const target of context.index.route(item, context)) {
        const reference = await deps.ledger.reference(
          destinationKey(target.platform, target.channelId),
          item.key,
        );
        if (reference !== undefined && context.now - reference.postedAt <= deps.limits.maxAgeMs) return true;
      }
    }
    return false;
  }

  async function ask(memory: RankingMemory, dayStart: number, context: RankingContext): Promise<boolean> {
    const due = memory.askedAt === undefined || context.now - memory.askedAt >= deps.limits.minIntervalMs;
    const budget = deps.client.ledger.check('v2-complexity', RANKING_COST + context.pollCost, 'background');
    if (!due || !budget.ok) return false;
    if (!(await anyEditable(memory.posts, context))) return false;
    memory.askedAt = context.now;
    try {
      memory.ranked = await deps.client.rankedPostIds(
        // `postedAfter` is exclusive: a millisecond earlier keeps a post made at 00:00:00.
        { first: RANKED_PLACES, postedAfter: new Date(dayStart - 1).toISOString() },
        background(context.signal),
      );
      return true;
    } catch (error) {
      if (context.signal?.aborted) throw error;
      return false;
    }
  }

  return {
    async rank(items: FeedItem[], observed: FeedItem[], context: RankingContext): Promise<RankedPoll> {
      const dayStart = Math.floor(context.now / DAY_MS) * DAY_MS;
      const day = new Date(dayStart).toISOString().slice(0, 10);
      const saved = await deps.store.get<RankingMemory>(key);
      const memory: RankingMemory = saved?.day === day ? saved : { day, ranked: [], posts: [] };
      // Yesterday's ranked messages no longer stand anywhere "today": their rank is taken off.
      const before = saved?.day === day ? memory.ranked : [];
      const fallen = saved !== undefined && saved.day !== day ? ranked(saved.posts, saved.ranked) : [];
      memory.posts = remember(memory.posts, [...observed, ...items], dayStart);
      const asked = await ask(memory, dayStart, context);
      await deps.store.set(key, memory);

      const rankOf = new Map(memory.ranked.map((id, place) => [id, place + 1]));
      const withRank = (item: FeedItem): FeedItem => {
        const rankToday = rankOf.get(item.id);
        return item.record.type === 'post' && rankToday !== undefined
          ? { ...item, record: { ...item.record, rankToday } }
          : item;
      };
      const listed = new Set(observed.map((item) => item.id));
      const changed = asked ? ranked(memory.posts, [...before, ...memory.ranked]) : [];
      const unlisted = [...fallen, ...changed]
        .filter((post) => !listed.has(post.id))
        .map((post) => postItem(post, fallen.includes(post) ? undefined : rankOf.get(post.id), context.now));
      return { items: items.map(withRank), observed: observed.map(withRank), unlisted };
    },
    /** Forgets posts removed upstream, so no later rank change edits their marked message back. */
    async forget(ids: readonly string[]): Promise<void> {
      const saved = await deps.store.get<RankingMemory>(key);
      if (saved === undefined) return;
      const posts = saved.posts.filter((post) => !ids.includes(post.id));
      if (posts.length < saved.posts.length) await deps.store.set(key, { ...saved, posts });
    },
  };
}

export type TodaysRanking = ReturnType<typeof createTodaysRanking>;

/** The item without its rank of the day (the same item when it has none). */
export function withoutRank(item: FeedItem): FeedItem {
  if (item.record.type !== 'post' || item.record.rankToday === undefined) return item;
  const { rankToday: _rank, ...record } = item.record;
  return { ...item, record };
}

function postItem(post: DirectoryPost, rankToday: number | undefined, discoveredAt: number): FeedItem {
  return makeFeedItem(
    'posts',
    'new',
    rankToday === undefined ? { type: 'post', post } : { type: 'post', post, rankToday },
    discoveredAt,
  );
}

/** The remembered posts among `ids`. */
function ranked(posts: readonly DirectoryPost[], ids: readonly string[]): DirectoryPost[] {
  const wanted = new Set(ids);
  return posts.filter((post) => wanted.has(post.id));
}

/** Today's posts with the latest listing's values, newest last, bounded. */
function remember(previous: readonly DirectoryPost[], listed: readonly FeedItem[], dayStart: number) {
  const byId = new Map(previous.map((post) => [post.id, post]));
  for (const item of listed) {
    if (item.record.type !== 'post') continue;
    const created = Date.parse(item.record.post.createdAt ?? '');
    if (created >= dayStart && created < dayStart + DAY_MS) byId.set(item.id, item.record.post);
  }
  const posts = [...byId.values()].sort(
    (a, b) => Date.parse(a.createdAt ?? '') - Date.parse(b.createdAt ?? ''),
  );
  return posts.slice(-REMEMBERED_POSTS);
}
