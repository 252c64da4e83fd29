import { afterAll, describe, expect, it } from 'vitest';
import { startInstance, startWorld, subscribeConsole } from '../support/engine-harness.js';

// The emulator's real-world quirks mode: extra and missing fields, redacted users, empty
// image maps, V2's non-standard errors, negative remaining (REAL-WORLD.md).
const world = await startWorld({ quirks: true });
afterAll(() => world.close());

describe('schema drift (the live service’s real-world quirks)', () => {
  it('delivers every feed’s new items and never links a redacted user', async () => {
    const bot = await startInstance({
      emulator: world.emulator,
      storeUrl: world.sqliteUrl(),
      namespace: 'drift',
    });
    try {
      await subscribeConsole(bot, 'news');
      await bot.engine.pollAllOnce();
      const { admin } = world.emulator;
      for (let i = 0; i < 5; i += 1) admin.addComment({ body: `drifting ${i}` });
      admin.addPost({ name: 'Drift post' });
      admin.featureCollection(admin.addCollection({ name: 'Drift collection' }).id);
      admin.scheduleLive({ name: 'Drift live', startsAt: new Date(Date.now() + 86_400_000).toISOString() });
      admin.addNotification('dev-token');
      bot.engine.dispatcher.start();
      await bot.engine.pollAllOnce();
      await bot.engine.dispatcher.drained();

      const messages = bot.adapter.delivered('news');
      expect(messages.filter((m) => m.kind === 'comment')).toHaveLength(5);
      expect(new Set(messages.map((m) => m.kind))).toEqual(
        new Set(['comment', 'post', 'collection', 'live', 'notification']),
      );
      for (const message of messages) {
        expect(JSON.stringify(message)).not.toContain('[REDACTED]');
        if (message.author?.name === 'someone') expect(message.author.url).toBeUndefined();
      }
    } finally {
      await bot.close();
    }
  });
});
