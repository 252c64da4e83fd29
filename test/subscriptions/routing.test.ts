import { describe, expect, it } from 'vitest';
import type { FeedName } from '../../src/feeds/feed-names.js';
import { makeFeedItem } from '../../src/feeds/make-item.js';
import { routeItem } from '../../src/subscriptions/routing.js';
import type { Subscription } from '../../src/subscriptions/subscription.js';

const user = { id: '7', name: 'Ada', username: 'ada', redacted: false };
const comment = (body: string) =>
  makeFeedItem(
    'comments',
    'new',
    {
      type: 'comment',
      comment: {
        id: '1',
        body,
        createdAt: '2026-01-01T00:00:00Z',
        user,
        postId: '42',
        post: { id: '42', name: 'Nimbus', slug: 'nimbus', makers: [], topics: [] },
      },
    },
    1000,
  );

let next = 0;
function subscription(
  feed: FeedName,
  filters: Subscription['filters'],
  extra: Partial<Subscription> = {},
): Subscription {
  next += 1;
  return {
    id: `s${next}`,
    platform: 'slack',
    channelId: `C${next}`,
    feed,
    filters,
    createdBy: 't',
    createdAt: 0,
    ...extra,
  };
}

describe('routing an item to subscriptions', () => {
  it('matches keywords on word boundaries, case-insensitively', () => {
    const ai = subscription('comments', { keywords: ['ai'] });
    expect(routeItem(comment('AI is here'), [ai], { now: 0, defaultRemindMinutes: 15 })).toEqual([ai]);
    expect(routeItem(comment('I said so'), [ai], { now: 0, defaultRemindMinutes: 15 })).toEqual([]);
  });

  it('finds a keyword beside punctuation, emoji and non-Latin text, but not inside another word', () => {
    const ai = subscription('comments', { keywords: ['ai'] });
    const routes = (body: string) =>
      routeItem(comment(body), [ai], { now: 0, defaultRemindMinutes: 15 }).length;
    expect(routes('(AI), again')).toBe(1);
    expect(routes('😀ai😀')).toBe(1);
    expect(routes('said, then ai')).toBe(1); // a later occurrence counts when the first is inside a word
    expect(routes('naïve aim')).toBe(0);
    expect(routes('über_ai')).toBe(0); // `_` is a word character
    expect(routes('𝒜ai and 𝒜ai')).toBe(0); // a letter outside the BMP is a letter too
    expect(routes('日本ai')).toBe(0);
    expect(routes('x\uDC9Cai')).toBe(1); // a lone low surrogate is no letter, whatever precedes it
  });

  it('matches symbols in keywords as plain text (c++, node.js)', () => {
    const cpp = subscription('comments', { keywords: ['c++'] });
    expect(
      routeItem(comment('written in C++ of course'), [cpp], { now: 0, defaultRemindMinutes: 15 }),
    ).toEqual([cpp]);
  });

  it('drops an item that mentions an excluded word', () => {
    const sub = subscription('comments', { exclude: ['crypto'] });
    expect(routeItem(comment('more Crypto news'), [sub], { now: 0, defaultRemindMinutes: 15 })).toEqual([]);
  });

  it('filters comments by post id or slug, and by author', () => {
    const bySlug = subscription('comments', { post: 'Nimbus' });
    const byId = subscription('comments', { post: '42' });
    const byOther = subscription('comments', { post: 'other' });
    const byUser = subscription('comments', { user: 'ADA' });
    expect(
      routeItem(comment('x'), [bySlug, byId, byOther, byUser], { now: 0, defaultRemindMinutes: 15 }),
    ).toEqual([bySlug, byId, byUser]);
  });

  it('skips paused subscriptions and other feeds', () => {
    const paused = subscription(
      'comments',
      {},
      { paused: { code: 'is_archived', reason: 'archived', at: 1 } },
    );
    const posts = subscription('posts', {});
    expect(routeItem(comment('x'), [paused, posts], { now: 0, defaultRemindMinutes: 15 })).toEqual([]);
  });

  it('sends an item once per channel even when two subscriptions there match', () => {
    const a = subscription('comments', {}, { channelId: 'CSAME' });
    const b = subscription('comments', { keywords: ['x'] }, { channelId: 'CSAME' });
    expect(routeItem(comment('x'), [a, b], { now: 0, defaultRemindMinutes: 15 })).toEqual([a]);
  });

  it('only routes items found after the subscription was created', () => {
    const late = subscription('comments', {}, { createdAt: 5000 });
    expect(routeItem(comment('x'), [late], { now: 0, defaultRemindMinutes: 15 })).toEqual([]);
  });

  it('sends a live reminder only inside the subscription’s lead time, and only for on-camera events when asked', () => {
    const startsAt = new Date(60 * 60_000).toISOString();
    const event = { id: '9', name: 'AMA', startsAt, liveVideo: false };
    const reminder = makeFeedItem('live', 'reminder', { type: 'live', event }, 0);
    const ten = subscription('live', { remindMinutes: 10 });
    const defaultLead = subscription('live', {});
    const videoOnly = subscription('live', { video: true, remindMinutes: 60 });
    const at = (minutesBefore: number) => ({ now: (60 - minutesBefore) * 60_000, defaultRemindMinutes: 15 });
    expect(routeItem(reminder, [ten, defaultLead, videoOnly], at(20))).toEqual([]);
    expect(routeItem(reminder, [ten, defaultLead, videoOnly], at(12))).toEqual([defaultLead]);
    expect(routeItem(reminder, [ten, defaultLead, videoOnly], at(5))).toEqual([ten, defaultLead]);
  });
});
