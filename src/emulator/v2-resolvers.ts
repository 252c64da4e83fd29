import {
  buildSchema,
  GraphQLError,
  type GraphQLFieldResolver,
  GraphQLObjectType,
  GraphQLScalarType,
  type GraphQLSchema,
  Kind,
} from 'graphql';
import type { CollectionRecord, CommentRecord, PostRecord, TopicRecord, UserRecord } from './model.js';
import type { Store } from './store.js';
import { formatV2DateTime } from './time-format.js';
import { isRedacted, WEB_BASE } from './v1-serializers.js';
import { type ConnectionArgs, toConnection } from './v2-connection.js';
import { V2_SCHEMA_SDL } from './v2-schema.js';

/** Per-request state of a V2 execution. */
export interface V2Context {
  store: Store;
  viewerId: number;
  quirks: boolean;
  now: number;
}

type Args = Record<string, unknown> & ConnectionArgs;
type Resolver<S> = (source: S, args: Args, ctx: V2Context) => unknown;
type ResolverMap = Record<string, Record<string, Resolver<never>>>;

const IMAGE_BASE = 'https://images.example-directory.test';
const HOUR = 3_600_000;

/** Parses an ID argument; ids that are not positive integers find nothing. */
function numericId(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  return /^[1-9]\d*$/.test(text) ? Number(text) : undefined;
}

function connection<T>(items: readonly T[], args: Args, ctx: V2Context) {
  return toConnection(items, args, ctx.quirks);
}

function user(ctx: V2Context, id: number): UserRecord {
  const found = ctx.store.users.get(id);
  if (!found) throw new GraphQLError(`User ${id} is missing`);
  return found;
}

function postsOrdered(posts: PostRecord[], order: string, now: number): PostRecord[] {
  const featured = (p: PostRecord) => p.featuredAt ?? Number.NEGATIVE_INFINITY;
  // Ranking: votes decayed by age, a stand-in for the live service's undisclosed formula.
  const rank = (p: PostRecord) => p.votesCount / (Math.max(0, now - p.createdAt) / HOUR + 2) ** 1.5;
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

function commentsOrdered(comments: CommentRecord[], order: unknown): CommentRecord[] {
  return comments.sort((a, b) =>
    order === 'VOTES_COUNT' ? b.votes - a.votes || b.id - a.id : b.createdAt - a.createdAt || b.id - a.id,
  );
}

const query: Record<string, Resolver<unknown>> = {
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
      postsOrdered(matching, (args['order'] as string | undefined) ?? 'RANKING', ctx.now),
      args,
      ctx,
    );
  },
  post(_source, args, ctx) {
    const id = numericId(args['id']);
    if (id !== undefined) return ctx.store.posts.get(id) ?? null;
    const slug = args['slug'];
    return typeof slug === 'string'
      ? ([...ctx.store.posts.values()].find((p) => p.slug === slug) ?? null)
      : null;
  },
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
  collection(_source, args, ctx) {
    const id = numericId(args['id']);
    if (id !== undefined) return ctx.store.collections.get(id) ?? null;
    const slug = args['slug'];
    return typeof slug === 'string'
      ? ([...ctx.store.collections.values()].find((c) => c.slug === slug) ?? null)
      : null;
  },
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
  topic(_source, args, ctx) {
    const id = numericId(args['id']);
    if (id !== undefined) return ctx.store.topics.get(id) ?? null;
    const slug = args['slug'];
    return typeof slug === 'string'
      ? ([...ctx.store.topics.values()].find((t) => t.slug === slug) ?? null)
      : null;
  },
  viewer(_source, _args, ctx) {
    return { user: user(ctx, ctx.viewerId) };
  },
};

const post: Record<string, Resolver<PostRecord>> = {
  commentsCount: (p, _a, ctx) => ctx.store.commentCountByPost.get(p.id) ?? 0,
  isCollected: (p, _a, ctx) =>
    [...ctx.store.collections.values()].some((c) => c.userId === ctx.viewerId && c.postIds.includes(p.id)),
  isVoted: () => false,
  makers: (p, _a, ctx) => p.makerIds.map((id) => user(ctx, id)),
  thumbnail: (p) => ({ type: 'image', url: `${IMAGE_BASE}/thumbnails/${p.id}.png`, videoUrl: null }),
  url: (p) => `${WEB_BASE}/posts/${p.slug}`,
  user: (p, _a, ctx) => user(ctx, p.userId),
  userId: (p) => String(p.userId),
  collections: (p, args, ctx) =>
    connection(
      [...ctx.store.collections.values()].filter((c) => c.postIds.includes(p.id)),
      args,
      ctx,
    ),
  comments: (p, args, ctx) =>
    connection(
      commentsOrdered(
        [...ctx.store.comments.values()].filter((c) => c.postId === p.id && c.parentCommentId === null),
        args['order'],
      ),
      args,
      ctx,
    ),
  topics: (p, args, ctx) =>
    connection(p.topicIds.map((id) => ctx.store.topics.get(id)).filter(isDefined), args, ctx),
};

