import { describe, expect, it } from 'vitest';
import { makeFeedItem } from '../../src/feeds/make-item.js';
import { type FeedFilters, filterMiss, matchesFilters } from '../../src/subscriptions/filters.js';

const ada = { id: '7', name: 'Ada', username: 'ada', redacted: false };
const comment = makeFeedItem(
  'comments',
  'new',
  {
    type: 'comment',
    comment: {
      id: '1',
      body: 'Crypto tools, finally',
      createdAt: '2026-01-01T00:00:00Z',
      user: ada,
      postId: '42',
      post: { id: '42', name: 'Nimbus', slug: 'nimbus', makers: [], topics: [] },
    },
  },
  0,
);
const post = makeFeedItem(
  'posts',
  'new',
  { type: 'post', post: { id: '9', name: 'Atlas', votesCount: 12, makers: [], topics: [] } },
  0,
);
const event = makeFeedItem(
  'live',
  'new',
  { type: 'live', event: { id: '3', name: 'AMA', startsAt: null, liveVideo: false } },
  0,
);

describe('which filter an item failed', () => {
  it.each<[string, typeof comment, FeedFilters, { filter: string; had: string } | undefined]>([
    ['a post filter', comment, { post: 'atlas' }, { filter: '--post atlas', had: 'it is on post nimbus' }],
    ['a user filter', comment, { user: 'grace' }, { filter: '--user grace', had: 'it is by @ada' }],
    [
      'keywords',
      comment,
      { keywords: ['ai', 'ml'] },
      { filter: '--keyword "ai" or "ml"', had: 'it mentions none of them' },
    ],
    [
      'an excluded word',
      comment,
      { exclude: ['spam', 'crypto'] },
      { filter: '--exclude "spam" or "crypto"', had: 'it mentions "crypto"' },
    ],
    ['on camera only', event, { video: true }, { filter: '--video', had: 'it is not on camera' }],
    ['too few votes', post, { minVotes: 50 }, { filter: '--min-votes 50', had: 'it has 12 votes now' }],
    ['none: it passes', comment, { post: 'nimbus', user: 'ADA', keywords: ['tools'] }, undefined],
  ])('%s', (_name, item, filters, miss) => {
    expect(filterMiss(item, filters)).toEqual(miss);
    // Exactly the items routing lets through have no miss.
    expect(matchesFilters(item, filters)).toBe(miss === undefined);
  });
});
