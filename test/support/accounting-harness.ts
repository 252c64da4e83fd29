import type { ExplainDeps, ItemExplanation } from '../../src/accounting/index.js';
import { explainItem } from '../../src/accounting/index.js';
import { buildCommandHandler, explainDeps } from '../../src/app/wiring.js';
import type { CommandDependencies } from '../../src/commands/index.js';
import { createManualClock } from '../../src/emulator/index.js';
import type { FeedHealth } from '../../src/engine/index.js';
import type { FeedName } from '../../src/feeds/feed-names.js';
import type { CommandReply } from '../../src/ports/index.js';
import { directoryKeys } from '../../src/store/index.js';
import type { Subscription } from '../../src/subscriptions/index.js';
import { startInstance, startWorld } from './engine-harness.js';

/** The channel every explanation here is about. */
export const CHANNEL = { platform: 'slack', channelId: 'C0WHY' } as const;
export const DESTINATION_KEY = 'slack:C0WHY';

/**
 * A bot instance against the emulator on one manual clock (2026-11-21 10:00 UTC), with what
 * `/directory why` reads (`explainDeps`, as the app wires it), for writing the ledger, the
 * delivery log, the outbox and held items directly and asking what became of an item.
 */
export async function accountingWorld() {
  const clock = createManualClock();
  const world = await startWorld({ clock });
  const bot = await startInstance({
    emulator: world.emulator,
    storeUrl: world.sqliteUrl(),
    namespace: 'why',
    clock,
  });
  const config = { feeds: { adminUserIds: [], liveRemindMinutes: 15 }, directory: { baseUrl: undefined } };
  const deps: ExplainDeps = explainDeps(config, { ...bot, clock });
  const keys = directoryKeys(bot.directoryId);
  return {
    clock,
    world,
    bot,
    deps,
    /** API requests the emulator has answered so far. */
    requests: () => world.emulator.admin.stats().requests.total,
    subscribe(feed: FeedName, extra: Partial<Omit<Subscription, 'id' | 'createdAt'>> = {}) {
      return bot.engine.subscriptions.add({ ...CHANNEL, feed, filters: {}, createdBy: 'U1', ...extra });
    },
    /** A feed's saved position, as its poll would have left it. */
    setFeedState(feed: FeedName, state: unknown) {
      return bot.store.keyv.set(keys.feedState(feed), state);
    },
    /** Feed health as the poller saves it. */
    setHealth(health: FeedHealth[]) {
      return bot.store.keyv.set(keys.feedHealth, health);
    },
    explain(item: string, overrides: Partial<ExplainDeps> = {}): Promise<ItemExplanation> {
      return explainItem({ ...CHANNEL, item }, { ...deps, ...overrides });
    },
    /** The real `/directory` handler of this instance, as the app builds it, on the same clock. */
    commands(overrides: Partial<CommandDependencies> = {}) {
      const handler = buildCommandHandler(config, { ...bot, clock }, overrides);
      return (text: string, userId = 'U0ASKER'): Promise<CommandReply> =>
        handler.handle({
          ...CHANNEL,
          workspaceId: 'T0WHY',
          actor: { userId, canManageChannel: false },
          text,
        });
    },
    async close() {
      await bot.close();
      await world.close();
    },
  };
}
