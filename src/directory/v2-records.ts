import { z } from 'zod';
import {
  compact,
  idSchema,
  isRedacted,
  optionalBool,
  optionalId,
  optionalInt,
  optionalText,
  optionalTimestamp,
  optionalUrl,
  requiredText,
  requiredTimestamp,
  tolerantArray,
  tolerantObject,
} from './schema-helpers.js';
import type {
  DirectoryCollection,
  DirectoryComment,
  DirectoryPost,
  DirectoryTopic,
  DirectoryUser,
  DirectoryUserProfile,
} from './types.js';
import { redactedUser } from './v1-records.js';

/**
 * zod schemas for the V2 GraphQL nodes the client queries (see `v2-queries.ts`), each
 * transforming into the same domain types as the V1 records. V2 ids are strings and
 * `DateTime`s are UTC with `Z`; both are normalised like V1's.
 */

const userFields = {
  id: idSchema,
  name: z.string().optional(),
  username: z.string().optional(),
  headline: optionalText,
  url: optionalUrl,
  profileImage: optionalUrl,
};

function toUser(raw: {
  id: string;
  name?: string | undefined;
  username?: string | undefined;
  headline?: string | undefined;
  url?: string | undefined;
  profileImage?: string | undefined;
}): DirectoryUser {
  if (isRedacted(raw.id, raw.name, raw.username)) return redactedUser(raw.id);
  return compact({
    id: raw.id,
    name: raw.name?.trim() || raw.username || 'unknown',
    username: raw.username ?? '',
    headline: raw.headline,
    profileUrl: raw.url,
    avatarUrl: raw.profileImage,
    redacted: false,
  });
}

export const v2UserSchema: z.ZodType<DirectoryUser> = z.object(userFields).transform((raw, ctx) => {
  const user = toUser(raw);
  if (!user.redacted && !raw.name?.trim() && !raw.username?.trim()) {
    ctx.addIssue({ code: 'custom', message: 'a user needs a name or a username', path: ['name'] });
    return z.NEVER;
  }
  return user;
});

const nestedUser = tolerantObject(v2UserSchema);

/** A connection's nodes, whether selected as `edges { node }` or `nodes`; bad nodes dropped. */
function tolerantConnection<T>(schema: z.ZodType<T>) {
  return z
    .unknown()
    .optional()
    .transform((value): T[] => {
      if (value === null || typeof value !== 'object') return [];
      const connection = value as { edges?: unknown; nodes?: unknown };
      const raw = Array.isArray(connection.nodes)
        ? connection.nodes
        : Array.isArray(connection.edges)
          ? connection.edges.map((edge) =>
              edge !== null && typeof edge === 'object' ? (edge as { node?: unknown }).node : undefined,
            )
          : [];
      return tolerantArray(schema).parse(raw);
    });
}

const topicNameSchema = z.object({ name: z.string().min(1) }).transform((topic) => topic.name);

const mediaUrl = z
  .unknown()
  .optional()
  .transform((value) =>
    value !== null && typeof value === 'object'
      ? optionalUrl.parse((value as Record<string, unknown>)['url'])
      : undefined,
  );

export const v2PostSchema: z.ZodType<DirectoryPost> = z
  .object({
    id: idSchema,
    name: requiredText,
    tagline: optionalText,
    slug: optionalText,
    url: optionalUrl,
    votesCount: optionalInt,
    commentsCount: optionalInt,
    createdAt: optionalTimestamp,
    featuredAt: optionalTimestamp,
    thumbnail: mediaUrl,
    user: nestedUser,
    makers: tolerantArray(v2UserSchema),
    topics: tolerantConnection(topicNameSchema),
  })
  .transform(
    (raw): DirectoryPost =>
      compact({
        id: raw.id,
        name: raw.name,
        tagline: raw.tagline,
        slug: raw.slug,
        url: raw.url,
        votesCount: raw.votesCount,
        commentsCount: raw.commentsCount,
        createdAt: raw.createdAt,
        featuredAt: raw.featuredAt,
        // V2 has no `day`: it is the Pacific calendar day on the live service, which the
        // bot does not need; leaving it out avoids inventing one.
        thumbnailUrl: raw.thumbnail,
        makers: raw.makers,
        topics: raw.topics,
        user: raw.user,
      }),
  );

export const v2CollectionSchema: z.ZodType<DirectoryCollection> = z
  .object({
    id: idSchema,
    name: requiredText,
    tagline: optionalText,
    createdAt: optionalTimestamp,
    featuredAt: optionalTimestamp,
    url: optionalUrl,
    followersCount: optionalInt,
    coverImage: optionalUrl,
    user: nestedUser,
  })
  .transform(
    (raw): DirectoryCollection =>
      compact({
        id: raw.id,
        name: raw.name,
        title: raw.tagline,
        createdAt: raw.createdAt,
        featuredAt: raw.featuredAt,
        url: raw.url,
        subscriberCount: raw.followersCount,
        backgroundImageUrl: raw.coverImage,
        user: raw.user,
      }),
  );

export const v2CommentSchema: z.ZodType<DirectoryComment> = z
  .object({
    id: idSchema,
    body: requiredText,
    createdAt: requiredTimestamp,
    parentId: optionalId,
    url: optionalUrl,
    votesCount: optionalInt,
    user: nestedUser,
  })
  .transform(
    (raw): DirectoryComment =>
      compact({
        id: raw.id,
        body: raw.body,
        createdAt: raw.createdAt,
        parentCommentId: raw.parentId,
        url: raw.url,
        user: raw.user,
        votes: raw.votesCount,
      }),
  );

export const v2TopicSchema: z.ZodType<DirectoryTopic> = z
  .object({
    id: idSchema,
    name: requiredText,
    slug: optionalText,
    description: optionalText,
    url: optionalUrl,
    followersCount: optionalInt,
    postsCount: optionalInt,
    image: optionalUrl,
    createdAt: optionalTimestamp,
  })
  .transform(
    (raw): DirectoryTopic =>
      compact({
        id: raw.id,
        name: raw.name,
        slug: raw.slug,
        description: raw.description,
        url: raw.url,
        followersCount: raw.followersCount,
        postsCount: raw.postsCount,
        imageUrl: raw.image,
        createdAt: raw.createdAt,
      }),
  );

export const v2UserProfileSchema: z.ZodType<DirectoryUserProfile> = z
  .object({
    ...userFields,
    twitterUsername: optionalText,
    websiteUrl: optionalUrl,
    isMaker: optionalBool,
    createdAt: optionalTimestamp,
    madePosts: tolerantConnection(v2PostSchema),
    followedCollections: tolerantConnection(v2CollectionSchema),
  })
  .transform((raw): DirectoryUserProfile => {
    const user = toUser(raw);
    // Redacted profiles expose nothing personal beyond what toUser kept.
    const personal = user.redacted
      ? {}
      : compact({
          twitterUsername: raw.twitterUsername,
          websiteUrl: raw.websiteUrl,
          isMaker: raw.isMaker,
          createdAt: raw.createdAt,
        });
    return {
      ...user,
      ...personal,
      madePosts: raw.madePosts,
      followedCollections: raw.followedCollections,
    };
  });

/** `pageInfo` of a connection; `endCursor` may be null on an empty page. */
export const pageInfoSchema = z.object({
  endCursor: z.string().nullable().optional(),
  hasNextPage: z.boolean(),
});

/** A connection envelope as the client selects it: `edges { node }` plus `pageInfo`. */
export const connectionEnvelopeSchema = z.object({
  edges: z.array(z.object({ node: z.unknown() }).loose()),
  pageInfo: pageInfoSchema.loose(),
});
