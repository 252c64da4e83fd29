import type { CollectionRecord, PostRecord } from './model.js';
import {
  type Args,
  connection,
  existingUser,
  numericId,
  type Resolver,
  type V2Context,
} from './v2-context.js';

const HOUR = 3_600_000;

/** A single record by `id`, else by `slug`; null when neither finds one. */
function byIdOrSlug<R extends { slug: string }>(records: ReadonlyMap<number, R>, args: Args): R | null {
  const id = numericId(args['id']);
  if (id !== undefined) return records.get(id) ?? null;
  const slug = args['slug'];
  return typeof slug === 'string' ? ([...records.values()].find((r) => r.slug === slug) ?? null) : null;
}

/** `ctx` is read for the clock only when ranking: an answer that never read it can be reused. */
function postsOrdered(posts: PostRecord[], order: string, ctx: V2Context): PostRecord[] {
  const featured = (p: PostRecord) => p.featuredAt ?? Number.NEGATIVE_INFINITY;
  // Ranking: votes decayed by age, a stand-in for the live service's undisclosed formula (the
  // rule is in docs/emulator.md; the bot's rank of the day reads it).
  const rank = (p: PostRecord) => p.votesCount / (Math.max(0, ctx.now - p.createdAt) / HOUR + 2) ** 1.5;
  const key: (p: PostRecord) => number =
    order === 'NEWEST'
      ? (p) => p.createdAt
      : order === 'VOTES'
        ? (p) => p.votesCount
        : order === 'FEATURED_AT'
          ? featured
          : rank;
  return posts.sort((a, b) => key(b) - key(a) || b.id - a.id);
}

/** The root fields: lists with their filters and orders, and single records by id or slug. */
export const queryResolvers: Record<string, Resolver<unknown>> = {
  posts(_source, args, ctx) {
    const after = args['postedAfter'] as number | null | undefined;
    const before = args['postedBefore'] as number | null | undefined;
    const featured = args['featured'] as boolean | null | undefined;
    const topic = args['topic'] as string | null | undefined;
    const url = args['url'] as string | null | undefined;
    const twitterUrl = args['twitterUrl'] as string | null | undefined;
    const topicId =
      topic == null ? undefined : ([...ctx.store.topics.values()].find((t) => t.slug === topic)?.id ?? -1);
    // Compared at the second precision V2 shows, so `postedAfter: <a post's createdAt>` excludes that post.
    const seconds = (ms: number) => Math.floor(ms / 1000) * 1000;
    const matching = [...ctx.store.posts.values()].filter(
      (p) =>
        (after == null || seconds(p.createdAt) > after) &&
        (before == null || seconds(p.createdAt) < before) &&
        (featured == null || (p.featuredAt !== null) === featured) &&
        (topicId === undefined || p.topicIds.includes(topicId)) &&
        (url == null || p.website === url || p.productLinks.some((l) => l.url === url)) &&
        (twitterUrl == null || p.productLinks.some((l) => l.type === 'Twitter' && l.url === twitterUrl)),
    );
    // The live service ranks by default.
    return connection(
      postsOrdered(matching, (args['order'] as string | undefined) ?? 'RANKING', ctx),
      args,
      ctx,
    );
  },
  post: (_source, args, ctx) => byIdOrSlug(ctx.store.posts, args),
  collections(_source, args, ctx) {
    const featured = args['featured'] as boolean | null | undefined;
    const postId = args['postId'] == null ? undefined : (numericId(args['postId']) ?? -1);
    const userId = args['userId'] == null ? undefined : (numericId(args['userId']) ?? -1);
    const order = (args['order'] as string | undefined) ?? 'FOLLOWERS_COUNT';
    const key = (c: CollectionRecord): number =>
      order === 'NEWEST'
        ? c.createdAt
        : order === 'FEATURED_AT'
          ? (c.featuredAt ?? Number.NEGATIVE_INFINITY)
          : c.subscriberIds.length;
    const matching = [...ctx.store.collections.values()]
      .filter(
        (c) =>
          (featured == null || (c.featuredAt !== null) === featured) &&
          (postId === undefined || c.postIds.includes(postId)) &&
          (userId === undefined || c.userId === userId),
      )
      .sort((a, b) => key(b) - key(a) || b.id - a.id);
    return connection(matching, args, ctx);
  },
  collection: (_source, args, ctx) => byIdOrSlug(ctx.store.collections, args),
  comment(_source, args, ctx) {
    const id = numericId(args['id']);
    return id === undefined ? null : (ctx.store.comments.get(id) ?? null);
  },
  user(_source, args, ctx) {
    const id = numericId(args['id']);
    if (id !== undefined) return ctx.store.users.get(id) ?? null;
    const username = args['username'];
    return typeof username === 'string'
      ? ([...ctx.store.users.values()].find((u) => u.username === username) ?? null)
      : null;
  },
  topics(_source, args, ctx) {
    const text = typeof args['query'] === 'string' ? args['query'].toLowerCase() : undefined;
    const order = (args['order'] as string | undefined) ?? 'NEWEST';
    const matching = [...ctx.store.topics.values()]
      .filter((t) => text === undefined || t.name.toLowerCase().includes(text) || t.slug.includes(text))
      .sort((a, b) =>
        order === 'FOLLOWERS_COUNT'
          ? b.followersCount - a.followersCount || b.id - a.id
          : b.createdAt - a.createdAt || b.id - a.id,
      );
    // Nobody follows topics in the emulator, so followedByUserid selects nothing.
    return connection(args['followedByUserid'] == null ? matching : [], args, ctx);
  },
  topic: (_source, args, ctx) => byIdOrSlug(ctx.store.topics, args),
  viewer(_source, _args, ctx) {
    return { user: existingUser(ctx, ctx.viewerId) };
  },
};
