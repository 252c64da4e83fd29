import type { CollectionRecord, CommentRecord, PostRecord, TopicRecord, UserRecord } from './model.js';
import { isRedacted, WEB_BASE } from './v1-serializers.js';
import {
  type Args,
  commentsOrdered,
  connection,
  existingUser,
  IMAGE_BASE,
  isDefined,
  numericId,
  type Resolver,
  type V2Context,
} from './v2-context.js';

/*
 * The fields of each object type that are not plain record fields: computed values, links to
 * other records, and nested connections.
 */

export const postResolvers: Record<string, Resolver<PostRecord>> = {
  commentsCount: (p, _a, ctx) => ctx.store.commentCountByPost.get(p.id) ?? 0,
  isCollected: (p, _a, ctx) =>
    [...ctx.store.collections.values()].some((c) => c.userId === ctx.viewerId && c.postIds.includes(p.id)),
  isVoted: () => false,
  makers: (p, _a, ctx) => p.makerIds.map((id) => existingUser(ctx, id)),
  thumbnail: (p) => ({ type: 'image', url: `${IMAGE_BASE}/thumbnails/${p.id}.png`, videoUrl: null }),
  url: (p) => `${WEB_BASE}/posts/${p.slug}`,
  user: (p, _a, ctx) => existingUser(ctx, p.userId),
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

export const collectionResolvers: Record<string, Resolver<CollectionRecord>> = {
  coverImage: (c) => c.backgroundImageUrl,
  followersCount: (c) => c.subscriberIds.length,
  isFollowing: (c, _a, ctx) => c.subscriberIds.includes(ctx.viewerId),
  tagline: (c) => c.title,
  url: (c, _a, ctx) =>
    `${WEB_BASE}/@${ctx.store.users.get(c.userId)?.username ?? c.userId}/collections/${c.slug}`,
  user: (c, _a, ctx) => existingUser(ctx, c.userId),
  userId: (c) => String(c.userId),
  posts: (c, args, ctx) =>
    connection(c.postIds.map((id) => ctx.store.posts.get(id)).filter(isDefined), args, ctx),
  topics: (c, args, ctx) =>
    connection(c.topicIds.map((id) => ctx.store.topics.get(id)).filter(isDefined), args, ctx),
};

export const commentResolvers: Record<string, Resolver<CommentRecord>> = {
  isVoted: () => false,
  parent: (c, _a, ctx) =>
    c.parentCommentId === null ? null : (ctx.store.comments.get(c.parentCommentId) ?? null),
  parentId: (c) => (c.parentCommentId === null ? null : String(c.parentCommentId)),
  url: (c, _a, ctx) => `${WEB_BASE}/posts/${ctx.store.posts.get(c.postId)?.slug ?? c.postId}?comment=${c.id}`,
  user: (c, _a, ctx) => existingUser(ctx, c.userId),
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

export const topicResolvers: Record<string, Resolver<TopicRecord>> = {
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

export const userResolvers: Record<string, Resolver<UserRecord>> = {
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
