import { afterAll, describe, expect, it } from 'vitest';
import { createDirectoryClient } from '../../src/directory/index.js';
import { createManualClock } from '../../src/emulator/index.js';
import { createFeeds, RECENT_ONLY } from '../../src/feeds/create-feeds.js';
import type { FeedRecord } from '../../src/feeds/feed-item.js';
import type { FeedName } from '../../src/feeds/feed-names.js';
import { makeFeedItem } from '../../src/feeds/make-item.js';

const clock = createManualClock(Date.UTC(2026, 10, 21, 10, 0));
// `position` reads saved state only: this client is never asked anything.
const client = createDirectoryClient({ baseUrl: 'http://127.0.0.1:9', token: 'unused' });
afterAll(() => client.close());
const feeds = new Map(createFeeds({ client, clock }, RECENT_ONLY).map((feed) => [feed.name, feed]));
const now = clock.now();
const iso = (ms: number) => new Date(ms).toISOString();
const position = (feed: FeedName, state: unknown, record: FeedRecord) =>
  feeds.get(feed)?.position(state, makeFeedItem(feed, 'new', record, now), now);

describe("where an item stands against its feed's saved position", () => {
  it('comments: passed up to the newest id handed on, ahead beyond it', () => {
    const comment = (id: string): FeedRecord => ({
      type: 'comment',
      comment: { id, body: 'x', createdAt: iso(now) },
    });
    expect(position('comments', undefined, comment('5'))).toBe('unstarted');
    expect(position('comments', { newestId: '10' }, comment('9'))).toBe('passed');
    expect(position('comments', { newestId: '10' }, comment('10'))).toBe('passed');
    expect(position('comments', { newestId: '10' }, comment('11'))).toBe('ahead');
  });

  it('posts: seen, or older than the watermark allows for late ones, is passed', () => {
    const post = (id: string, at: number): FeedRecord => ({
      type: 'post',
      post: { id, name: 'p', createdAt: iso(at), makers: [], topics: [] },
    });
    const state = { seen: ['1'], watermark: now };
    expect(position('posts', state, post('1', now))).toBe('passed');
    expect(position('posts', state, post('2', now - 30 * 60_000))).toBe('ahead');
    expect(position('posts', state, post('3', now - 3 * 3_600_000))).toBe('passed');
  });

  it('collections: only featured ones are ever posted', () => {
    const collection = (id: string, featuredAt?: number): FeedRecord => ({
      type: 'collection',
      collection: { id, name: 'c', ...(featuredAt === undefined ? {} : { featuredAt: iso(featuredAt) }) },
    });
    const state = { seen: ['1'], watermark: now };
    expect(position('collections', state, collection('2'))).toBe('never');
    expect(position('collections', state, collection('1', now))).toBe('passed');
    expect(position('collections', state, collection('2', now))).toBe('ahead');
  });

  it('live events: announced, or started without being announced, is passed', () => {
    const event = (id: string, startsAt: number): FeedRecord => ({
      type: 'live',
      event: { id, name: 'e', startsAt: iso(startsAt), liveVideo: false },
    });
    const state = { seen: ['1'], upcoming: [] };
    expect(position('live', state, event('1', now + 3_600_000))).toBe('passed');
    expect(position('live', state, event('2', now - 60_000))).toBe('passed');
    expect(position('live', state, event('3', now + 3_600_000))).toBe('ahead');
  });

  it('notifications: passed once seen', () => {
    const notification = (id: string): FeedRecord => ({
      type: 'notification',
      notification: { id, kind: 'Post', text: 'hi' },
    });
    expect(position('notifications', { seen: ['1'] }, notification('1'))).toBe('passed');
    expect(position('notifications', { seen: ['1'] }, notification('2'))).toBe('ahead');
    expect(position('notifications', undefined, notification('2'))).toBe('unstarted');
  });
});
