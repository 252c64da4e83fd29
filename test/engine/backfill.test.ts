import { afterAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/emulator/index.js';
import type { FeedName } from '../../src/feeds/feed-names.js';
import type { MessageFormat } from '../../src/ports/index.js';
import { startInstance, startWorld, subscribeConsole } from '../support/engine-harness.js';

/**
 * Backfill on subscribe through the real engine (issue 29): the poller's runner queues a pending
 * backfill's items through the outbox like any item's, from the lookup reserve, and never posts an
 * item twice in a channel: not after the poll found it, not for a repeated request, not after a
 * restart that repeats one. On a manual clock: the hour and zone the test runs at never matter.
 */
const clock = createManualClock(Date.parse('2026-11-23T12:00:00Z'));
const world = await startWorld({ clock });
afterAll(() => world.close());
const { admin } = world.emulator;

async function bot(storeUrl = world.sqliteUrl(), w = world) {
  const instance = await startInstance({ emulator: w.emulator, storeUrl, namespace: 'backfill', clock });
  instance.engine.dispatcher.start();
  return instance;
}

type Bot = Awaited<ReturnType<typeof bot>>;

async function subscribe(b: Bot, feed: FeedName, count: number, token: string, format?: MessageFormat) {
  const { subscription } = await b.engine.subscriptions.add({
    platform: 'console',
    channelId: 'news',
    feed,
    filters: {},
    ...(format ? { format } : {}),
    backfill: { count, token, at: clock.now() },
    createdBy: 'U1',
  });
  return subscription;
}

/** Every pending backfill queued, then delivered. */
async function backfill(b: Bot) {
  const queued = await b.engine.backfill.runner.runOnce();
  await b.engine.dispatcher.drained(2);
  return queued;
}

const newestPosts = async (b: Bot, count: number) =>
  (await b.client.listPosts({ first: count, order: 'NEWEST' })).nodes.map((post) => post.name);

describe('backfill on subscribe, through the engine', () => {
  it("posts the N most recent oldest first, in the subscription's format, and clears the request", async () => {
    const b = await bot();
    try {
      const newest = await newestPosts(b, 3);
      const subscription = await subscribe(b, 'posts', 3, 'first', 'title');
      await b.engine.pollAllOnce(); // the feed's first poll only notes where it is: no history
      expect(await backfill(b)).toBe(3);
      const delivered = b.adapter.delivered('news');
      expect(delivered.map((m) => m.title)).toEqual([...newest].reverse());
      expect(delivered.every((m) => m.layout === 'line')).toBe(true);
      expect((await b.engine.subscriptions.list()).find((s) => s.id === subscription.id)).not.toHaveProperty(
        'backfill',
      );
      // Then new items as usual, and nothing of the backfill again.
      admin.addPost({ name: 'After the backfill' });
      clock.advance(1000);
      await b.engine.pollAllOnce();
      await b.engine.dispatcher.drained(2);
      expect(b.adapter.delivered('news').map((m) => m.title)).toEqual(
        [...newest].reverse().concat('After the backfill'),
      );
    } finally {
      await b.close();
    }
  });

  it('never posts an item twice in a channel: found by a poll, asked again, or repeated after a restart', async () => {
    const storeUrl = world.sqliteUrl();
    const first = await bot(storeUrl);
    let second: Bot | undefined;
    try {
      await subscribeConsole(first, 'news', ['posts']);
      await first.engine.pollAllOnce();
      admin.addPost({ name: 'Polled first' });
      clock.advance(1000);
      await first.engine.pollAllOnce();
      await first.engine.dispatcher.drained(2);
      expect(first.adapter.delivered('news').map((m) => m.title)).toEqual(['Polled first']);

      // The newest two include the one the poll posted: only the other goes.
      await subscribe(first, 'posts', 2, 'again');
      expect(await backfill(first)).toBe(1);
      await subscribe(first, 'posts', 2, 'once-more');
      expect(await backfill(first)).toBe(0);

      // Killed after queueing, before the request was cleared: a new process finds it pending.
      const pending = await subscribe(first, 'posts', 2, 'repeated');
      await first.close();
      second = await bot(storeUrl);
      expect(
        (await second.engine.subscriptions.list()).find((s) => s.id === pending.id)?.backfill?.token,
      ).toBe('repeated');
      expect(await backfill(second)).toBe(0);
      expect(second.adapter.deliveries).toEqual([]);
      expect(first.adapter.delivered('news')).toHaveLength(2);
    } finally {
      await first.close().catch(() => {});
      await second?.close();
    }
  });

  it("puts a backfilled comment under its post's message where the channel has the post, as any comment", async () => {
    const b = await bot();
    try {
      await subscribeConsole(b, 'news', ['posts']);
      await b.engine.pollAllOnce();
      const post = admin.addPost({ name: 'Threaded launch' });
      clock.advance(1000);
      await b.engine.pollAllOnce();
      await b.engine.dispatcher.drained(2);
      admin.addComment({ postId: post.id as number, body: 'An earlier remark on the launch' });
      clock.advance(1000);
      const { subscription } = await b.engine.subscriptions.add({
        platform: 'console',
        channelId: 'news',
        feed: 'comments',
        filters: { post: String(post.id) },
        backfill: { count: 1, token: 'threaded', at: clock.now() },
        createdBy: 'U1',
      });
      expect(subscription.backfill?.count).toBe(1);
      expect(await backfill(b)).toBe(1);
      const [launch, remark] = b.adapter.deliveries;
      expect(launch?.message.title).toBe('Threaded launch');
      expect(remark?.thread?.parentMessageId).toBe('m1');
    } finally {
      await b.close();
    }
  });

  it('is paid from the lookup reserve: it posts when the feeds have spent their share of the quota', async () => {
    const small = await startWorld({ clock, quotaV1: 10 });
    const b = await bot(small.sqliteUrl(), small);
    try {
      await subscribeConsole(b, 'other', ['comments']);
      // Background polls until only the reserve (2 of 10) is left: the feeds may spend no more.
      while (b.client.ledger.check('v1', 1, 'background').ok) await b.engine.pollAllOnce();
      expect(b.client.ledger.check('v1', 1, 'interactive').ok).toBe(true);
      await subscribe(b, 'comments', 2, 'reserve');
      const before = b.clientEvents.length;
      expect(await backfill(b)).toBe(2);
      expect(b.adapter.delivered('news')).toHaveLength(2);
      const requests = b.clientEvents.slice(before).filter((e) => e.type === 'request');
      expect(requests.map((e) => e.type === 'request' && e.priority)).toEqual(['interactive']);
    } finally {
      await b.close();
      await small.close();
    }
  });
});