const collection: Record<string, Resolver<CollectionRecord>> = {
  coverImage: (c) => c.backgroundImageUrl,
  followersCount: (c) => c.subscriberIds.length,
  isFollowing: (c, _a, ctx) => c.subscriberIds.includes(ctx.viewerId),
  tagline: (c) => c.title,
  url: (c, _a, ctx) =>
    `${WEB_BASE}/@${ctx.store.users.get(c.userId)?.username ?? c.userId}/collections/${c.slug}`,
  user: (c, _a, ctx) => user(ctx, c.userId),
  userId: (c) => String(c.userId),
  posts: (c, args, ctx) =>
    connection(c.postIds.map((id) => ctx.store.posts.get(id)).filter(isDefined), args, ctx),
  topics: (c, args, ctx) =>
    connection(c.topicIds.map((id) => ctx.store.topics.get(id)).filter(isDefined), args, ctx),
};

const comment: Record<string, Resolver<CommentRecord>> = {
  isVoted: () => false,
  parent: (c, _a, ctx) =>
    c.parentCommentId === null ? null : (ctx.store.comments.get(c.parentCommentId) ?? null),
  parentId: (c) => (c.parentCommentId === null ? null : String(c.parentCommentId)),
  url: (c, _a, ctx) => `${WEB_BASE}/posts/${ctx.store.posts.get(c.postId)?.slug ?? c.postId}?comment=${c.id}`,
  user: (c, _a, ctx) => user(ctx, c.userId),
  userId: (c) => String(c.userId),
  votesCount: (c) => c.votes,
  replies: (c, args, ctx) =>
    connection(
      commentsOrdered(
        [...ctx.store.comments.values()].filter((r) => r.parentCommentId === c.id),
        args['order'],
      ),
      args,
      ctx,
    ),
};

const topic: Record<string, Resolver<TopicRecord>> = {
  image: (t) => `${IMAGE_BASE}/topics/${t.slug}.png`,
  isFollowing: () => false,
  postsCount: (t, _a, ctx) => [...ctx.store.posts.values()].filter((p) => p.topicIds.includes(t.id)).length,
  url: (t) => `${WEB_BASE}/topics/${t.slug}`,
};

/** Other people's users are redacted in quirks mode, as the live service does since 2023. */
const redactable =
  (field: (u: UserRecord, args: Args, ctx: V2Context) => unknown, redacted: unknown): Resolver<UserRecord> =>
  (u, args, ctx) =>
    isRedacted(u.id, { quirks: ctx.quirks, viewerId: ctx.viewerId }) ? redacted : field(u, args, ctx);

const userResolvers: Record<string, Resolver<UserRecord>> = {
  id: redactable((u) => String(u.id), '0'),
  name: redactable((u) => u.name, '[REDACTED]'),
  username: redactable((u) => u.username, '[REDACTED]'),
  url: redactable((u) => `${WEB_BASE}/@${u.username}`, '[REDACTED]'),
  headline: redactable((u) => u.headline, null),
  twitterUsername: redactable((u) => u.twitterUsername, null),
  websiteUrl: redactable((u) => u.websiteUrl, null),
  profileImage: redactable(
    (u, args) => `${IMAGE_BASE}/avatars/${u.id}/${numericId(args['size']) ?? 'original'}.png`,
    null,
  ),
  coverImage: redactable((u) => `${IMAGE_BASE}/covers/${u.id}.png`, null),
  isFollowing: () => false,
  isViewer: (u, _a, ctx) => u.id === ctx.viewerId,
  followers: (_u, args, ctx) => connection([], args, ctx),
  following: (_u, args, ctx) => connection([], args, ctx),
  followedCollections: (u, args, ctx) =>
    connection(
      [...ctx.store.collections.values()].filter((c) => c.subscriberIds.includes(u.id)),
      args,
      ctx,
    ),
  madePosts: (u, args, ctx) =>
    connection(
      [...ctx.store.posts.values()].filter((p) => p.makerIds.includes(u.id)),
      args,
      ctx,
    ),
  submittedPosts: (u, args, ctx) =>
    connection(
      [...ctx.store.posts.values()].filter((p) => p.userId === u.id),
      args,
      ctx,
    ),
};

const RESOLVERS: ResolverMap = {
  Query: query,
  Post: post,
  Collection: collection,
  Comment: comment,
  Topic: topic,
  User: userResolvers,
};

/** DateTime: epoch ms inside, UTC `Z` without milliseconds outside. */
function configureDateTime(scalar: GraphQLScalarType): void {
  const parse = (value: unknown): number => {
    const ms = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(ms)) throw new GraphQLError(`DateTime cannot represent ${JSON.stringify(value)}`);
    return ms;
  };
  scalar.serialize = (value: unknown) => {
    if (typeof value !== 'number') throw new GraphQLError('DateTime must be epoch milliseconds internally');
    return formatV2DateTime(value);
  };
  scalar.parseValue = parse;
  scalar.parseLiteral = (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string');
    return parse(ast.value);
  };
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}

/** Builds the executable V2 schema (SDL plus resolvers). */
export function createV2Schema(): GraphQLSchema {
  const schema = buildSchema(V2_SCHEMA_SDL);
  const dateTime = schema.getType('DateTime');
  if (dateTime instanceof GraphQLScalarType) configureDateTime(dateTime);
  for (const [typeName, fields] of Object.entries(RESOLVERS)) {
    const type = schema.getType(typeName);
    if (!(type instanceof GraphQLObjectType)) throw new Error(`schema has no object type ${typeName}`);
    const defined = type.getFields();
    for (const [fieldName, resolve] of Object.entries(fields)) {
      const field = defined[fieldName];
      if (!field) throw new Error(`schema has no field ${typeName}.${fieldName}`);
      field.resolve = resolve as unknown as GraphQLFieldResolver<unknown, V2Context>;
    }
  }
  return schema;
}
