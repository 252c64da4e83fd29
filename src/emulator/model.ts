/**
 * The emulator's internal records. They hold every fact once (epoch-ms times, ids as
 * numbers); the V1 serializers and V2 resolvers render them in each API's shape, so a V2
 * post and a post nested in a V1 comment are the same record with the same id.
 */

export interface UserRecord {
  id: number;
  createdAt: number;
  name: string;
  username: string;
  headline: string | null;
  twitterUsername: string | null;
  websiteUrl: string | null;
  isMaker: boolean;
}

export interface TopicRecord {
  id: number;
  name: string;
  slug: string;
  description: string;
  createdAt: number;
  followersCount: number;
}

export interface PostRecord {
  id: number;
  name: string;
  tagline: string;
  description: string | null;
  slug: string;
  createdAt: number;
  /** null: never featured. */
  featuredAt: number | null;
  votesCount: number;
  reviewsCount: number;
  reviewsRating: number;
  categoryId: number | null;
  userId: number;
  makerIds: number[];
  topicIds: number[];
  website: string;
  productLinks: { type: string; url: string }[];
  media: { type: string; url: string; videoUrl: string | null }[];
  thumbnailId: number;
}

export interface CommentRecord {
  id: number;
  body: string;
  createdAt: number;
  updatedAt: number;
  parentCommentId: number | null;
  userId: number;
  postId: number;
  sticky: boolean;
  votes: number;
}

export interface CollectionRecord {
  id: number;
  name: string;
  title: string;
  slug: string;
  description: string | null;
  createdAt: number;
  updatedAt: number;
  /** null: never featured. */
  featuredAt: number | null;
  subscriberIds: number[];
  backgroundImageUrl: string | null;
  categoryId: number | null;
  color: string;
  userId: number;
  postIds: number[];
  topicIds: number[];
}

export interface LiveEventRecord {
  id: number;
  name: string;
  tagline: string;
  slug: string;
  /** null: scheduled without a date. */
  startsAt: number | null;
  endsAt: number | null;
  subscriberCount: number;
  liveVideo: boolean;
  twitterUsername: string | null;
  categoryId: number | null;
  backgroundImageUrl: string | null;
  scheduleImageUrl: string | null;
}

export interface NotificationRecord {
  id: number;
  /** The user the notification is for (the token's user). */
  toUserId: number;
  fromUserId: number | null;
  createdAt: number;
  /** Type of the reference object (`Post`, `Comment`, `Collection`, `User`). */
  referenceType: string;
  referenceId: number;
  sentence: string;
  /** Cleared by DELETE /v1/notifications; only unseen ones are listed. */
  seen: boolean;
}
