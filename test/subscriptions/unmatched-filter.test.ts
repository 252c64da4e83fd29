import { describe, expect, it } from 'vitest';
import type { FeedRecord } from '../../src/feeds/feed-item.js';
import { makeFeedItem } from '../../src/feeds/make-item.js';
import { type FeedFilters, matchesFilters, unmatchedFilter } from '../../src/subscriptions/filters.js';

const post = (name: string, over: object = {}): FeedRecord => ({
  type: 'post',
  post: {
    id: '1',
    slug: 'x',
    name,
    tagline: 'Made for AI teams',
    votesCount: 12,
    makers: [{ id: 'u', username: 'Ada' }],
    topics: [],
    ...over,
  } as never,
});
const live = (liveVideo: boolean): FeedRecord => ({
  type: 'live',
  event: { id: '2', name: 'AMA', startsAt: null, liveVideo },
});

const ITEMS = [
  makeFeedItem('posts', 'new', post('Analytical engine'), 0),
  makeFeedItem('posts', 'new', post('Crypto said', { tagline: 'c++ and node.js' }), 0),
  makeFeedItem('posts', 'new', post('No votes', { votesCount: undefined, makers: [] }), 0),
  makeFeedItem('live', 'new', live(false), 0),
  makeFeedItem('live', 'new', live(true), 0),
];
const FILTERS: FeedFilters[] = [
  {},
  { keywords: ['ai'] },
  { keywords: ['said', 'engine'] },
  { keywords: ['c++'] },
  { exclude: ['crypto'] },
  { exclude: ['ai', 'teams'] },
  { user: 'ada' },
  { user: 'bob' },
  { post: 'x' },
  { post: 'y' },
  { minVotes: 12 },
  { minVotes: 13 },
  { video: true },
  { keywords: ['engine'], minVotes: 50, user: 'bob' },
];

describe('the filter that keeps an item out', () => {
  it('agrees with routing on every item and filter: none exactly when the item passes', () => {
    for (const item of ITEMS)
      for (const filters of FILTERS)
        expect(unmatchedFilter(item, filters) === undefined, `${item.key} ${JSON.stringify(filters)}`).toBe(
          matchesFilters(item, filters),
        );
  });

  it('names the option as typed, what it asks for and what the item had', () => {
    const [engine, crypto, unvoted, studio] = ITEMS;
    expect(unmatchedFilter(engine!, { keywords: ['robots', 'steam'] })).toEqual({
      option: '--keyword',
      wanted: 'robots, steam',
      had: 'it mentions none of them',
    });
    expect(unmatchedFilter(crypto!, { exclude: ['crypto', 'said', 'gold'] })).toEqual({
      option: '--exclude',
      wanted: 'crypto, said, gold',
      had: 'it mentions "crypto" and "said"',
    });
    expect(unmatchedFilter(engine!, { user: 'bob' })?.had).toBe('it is by ada');
    expect(unmatchedFilter(unvoted!, { minVotes: 5 })?.had).toBe('its votes are not known');
    expect(unmatchedFilter(engine!, { minVotes: 50 })?.had).toBe('it has 12 votes');
    expect(unmatchedFilter(studio!, { video: true })?.had).toBe('it is not on camera');
    // In routing's order: the first that fails is the one named.
    expect(unmatchedFilter(engine!, { keywords: ['engine'], minVotes: 50, user: 'bob' })?.option).toBe(
      '--user',
    );
  });
});
