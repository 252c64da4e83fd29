import { afterAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/emulator/index.js';
import { startInstance, startWorld, subscribeConsole } from '../support/engine-harness.js';

// A manual clock: activity happens only when the test ticks it, so the counts below are exact.
const world = await startWorld({ activityPerMinute: 120, clock: createManualClock(Date.now()) });
afterAll(() => world.close());

describe('the pipeline under the emulator’s activity simulator', () => {
  it('delivers every item the simulated directory produced, once, across two rounds', async () => {
    const bot = await startInstance({
      emulator: world.emulator,
      storeUrl: world.sqliteUrl(),
      namespace: 'activity',
    });
    try {
      await subscribeConsole(bot, 'all');
      const { admin } = world.emulator;
      await bot.engine.pollAllOnce();
      const before = admin.counts();
      bot.engine.dispatcher.start();
      for (let round = 0; round < 2; round += 1) {
        expect(admin.tick(30_000)).toBeGreaterThan(0);
        await bot.engine.pollAllOnce();
      }
      await bot.engine.dispatcher.drained();
      const after = admin.counts();

      const delivered = (kind: string) => bot.adapter.delivered('all').filter((m) => m.kind === kind).length;
      expect({
        comments: delivered('comment'),
        posts: delivered('post'),
        collections: delivered('collection'),
        live: delivered('live'),
        notifications: delivered('notification'),
      }).toEqual({
        // Churn may remove a record after it was delivered: it was still created, and delivered.
        comments: after.comments - before.comments + (after.removed.comments - before.removed.comments),
        posts: after.posts - before.posts + (after.removed.posts - before.removed.posts),
        collections: after.featuredCollections - before.featuredCollections,
        live: after.liveEvents - before.liveEvents + (after.removed.liveEvents - before.removed.liveEvents),
        notifications: after.notifications - before.notifications,
      });
      const keys = bot.adapter.deliveries.map((d) => d.idempotencyKey);
      expect(new Set(keys).size).toBe(keys.length);
    } finally {
      await bot.close();
    }
  });
});
