import type { ManualClock } from '../../src/emulator/index.js';
import type { FeedName } from '../../src/feeds/feed-names.js';
import { startInstance, type startWorld } from './engine-harness.js';

/** Edits are owed at most once per this long in the edit tests. */
export const EDIT_MIN_INTERVAL_MS = 300_000;

/**
 * A bot on the emulator's manual clock with edits on (24 h, EDIT_MIN_INTERVAL_MS), subscribed
 * to `feed` in `channelId` on the console, seeded, and delivering.
 */
export async function editsBot(
  world: Awaited<ReturnType<typeof startWorld>>,
  clock: ManualClock,
  feed: FeedName,
  namespace: string,
  channelId = 'news',
) {
  const bot = await startInstance({
    emulator: world.emulator,
    storeUrl: world.sqliteUrl(),
    namespace,
    clock,
    settings: { edits: { maxAgeMs: 24 * 3_600_000, minIntervalMs: EDIT_MIN_INTERVAL_MS } },
  });
  await bot.engine.subscriptions.add({ platform: 'console', channelId, feed, filters: {}, createdBy: 't' });
  await bot.engine.pollAllOnce();
  bot.engine.dispatcher.start();
  /** One poll, then every message due now is sent. */
  const pollAndSend = async () => {
    const [summary] = await bot.engine.pollAllOnce();
    bot.engine.dispatcher.wake();
    await waitUntil(() => bot.engine.outbox.heads().every((e) => e.notBefore > clock.now()));
    return summary;
  };
  return { bot, pollAndSend };
}

/** Waits (real time, briefly) until `done`, then until whatever was in flight is answered. */
export async function waitUntil(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, 20));
}
