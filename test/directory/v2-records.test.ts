import { describe, expect, it } from 'vitest';
import {
  v2CollectionSchema,
  v2CommentSchema,
  v2PostSchema,
  v2TopicSchema,
  v2UserProfileSchema,
  v2UserSchema,
} from '../../src/directory/v2-records.js';
import { v2PostNode } from '../fixtures/api-records.js';

describe('V2 post schema', () => {
  it('normalises a post node with string id, Z dates, topics and a redacted hunter', () => {
    expect(v2PostSchema.parse(v2PostNode)).toEqual({
      id: '98114',
      name: 'Analytical Engine',
      tagline: 'Computes Bernoulli numbers',
      slug: 'analytical-engine',
      url: 'https://www.example-directory.test/posts/analytical-engine',
      votesCount: 340,
      commentsCount: 12,
      createdAt: '2017-03-08T08:01:00.000Z',
      thumbnailUrl: 'https://images.example.test/thumb.png',
      makers: [],
      topics: ['Developer Tools', 'Maths'],
      user: { id: '0', name: 'someone', username: '', redacted: true },
    });
  });

  it('reads topics selected as nodes as well as edges', () => {
    const post = v2PostSchema.parse({ ...v2PostNode, topics: { nodes: [{ name: 'AI' }, { nope: 1 }] } });
    expect(post.topics).toEqual(['AI']);
  });

  it('accepts a minimal node with only id and name', () => {
    expect(v2PostSchema.parse({ id: '1', name: 'Tiny' })).toEqual({
      id: '1',
      name: 'Tiny',
      makers: [],
      topics: [],
    });
  });

  it('rejects a node without a name', () => {
    const result = v2PostSchema.safeParse({ ...v2PostNode, name: null });
    expect(result.error?.issues[0]?.path).toEqual(['name']);
  });
});

describe('V2 collection, comment, topic and user schemas', () => {
  it('maps a collection tagline to title and followers to subscribers', () => {
    const collection = v2CollectionSchema.parse({
      id: '7',
      name: 'Engines',
      tagline: 'All of them',
      createdAt: '2020-01-01T00:00:00Z',
      featuredAt: '2020-01-02T00:00:00Z',
      url: 'https://www.example-directory.test/collections/engines',
      followersCount: 9,
      coverImage: null,
      user: { id: '5', name: 'Ada', username: 'ada', url: 'https://www.example-directory.test/@ada' },
    });
    expect(collection).toMatchObject({
      id: '7',
      title: 'All of them',
      subscriberCount: 9,
      featuredAt: '2020-01-02T00:00:00.000Z',
      user: {
        id: '5',
        username: 'ada',
        profileUrl: 'https://www.example-directory.test/@ada',
        redacted: false,
      },
    });
    expect(collection.backgroundImageUrl).toBeUndefined();
  });

  it('maps a comment parentId and votesCount', () => {
    expect(
      v2CommentSchema.parse({
        id: '9',
        body: 'Nice',
        createdAt: '2024-05-01T10:00:00Z',
        parentId: '8',
        votesCount: 2,
      }),
    ).toEqual({
      id: '9',
      body: 'Nice',
      createdAt: '2024-05-01T10:00:00.000Z',
      parentCommentId: '8',
      votes: 2,
    });
  });

  it('reads a topic', () => {
    expect(v2TopicSchema.parse({ id: '3', name: 'AI', slug: 'ai', image: '' })).toEqual({
      id: '3',
      name: 'AI',
      slug: 'ai',
    });
  });

  it('rejects a user with neither name nor username', () => {
    expect(v2UserSchema.safeParse({ id: '4', name: '', username: '' }).success).toBe(false);
  });

  it('keeps nothing personal on a redacted profile', () => {
    const profile = v2UserProfileSchema.parse({
      id: '0',
      name: '[REDACTED]',
      username: '[REDACTED]',
      twitterUsername: 'secret',
      websiteUrl: 'https://secret.example',
      madePosts: { edges: [{ node: { id: '1', name: 'Tiny' } }] },
      followedCollections: { edges: [] },
    });
    expect(profile).toEqual({
      id: '0',
      name: 'someone',
      username: '',
      redacted: true,
      madePosts: [{ id: '1', name: 'Tiny', makers: [], topics: [] }],
      followedCollections: [],
    });
  });
});
