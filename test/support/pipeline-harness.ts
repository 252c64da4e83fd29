import { Registry } from 'prom-client';
import { buildCommandHandler } from '../../src/app/wiring.js';
import { createSilentLogger } from '../../src/observability/create-logger.js';
import { createHttpServer } from '../../src/observability/http-server.js';
import type { ChatAdapter, CommandHandler, KeyValueStore, Logger } from '../../src/ports/index.js';
import { startInstance, type startWorld } from './engine-harness.js';
import { workspaceRemovalFor } from './workspace-removal.js';

type Instance = Awaited<ReturnType<typeof startInstance>>;
type World = Awaited<ReturnType<typeof startWorld>>;

/** A logger that drops everything (the app's own silent logger). */
export const silentLogger = createSilentLogger;

/** The bot's real HTTP server (health, readiness, metrics, adapter mounts) on 127.0.0.1, port 0. */
export async function startBotHttp(logger: Logger) {
  const http = createHttpServer({ logger, registry: new Registry() });
  const port = await http.listen(0, '127.0.0.1');
  return { http, url: `http://127.0.0.1:${port}`, close: () => http.close() };
}

/** The real `/directory` handler of one bot instance, as the app builds it, against the same emulator and store. */
export function commandsFor(bot: Instance): CommandHandler {
  return buildCommandHandler(
    { feeds: { adminUserIds: [], liveRemindMinutes: 15 }, directory: { baseUrl: undefined } },
    bot,
  );
}

/** Closes what a test opened, last opened first, even when one close fails. */
export class Cleanup {
  readonly #steps: (() => Promise<unknown> | unknown)[] = [];

  add(step: () => Promise<unknown> | unknown): void {
    this.#steps.push(step);
  }

  async run(): Promise<void> {
    for (const step of this.#steps.splice(0).reverse()) {
      try {
        await step();
      } catch {
        // Keep closing the rest: a half-closed world leaks ports into the next test.
      }
    }
  }
}

/**
 * Where a multi-workspace Slack adapter keeps its installs: the bot's own store. The adapter needs
 * it when it is made, before the instance (and so its store) exists; it forwards from `bind` on.
 */
export function botInstallationStore(): KeyValueStore & { bind(store: KeyValueStore): void } {
  let botStore: KeyValueStore | undefined;
  return {
    bind: (store) => {
      botStore = store;
    },
    get: async (key) => botStore?.get(key),
    set: async (key, value, ttlMs) => botStore?.set(key, value, ttlMs),
    delete: async (key) => (await botStore?.delete(key)) ?? false,
  };
}

export interface PipelineOptions {
  namespace: string;
  /** The bot's and the adapter's logger; default one that drops everything. */
  logger?: Logger;
  /** Bound to the instance's store once it has started (see botInstallationStore). */
  installs?: ReturnType<typeof botInstallationStore>;
  /** The adapter's command handler; default the instance's own (commandsFor). */
  commands?: (bot: Instance) => CommandHandler;
}

/**
 * A bot instance on `world`'s emulator delivering through `adapter`, the bot's HTTP server, and the
 * adapter started on it as the app starts it (with the instance's workspace removal, whose log and
 * metrics come back as `removal`); `cleanup` closes all three.
 */
export async function startPipeline(
  world: World,
  cleanup: Cleanup,
  adapter: ChatAdapter,
  options: PipelineOptions,
): Promise<{ bot: Instance; url: string; removal: ReturnType<typeof workspaceRemovalFor> }> {
  const bot = await startInstance({
    emulator: world.emulator,
    storeUrl: world.sqliteUrl(),
    namespace: options.namespace,
    adapters: [adapter],
  });
  cleanup.add(() => bot.close());
  options.installs?.bind(bot.store.keyv);
  const logger = options.logger ?? silentLogger();
  const server = await startBotHttp(logger);
  cleanup.add(() => server.close());
  const removal = workspaceRemovalFor(bot);
  await adapter.start({
    http: server.http,
    commands: options.commands?.(bot) ?? commandsFor(bot),
    logger,
    workspaceRemoved: removal.workspaceRemoved,
  });
  cleanup.add(() => adapter.stop());
  return { bot, url: server.url, removal };
}

/** One poll of every wanted feed, delivered to the end (retries included). */
export async function pollAndDeliver(bot: Instance): Promise<void> {
  bot.engine.dispatcher.start();
  await bot.engine.pollAllOnce();
  await bot.engine.dispatcher.drained();
}
