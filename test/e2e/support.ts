import { Registry } from 'prom-client';
import { createCommandHandler, directoryLinks } from '../../src/commands/index.js';
import { EMULATOR_WEB_URL } from '../../src/emulator/index.js';
import { createSilentLogger } from '../../src/observability/create-logger.js';
import { createHttpServer } from '../../src/observability/http-server.js';
import { systemClock } from '../../src/ports/clock.js';
import type { CommandHandler, Logger } from '../../src/ports/index.js';
import type { startInstance } from '../support/engine-harness.js';

type Instance = Awaited<ReturnType<typeof startInstance>>;

/** A logger that drops everything (the app's own silent logger). */
export const silentLogger = createSilentLogger;

/** The bot's real HTTP server (health, readiness, metrics, adapter mounts) on 127.0.0.1, port 0. */
export async function startBotHttp(logger: Logger) {
  const http = createHttpServer({ logger, registry: new Registry() });
  const port = await http.listen(0, '127.0.0.1');
  return { http, url: `http://127.0.0.1:${port}`, close: () => http.close() };
}

/** The real `/directory` handler of one bot instance, against the same emulator and store. */
export function commandsFor(bot: Instance): CommandHandler {
  return createCommandHandler({
    client: bot.client,
    subscriptions: bot.engine.subscriptions,
    clock: systemClock,
    adminUserIds: [],
    defaultRemindMinutes: 15,
    directoryLinks: directoryLinks(undefined, EMULATOR_WEB_URL),
    status: async () => ({
      quotas: bot.client.ledger.snapshot(),
      feeds: bot.engine.scheduler.health(),
      pausedSubscriptions: (await bot.engine.subscriptions.list()).filter((s) => s.paused),
      subscribedFeeds: await bot.engine.wantedFeeds(),
      isPoller: true,
    }),
  });
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
