import { Registry } from 'prom-client';
import { buildCommandHandler } from '../../src/app/wiring.js';
import { createSilentLogger } from '../../src/observability/create-logger.js';
import { createHttpServer } from '../../src/observability/http-server.js';
import type { CommandHandler, Logger } from '../../src/ports/index.js';
import type { startInstance } from './engine-harness.js';

type Instance = Awaited<ReturnType<typeof startInstance>>;

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
