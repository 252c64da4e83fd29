import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createDirectoryClient, type DirectoryClientEvent } from '../../src/directory/index.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { createItemComposer } from '../../src/engine/compose-item.js';
import { createEngine, type EngineEvent, type EngineSettings } from '../../src/engine/engine.js';
import { FEED_NAMES, type FeedName } from '../../src/feeds/feed-names.js';
import { type Clock, systemClock } from '../../src/ports/clock.js';
import type { ChatAdapter } from '../../src/ports/index.js';
import type { BotStore } from '../../src/store/bot-store.js';
import { createStore } from '../../src/store/create-store.js';
import { directoryIdFor } from '../../src/store/directory-keys.js';
import { RecordingAdapter } from './recording-adapter.js';
import { makeTempDir } from './temp-dir.js';

export const TEST_SETTINGS: EngineSettings = {
  pollMinIntervalMs: 50,
  dedupeTtlMs: 86_400_000,
  reserveFraction: 0.2,
  defaultRemindMinutes: 15,
  clearNotifications: false,
  windowMs: 900_000,
  leaseTtlMs: 1000,
  leaseRenewMs: 200,
};

/** One bot instance (engine + client + store) against a shared emulator. */
export async function startInstance(options: {
  emulator: RunningEmulator;
  storeUrl: string;
  namespace: string;
  adapters?: ChatAdapter[];
  settings?: Partial<EngineSettings>;
  /** The engine's clock; default the system clock (give the emulator's manual clock to step both). */
  clock?: Clock;
  /** Sees every engine event too (the app's watchers; `engineEvents` records them anyway). */
  onEvent?: (event: EngineEvent) => void;
}) {
  const clientEvents: DirectoryClientEvent[] = [];
  const engineEvents: EngineEvent[] = [];
  const client = createDirectoryClient({
    baseUrl: options.emulator.url,
    token: 'dev-token',
    retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 20 },
    onEvent: (event) => clientEvents.push(event),
  });
  const store: BotStore = createStore({ url: options.storeUrl, namespace: options.namespace });
  const clock = options.clock ?? systemClock;
  const adapter = new RecordingAdapter('console', undefined, () => clock.now());
  const directoryId = directoryIdFor(options.emulator.url);
  const engine = createEngine({
    store,
    client,
    directoryId,
    adapters: options.adapters ?? [adapter],
    clock,
    compose: createItemComposer(clock),
    settings: { ...TEST_SETTINGS, ...options.settings },
    onEvent: (event) => {
      engineEvents.push(event);
      options.onEvent?.(event);
    },
  });
  return {
    client,
    store,
    engine,
    directoryId,
    adapter,
    clientEvents,
    engineEvents,
    async close() {
      await engine.stop();
      await engine.dispatcher.stop();
      await client.close();
      await store.close();
    },
  };
}

/** Subscribes the console channel `channelId` of `bot` to `feeds` (default every feed), unfiltered. */
export async function subscribeConsole(
  bot: Awaited<ReturnType<typeof startInstance>>,
  channelId: string,
  feeds: readonly FeedName[] = FEED_NAMES,
): Promise<void> {
  for (const feed of feeds) {
    await bot.engine.subscriptions.add({
      platform: 'console',
      channelId,
      feed,
      filters: {},
      createdBy: 'test',
    });
  }
}

/** An emulator plus a temp dir for SQLite files, cleaned up together. */
export async function startWorld(emulatorOptions: Parameters<typeof startEmulator>[0] = {}) {
  const temp = makeTempDir();
  const emulator = await startEmulator({ port: 0, seed: 7, ...emulatorOptions });
  return {
    emulator,
    sqliteUrl: (name = randomUUID()) => `sqlite://${join(temp.path, `${name}.sqlite`)}`,
    async close() {
      await emulator.close();
      temp.cleanup();
    },
  };
}
