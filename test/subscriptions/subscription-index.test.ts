import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import type { FeedItem } from '../../src/feeds/feed-item.js';
import { makeFeedItem } from '../../src/feeds/make-item.js';
import { routeItem } from '../../src/subscriptions/routing.js';
import { SubscriptionIndex } from '../../src/subscriptions/subscription-index.js';
import {
  type NewSubscription,
  SubscriptionRepository,
} from '../../src/subscriptions/subscription-repository.js';
import { freeLeases } from '../support/free-leases.js';

const ROUTING = { now: 0, defaultRemindMinutes: 15 };

function comment(body: string, post: { id: string; slug: string }, username: string): FeedItem {
  return makeFeedItem(
    'comments',
    'new',
    {
      type: 'comment',
      comment: {
        id: `${post.id}-${username}`,
        body,
        createdAt: '2026-01-01T00:00:00Z',
        user: { id: '1', name: username, username, redacted: false },
        postId: post.id,
        post: { id: post.id, name: 'A launch', slug: post.slug, makers: [], topics: [] },
      },
    },
    1000,
  );
}

const nimbus = { id: '42', slug: 'nimbus' };
const other = { id: '43', slug: 'other' };

/** Subscriptions of every shape the index files differently, made at t=0 by user U1. */
function route(
  channelId: string,
  filters: NewSubscription['filters'],
  feed: NewSubscription['feed'] = 'comments',
) {
  return { platform: 'slack', channelId, workspaceId: 'T1', feed, filters, createdBy: 'U1' };
}
const ROUTES = [
  route('CPOST', { post: 'Nimbus' }),
  route('CPOSTID', { post: '42' }),
  route('COTHERPOST', { post: 'other' }),
  route('CUSER', { user: 'ADA' }),
  route('CWORDS', { keywords: ['AI', 'robots'] }),
  route('CSYMBOL', { keywords: ['c++'] }),
  route('CALL', {}),
  route('CEXCLUDE', { exclude: ['crypto'] }),
  route('CBOTH', { post: 'nimbus', keywords: ['ai'] }),
  route('CPOSTS', {}, 'posts'),
];

async function repositoryWith(keyv = new Keyv()) {
  const repo = new SubscriptionRepository({ keyv, leases: freeLeases, clock: { now: () => 0 } });
  for (const input of ROUTES) await repo.add(input);
  return { repo, keyv };
}

async function routedChannels(repo: SubscriptionRepository, item: FeedItem): Promise<string[]> {
  return (await repo.index()).route(item, ROUTING).map((s) => s.channelId);
}

describe('the subscription index', () => {
  it('routes every item to exactly the subscriptions the router picks from the whole list', async () => {
    const { repo } = await repositoryWith();
    const all = await repo.list();
    const index = new SubscriptionIndex(all);
    const items = [
      comment('AI is here', nimbus, 'ada'),
      comment('written in C++, about crypto', other, 'bob'),
      comment('Robots! said nobody', other, 'eve'),
      comment('nothing to see', { id: '99', slug: 'unknown' }, 'zed'),
    ];
    for (const item of items) {
      expect(index.route(item, ROUTING)).toEqual(routeItem(item, all, ROUTING));
    }
    expect(index.route(items[0]!, ROUTING).map((s) => s.channelId)).toEqual([
      'CPOST',
      'CPOSTID',
      'CUSER',
      'CWORDS',
      'CALL',
      'CEXCLUDE',
      'CBOTH',
    ]);
    expect(index.route(items[1]!, ROUTING).map((s) => s.channelId)).toEqual([
      'COTHERPOST',
      'CSYMBOL',
      'CALL',
    ]);
  });

  it('keeps the first matching subscription of a channel, as the router does', async () => {
    const keyv = new Keyv();
    const repo = new SubscriptionRepository({ keyv, leases: freeLeases, clock: { now: () => 0 } });
    const first = await repo.add(route('CSAME', { keywords: ['ai'] }));
    await repo.add(route('CSAME', {}));
    const routed = (await repo.index()).route(comment('ai', nimbus, 'ada'), ROUTING);
    expect(routed.map((s) => s.id)).toEqual([first.subscription.id]);
  });

  it('follows subscribe, unsubscribe, pause, resume and workspace removal', async () => {
    const { repo } = await repositoryWith();
    const item = comment('AI is here', nimbus, 'ada');

    await repo.add(route('CNEW', { post: 'nimbus' }));
    expect(await routedChannels(repo, item)).toContain('CNEW');
    expect((await repo.forChannel('slack', 'CNEW')).map((s) => s.filters)).toEqual([{ post: 'nimbus' }]);

    await repo.remove('slack', 'CPOST', 'comments');
    expect(await routedChannels(repo, item)).not.toContain('CPOST');
    expect(await repo.forChannel('slack', 'CPOST')).toEqual([]);

    await repo.pauseDestination('slack', 'CUSER', 'channel_not_found', 'gone');
    expect(await routedChannels(repo, item)).not.toContain('CUSER');
    expect((await repo.index()).paused().map((s) => s.channelId)).toEqual(['CUSER']);
    await repo.add(route('CUSER', { user: 'ADA' }));
    expect(await routedChannels(repo, item)).toContain('CUSER');
    expect((await repo.index()).paused()).toEqual([]);

    await repo.add({ ...route('CELSEWHERE', {}), workspaceId: 'T2' });
    await repo.removeWorkspace('slack', 'T1');
    expect(await routedChannels(repo, item)).toEqual(['CELSEWHERE']);
    expect(await repo.forChannel('slack', 'CWORDS')).toEqual([]);
  });

  it('sees changes another instance made, and the same subscriptions after a restart', async () => {
    const { repo, keyv } = await repositoryWith();
    const item = comment('AI is here', nimbus, 'ada');
    const before = await routedChannels(repo, item);

    const otherInstance = new SubscriptionRepository({ keyv, leases: freeLeases, clock: { now: () => 0 } });
    await otherInstance.add(route('CFROMOTHER', { keywords: ['ai'] }));
    await otherInstance.remove('slack', 'CALL', 'comments');
    expect(await routedChannels(repo, item)).toEqual([...before.filter((c) => c !== 'CALL'), 'CFROMOTHER']);

    const restarted = new SubscriptionRepository({ keyv, leases: freeLeases, clock: { now: () => 0 } });
    expect(await routedChannels(restarted, item)).toEqual(await routedChannels(repo, item));
    expect((await restarted.index()).activeRoutes()).toEqual([
      { platform: 'slack', feed: 'comments', remindMinutes: undefined },
      { platform: 'slack', feed: 'posts', remindMinutes: undefined },
    ]);
  });

  it('reads a store written before the version key without trusting a stale copy', async () => {
    const keyv = new Keyv();
    const repo = new SubscriptionRepository({ keyv, leases: freeLeases, clock: { now: () => 0 } });
    const [first] = ROUTES;
    const legacy = { ...first!, id: 's1', createdAt: 0 };
    await keyv.set('subscriptions', [legacy]);
    expect(await routedChannels(repo, comment('x', nimbus, 'ada'))).toEqual(['CPOST']);
    // An older version writes the document without touching the version key.
    await keyv.set('subscriptions', []);
    expect(await routedChannels(repo, comment('x', nimbus, 'ada'))).toEqual([]);
  });
});
