import { describe, expect, it } from 'vitest';
import type { DirectoryClientEvent } from '../../src/directory/events.js';
import { parseRecords } from '../../src/directory/parse-records.js';
import {
  v1CollectionSchema,
  v1CommentSchema,
  v1LiveEventSchema,
  v1NotificationSchema,
  v1UserSchema,
} from '../../src/directory/v1-records.js';
import { redactedV1User, v1Collection, v1Comment, v1LiveEvent, v1User } from '../fixtures/api-records.js';
import { ada, liveEvent, redacted } from '../fixtures/parsed-records.js';

describe('V1 user schema', () => {
  it('normalises a full user and picks a mid-sized avatar from the image map', () => {
    expect(v1UserSchema.parse(v1User)).toEqual(ada);
  });

  it('turns a redacted user into "someone" with nothing to link', () => {
    expect(v1UserSchema.parse(redactedV1User)).toEqual(redacted);
  });

  it('accepts an empty image map, an original-only map and a missing headline', () => {
    const empty = v1UserSchema.parse({ ...v1User, image_url: {}, headline: '' });
    expect(empty.avatarUrl).toBeUndefined();
    expect(empty.headline).toBeUndefined();
    const original = v1UserSchema.parse({ ...v1User, image_url: { original: 'https://i.test/o.png' } });
    expect(original.avatarUrl).toBe('https://i.test/o.png');
  });

  it('never exposes a [REDACTED] profile link even when the rest is readable', () => {
    const user = v1UserSchema.parse({ ...v1User, profile_url: '[REDACTED]' });
    expect(user.profileUrl).toBeUndefined();
  });
});

describe('V1 comment schema', () => {
  it('normalises ids to strings and Pacific millisecond timestamps to UTC', () => {
    const comment = v1CommentSchema.parse(v1Comment);
    expect(comment).toMatchObject({
      id: '402133',
      body: 'Congrats on the launch! <!channel>',
      createdAt: '2017-03-09T08:29:11.627Z',
      postId: '98114',
      votes: 3,
      sticky: false,
      childCommentsCount: 2,
      url: 'https://www.example-directory.test/posts/analytical-engine?comment=402133',
    });
    expect(comment.parentCommentId).toBeUndefined();
    expect(comment.user?.username).toBe('ada');
  });

  it('keeps the nested post with its valid makers and drops the broken one', () => {
    const post = v1CommentSchema.parse(v1Comment).post;
    expect(post).toMatchObject({
      id: '98114',
      name: 'Analytical Engine',
      day: '2017-03-08',
      createdAt: '2017-03-08T08:01:00.000Z',
      thumbnailUrl: 'https://images.example.test/thumb.png',
      url: 'https://www.example-directory.test/posts/analytical-engine?utm_campaign=api',
    });
    expect(post?.makers.map((m) => m.id)).toEqual(['81533']);
    expect(post?.topics).toEqual([]);
  });

  it('accepts an old comment without url, subject, sticky, votes, post or user', () => {
    const comment = v1CommentSchema.parse({
      id: 12,
      body: 'First!',
      created_at: '2014-01-02T03:04:05.000-08:00',
    });
    expect(comment).toEqual({ id: '12', body: 'First!', createdAt: '2014-01-02T11:04:05.000Z' });
  });

  it('takes the post id from subject_id when only the subject is given', () => {
    const { post: _post, post_id: _postId, ...rest } = v1Comment;
    expect(v1CommentSchema.parse(rest).postId).toBe('98114');
  });

  it('drops a nested user that is not a user instead of the comment', () => {
    const comment = v1CommentSchema.parse({ ...v1Comment, user: 'ada' });
    expect(comment.user).toBeUndefined();
    expect(comment.id).toBe('402133');
  });

  it.each([
    ['without an id', { ...v1Comment, id: undefined }, 'id'],
    ['with a negative id', { ...v1Comment, id: -4 }, 'id'],
    ['without a body', { ...v1Comment, body: null }, 'body'],
    ['with a garbage created_at', { ...v1Comment, created_at: 'yesterday' }, 'created_at'],
  ])('rejects a comment %s at the failing path', (_name, record, path) => {
    const result = v1CommentSchema.safeParse(record);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path.join('.')).toBe(path);
  });
});

describe('V1 collection schema', () => {
  it('normalises a featured collection', () => {
    expect(v1CollectionSchema.parse(v1Collection)).toEqual({
      id: '3121',
      name: 'Engines',
      title: 'Every engine worth knowing',
      createdAt: '2016-11-01T17:00:00.000Z',
      updatedAt: '2017-02-01T18:00:00.000Z',
      featuredAt: '2017-02-02T17:30:00.000Z',
      url: 'https://www.example-directory.test/@ada/collections/engines?utm_source=api',
      color: 'blue',
      postsCount: 7,
      subscriberCount: 44,
      user: v1UserSchema.parse(v1User),
    });
  });

  it('drops an optional field of the wrong type rather than the record', () => {
    const collection = v1CollectionSchema.parse({ ...v1Collection, posts_count: 'many', featured_at: 12 });
    expect(collection.postsCount).toBeUndefined();
    expect(collection.featuredAt).toBeUndefined();
  });
});

describe('V1 live event schema', () => {
  it('normalises an on-camera event', () => {
    expect(v1LiveEventSchema.parse(v1LiveEvent)).toEqual(liveEvent);
  });

  it('gives an undated event a null start and treats a missing live_video as off camera', () => {
    const event = v1LiveEventSchema.parse({ id: 78, name: 'Someday', starts_at: null });
    expect(event).toEqual({ id: '78', name: 'Someday', startsAt: null, liveVideo: false });
  });
});

describe('V1 notification schema', () => {
  it('reads the fields the emulator and the usual field names carry', () => {
    const notification = v1NotificationSchema.parse({
      id: 16,
      created_at: '2026-11-21T02:47:43.301-08:00',
      reference_type: 'Post',
      reference_id: 56,
      sentence: 'Amara upvoted Swift Notes',
      seen: false,
      url: 'https://www.example-directory.test/notifications/16',
      from_user: redactedV1User,
    });
    expect(notification).toEqual({
      id: '16',
      kind: 'Post',
      text: 'Amara upvoted Swift Notes',
      createdAt: '2026-11-21T10:47:43.301Z',
      url: 'https://www.example-directory.test/notifications/16',
      referenceId: '56',
      referenceType: 'Post',
      user: { id: '0', name: 'someone', username: '', redacted: true },
      seen: false,
    });
  });

  it('accepts a notification that has nothing but an id', () => {
    expect(v1NotificationSchema.parse({ id: 'n-1' })).toEqual({ id: 'n-1', kind: 'unknown', text: '' });
  });
});

describe('parseRecords', () => {
  it('skips a malformed record, reports its id and failing path, and counts it', () => {
    const events: DirectoryClientEvent[] = [];
    const result = parseRecords(
      [v1Comment, { ...v1Comment, id: 402134, created_at: 42 }, null, { ...v1Comment, id: 402135 }],
      v1CommentSchema,
      'comment',
      (event) => events.push(event),
    );
    expect(result.items.map((c) => c.id)).toEqual(['402133', '402135']);
    expect(result.skipped).toBe(2);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'record-skipped',
        resource: 'comment',
        id: '402134',
        path: 'created_at',
      }),
      expect.objectContaining({
        type: 'record-skipped',
        resource: 'comment',
        id: undefined,
        path: '(record)',
      }),
    ]);
  });
});
