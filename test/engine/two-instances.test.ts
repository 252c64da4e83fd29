import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCommandHandler } from '../../src/app/wiring.js';
import { storeBackends } from '../support/backends.js';
import { startInstance, startWorld } from '../support/engine-harness.js';
import { eventually } from '../support/polling.js';
import { RecordingAdapter } from '../support/recording-adapter.js';

const world = await startWorld();
afterAll(() => world.close());
const redis = (await storeBackends('/tmp/unused.sqlite')).find((b) => b.name === 'redis');

describe('two instances on one Redis', () => {
  it('only one polls at a time, the other takes over within the lease, and nothing is posted twice', async (context) => {
    if (!redis || redis.unavailable) return context.skip(redis?.unavailable ?? 'no redis');
    const namespace = `two-${randomUUID()}`;
    // Each instance posts through its own connection to the platform, as two dynos would.
    const platformA = new RecordingAdapter();
    const platformB = new RecordingAdapter();
    const all = () => [...platformA.deliveries, ...platformB.deliveries];
    const a = await startInstance({
      emulator: world.emulator,
      storeUrl: redis.url,
      namespace,
      adapters: [platformA],
    });
    const b = await startInstance({
      emulator: world.emulator,
      storeUrl: redis.url,
      namespace,
      adapters: [platformB],
    });
    try {
      await a.engine.subscriptions.add({
        platform: 'console',
        channelId: 'news',
        feed: 'comments',
        filters: {},
        createdBy: 't',
      });
      await a.engine.start();
      await b.engine.start();
      await eventually(() => a.engine.leader.isLeader || b.engine.leader.isLeader, 5000, 'a leader');

      // Watch leadership while items arrive: never two leaders at once.
      let overlap = 0;
      const watch = setInterval(() => {
        if (a.engine.leader.isLeader && b.engine.leader.isLeader) overlap += 1;
      }, 5);
      const leaderFirst = a.engine.leader.isLeader ? a : b;
      const follower = leaderFirst === a ? b : a;
      await eventually(
        () => leaderFirst.engine.polling.health().some((h) => h.lastSuccessAt),
        5000,
        'first poll',
      );
      for (let i = 0; i < 5; i += 1) world.emulator.admin.addComment({ body: `before takeover ${i}` });
      await eventually(() => all().length === 5, 10_000, 'five deliveries');

      // The leader loses the store (a network partition): it cannot renew, so it stops
      // polling on its own, and the other instance takes over once the lease lapses.
      leaderFirst.store.leases.acquire = async () => {
        throw new Error('connection lost');
      };
      for (let i = 0; i < 5; i += 1) world.emulator.admin.addComment({ body: `after takeover ${i}` });
      await eventually(() => follower.engine.leader.isLeader, 5000, 'takeover within the lease');
      await eventually(() => all().length === 10, 10_000, 'ten deliveries');
      clearInterval(watch);

      expect(overlap).toBe(0);
      const texts = all().map((d) => d.message.text);
      expect(texts).toHaveLength(10);
      expect(new Set(texts).size).toBe(10);
      // Posting never overlapped: the first poller posted everything before the takeover and
      // nothing after; the second posted only after it.
      const [first, second] = leaderFirst === a ? [platformA, platformB] : [platformB, platformA];
      expect(first.deliveries.map((d) => d.message.text?.slice(0, 6))).toEqual(Array(5).fill('before'));
      expect(second.deliveries.map((d) => d.message.text?.slice(0, 5))).toEqual(Array(5).fill('after'));
      expect(Math.max(...first.deliveries.map((d) => d.at))).toBeLessThan(
        Math.min(...second.deliveries.map((d) => d.at)),
      );
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('two instances on one store, asked for status', () => {
  it('the one that does not poll shows the quota and the directory as the poller sees them, not its own unused counters', async (context) => {
    if (!redis || redis.unavailable) return context.skip(redis?.unavailable ?? 'no redis');
    const namespace = `status-${randomUUID()}`;
    const a = await startInstance({ emulator: world.emulator, storeUrl: redis.url, namespace });
    const b = await startInstance({ emulator: world.emulator, storeUrl: redis.url, namespace });
    try {
      await a.engine.subscriptions.add({
        platform: 'console',
        channelId: 'news',
        feed: 'comments',
        filters: {},
        createdBy: 't',
      });
      await a.engine.start();
      await eventually(() => a.engine.leader.isLeader, 5000, 'a polls');
      await b.engine.start();
      await eventually(
        () => a.engine.polling.health().some((h) => h.lastSuccessAt !== undefined),
        10_000,
        'a first poll',
      );
      const statusOf = (bot: typeof a) =>
        buildCommandHandler(
          { feeds: { adminUserIds: [], liveRemindMinutes: 15 }, directory: { baseUrl: world.emulator.url } },
          bot,
        ).handle({
          platform: 'console',
          channelId: 'news',
          actor: { userId: 'u', displayName: 'u', canManageChannel: true },
          text: 'status',
        });
      const pollerQuota = a.client.ledger.snapshot().v1;
      expect(pollerQuota.remaining).toBeLessThan(pollerQuota.limit);
      // b has sent nothing: its own counter still says the whole quota is left.
      expect(b.client.ledger.snapshot().v1.remaining).toBe(b.client.ledger.snapshot().v1.limit);
      await eventually(
        async () => {
          const fields = (await statusOf(b)).messages[0]?.fields ?? [];
          const v1 = fields.find((f) => f.name === 'V1 requests')?.value ?? '';
          return v1.startsWith(`${a.client.ledger.snapshot().v1.remaining} of ${pollerQuota.limit} left`);
        },
        10_000,
        "b's status shows a's V1 quota",
      );
      const reply = await statusOf(b);
      expect(reply.messages[0]?.text).toMatch(
        /^Another instance polls the directory; .* as it last saved them \(\d+ (ms|s) ago\)\.$/,
      );
      expect(reply.messages[0]?.fields?.[0]).toEqual({
        name: 'Directory',
        value: 'answers and accepts the token',
      });
    } finally {
      await a.store.keyv.clear();
      await a.close();
      await b.close();
    }
  });
});
