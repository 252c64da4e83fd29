/** What admin input and seed data may set on a new record; record-drafts.ts fills in the rest. */

export interface AddCommentInput {
  postId: number;
  parentCommentId: number | null;
  userId: number;
  body: string;
  sticky: boolean;
  votes: number;
}

export interface AddPostInput {
  name: string;
  tagline: string;
  votesCount: number;
  featured: boolean;
  userId: number;
  topicIds: number[];
  description: string | null;
}

export interface AddCollectionInput {
  name: string;
  title: string;
  featured: boolean;
  userId: number;
  postIds: number[];
}

export interface ScheduleLiveInput {
  name: string;
  tagline: string;
  /** ISO 8601; null schedules an event without a date. Default: within the next three days. */
  startsAt: string | null;
  liveVideo: boolean;
}

export interface AddNotificationInput {
  type: string;
  referenceId: number;
  sentence: string;
  fromUserId: number | null;
}

/** Raised for admin input that names a record which does not exist. */
export class UnknownRecordError extends Error {
  override readonly name = 'UnknownRecordError';
}
