import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import type { FeedItem } from '../../src/feeds/feed-item.js';
import { makeFeedItem } from '../../src/feeds/make-item.js';
import { chooseBackfill } from '../../src/subscriptions/backfill.js';
import { SubscriptionRepository } from '../../src/subscriptions/subscription-repository.js';
import { parseSubscriptionSpec } from '../../src/subscriptions/subscription-spec.js';
import { freeLeases } from '../support/free-leases.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const DAY = 86_400_000;

/** A post created `daysAgo` days before NOW, as `Feed.recent` lists it. */
function post(id: string, daysAgo: number, name = `Post ${id}`): FeedItem {
  const createdAt = new Date(NOW - daysAgo * DAY).toISOString();
  return makeFeedItem(
    'posts',
    'new',
    { type: 'post', post: { id, name, createdAt, makers: [], topics: [] } },
    NOW,
  );
}

function live(id: string, daysAhead: number): FeedItem {
  const startsAt = new Date(NOW + daysAhead * DAY).toISOString();
  return makeFeedItem(
    'live',
    'new',
    { type: 'live', event: { id, name: `Event ${id}`, startsAt, liveVideo: false } },
    NOW,
  );
}

const window = { now: NOW, withinMs: 30 * DAY };

describe('which items a backfill posts', () => {
  it('takes the N most recent that match, and posts them oldest first', () => {
    const recent = [
      post('5', 0),
      post('4', 1, 'AI tool'),
      post('3', 2),
      post('2', 3, 'AI helper'),
      post('1', 4),
    ];
    const all = chooseBackfill(recent, { feed: 'posts', filters: {} }, 3, window);
    expect(all.map((item) => item.id)).toEqual(['3', '4', '5']);
    const ai = chooseBackfill(recent, { feed: 'posts', filters: { keywords: ['ai'] } }, 5, window);
    expect(ai.map((item) => item.id)).toEqual(['2', '4']);
    expect(chooseBackfill(recent, { feed: 'posts', filters: {} }, 0, window)).toEqual([]);
  });

  it('leaves out what the delivered ledger could have forgotten: older than DEDUPE_TTL_DAYS, or with no time', () => {
    const untimed = makeFeedItem(
      'posts',
      'new',
      { type: 'post', post: { id: '9', name: 'No time', makers: [], topics: [] } },
      NOW,
    );
    const recent = [post('3', 29), untimed, post('2', 31), post('1', 40)];
    expect(chooseBackfill(recent, { feed: 'posts', filters: {} }, 5, window).map((i) => i.id)).toEqual(['3']);
  });

  it('posts the next live events soonest first, as they are announced, and none further out than the window', () => {
    const recent = [live('1', 1), live('2', 5), live('3', 45)];
    expect(chooseBackfill(recent, { feed: 'live', filters: {} }, 3, window).map((i) => i.id)).toEqual([
      '1',
      '2',
    ]);
  });
});

describe('backfill=N in SUBSCRIPTIONS', () => {
  it('reads backfill=N beside the other keys, and refuses a count out of range naming the entry', () => {
    const { seeds, errors } = parseSubscriptionSpec(
      'console:a=posts?backfill=5&keyword=ai;console:b=posts?backfill=0;console:c=posts?backfill=21;console:d=posts?backfill=many',
    );
    expect(seeds.map((s) => [s.channelId, s.backfill, s.filters])).toEqual([
      ['a', 5, { keywords: ['ai'] }],
      ['b', undefined, {}],
    ]);
    expect(errors).toEqual([
      '"console:c=posts?backfill=21": backfill must be a whole number from 0 to 20, got "21"',
      '"console:d=posts?backfill=many": backfill must be a whole number from 0 to 20, got "many"',
    ]);
  });

  it('asks for the backfill when the route is added, never again on a restart', async () => {
    const repo = new SubscriptionRepository({
      keyv: new Keyv(),
      leases: freeLeases,
      clock: { now: () => NOW },
    });
    const { seeds } = parseSubscriptionSpec('console:a=posts?backfill=5');
    await repo.seed(seeds);
    const [added] = await repo.list();
    expect(added?.backfill).toMatchObject({ count: 5, at: NOW });
    // The poller queued it: the request is cleared; the same variable at the next start asks for nothing.
    await repo.settleBackfill(added!.id, added!.backfill!.token);
    expect(await repo.seed(seeds)).toEqual({ added: 0, removed: 0 });
    expect((await repo.list())[0]).not.toHaveProperty('backfill');
  });
});

describe('a pending backfill on a subscription', () => {
  it('is set by a subscribe with --backfill, replaced by a later one, and cleared only by its own token', async () => {
    const repo = new SubscriptionRepository({
      keyv: new Keyv(),
      leases: freeLeases,
      clock: { now: () => NOW },
    });
    const route = {
      platform: 'slack',
      channelId: 'C1',
      feed: 'posts' as const,
      filters: {},
      createdBy: 'U1',
    };
    const first = await repo.add({ ...route, backfill: { count: 5, token: 'one', at: NOW } });
    expect(first).toMatchObject({ created: true, subscription: { backfill: { count: 5, token: 'one' } } });
    // Subscribing again without it leaves the pending one; with it, the newer one replaces it.
    expect((await repo.add(route)).subscription.backfill?.token).toBe('one');
    const again = await repo.add({ ...route, backfill: { count: 3, token: 'two', at: NOW } });
    expect(again).toMatchObject({ created: false, rescheduled: false, reformatted: false });
    await repo.settleBackfill(first.subscription.id, 'one');
    expect((await repo.list())[0]?.backfill?.token).toBe('two');
    await repo.settleBackfill(first.subscription.id, 'two');
    expect((await repo.list())[0]).not.toHaveProperty('backfill');
  });
});
