import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectoryClient } from '../../src/directory/index.js';
import { createItemComposer } from '../../src/pipeline/compose-item.js';
import { createEngine, type EngineOptions } from '../../src/pipeline/engine.js';
import { type BotStore, createStore } from '../../src/store/create-store.js';
import { directoryIdFor, LEGACY_POLLER_LEASE } from '../../src/store/directory-keys.js';
import { systemClock } from '../../src/time/clock.js';
import { startWorld, TEST_SETTINGS, waitUntil } from '../support/engine-harness.js';
import { RecordingAdapter } from '../support/recording-adapter.js';

let world: Awaited<ReturnType<typeof startWorld>>;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

/** A bot of this version on `store`, reading the world's emulator, posting to Slack. */
function startBot(store: BotStore, extra: Partial<EngineOptions> = {}) {
  const client = createDirectoryClient({ baseUrl: world.emulator.url, token: 'dev-token' });
  const slack = new RecordingAdapter('slack');
  const engine = createEngine({
    store,
    client,
    directoryId: directoryIdFor(world.emulator.url),
    upgradeFromUnprefixedState: true,
    adapters: [slack],
    clock: systemClock,
    compose: createItemComposer(systemClock),
    settings: TEST_SETTINGS,
    ...extra,
  });
  return {
    engine,
    slack,
    async stop() {
      await engine.stop();
      await client.close();
    },
  };
}

describe('upgrading from a version without directory keys', () => {
  it('does not poll while a dyno of the earlier version still holds its poller lease', async () => {
    const store = createStore({ url: world.sqliteUrl() });
    // The old dyno of a Heroku preboot overlap: polling under the lease name it knows.
    expect(await store.leases.acquire(LEGACY_POLLER_LEASE, 'old-dyno', 60_000)).toBe(true);
    const bot = startBot(store);
    try {
      await bot.engine.start();
      // Several lease rounds (renewal every 200 ms): before the fix it led in the first.
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(bot.engine.leader.isLeader).toBe(false);

      // The old dyno stops and releases its lease: the new one takes over.
      await store.leases.release(LEGACY_POLLER_LEASE, 'old-dyno');
      await waitUntil(() => bot.engine.leader.isLeader, 3000, 'the new version to lead');

      // An earlier version started again (a rollback) makes it stand down rather than both post.
      expect(await store.leases.acquire(LEGACY_POLLER_LEASE, 'rolled-back-dyno', 60_000)).toBe(true);
      await waitUntil(() => !bot.engine.leader.isLeader, 3000, 'the new version to stand down');
    } finally {
      await bot.stop();
      await store.close();
    }
  });
});
