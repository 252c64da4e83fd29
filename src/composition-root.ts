import type { Config } from './config/config.js';
import { createHttpServer } from './http/http-server.js';
import { createMetrics } from './metrics/registry.js';
import type { Logger } from './ports/logger.js';
import { createStore } from './store/create-store.js';

export interface App {
  /** Binds the HTTP server first (so the platform sees the port quickly), then starts the rest. */
  start(): Promise<{ port: number }>;
  /** Stops taking work, finishes what is in flight, closes the store. Safe to call twice. */
  stop(): Promise<void>;
}

export interface AppOptions {
  logger: Logger;
}

/**
 * The composition root: the one place that reads the configuration and wires the store,
 * the directory, the pipeline and the chosen chat adapters together. It is the only module
 * in src/ allowed to import from adapters/.
 */
export function createApp(config: Config, options: AppOptions): App {
  const { logger } = options;
  const metrics = createMetrics();
  const http = createHttpServer({ logger, registry: metrics.registry });
  let storeErrorLogged = false;
  const store = createStore({
    url: config.store.url,
    onError: (error) => {
      // Connection errors repeat on every reconnect attempt; one line is enough until it recovers.
      if (storeErrorLogged) return;
      storeErrorLogged = true;
      logger.error({ err: error, store: config.store.source }, 'store error');
    },
  });
  http.addReadinessCheck({
    name: 'store',
    async check() {
      await store.ping();
      storeErrorLogged = false;
      return undefined;
    },
  });

  let stopped: Promise<void> | undefined;
  return {
    async start() {
      const port = await http.listen(config.server.port);
      logger.info({ port }, `listening on http://127.0.0.1:${port} (GET /healthz, /readyz, /metrics)`);
      if (store.kind === 'sqlite' && config.server.onHeroku) {
        logger.warn(
          { store: store.description },
          'RUNNING ON HEROKU WITH A FILE STORE: dyno disks are wiped at least daily, so subscriptions, cursors and dedupe state will be lost. Add Heroku Redis or Postgres (REDIS_URL / DATABASE_URL).',
        );
      }
      await store.ping();
      logger.info({ store: store.description }, `store ready (${store.kind})`);
      return { port };
    },
    stop() {
      stopped ??= (async () => {
        await http.close();
        await store.close();
      })();
      return stopped;
    },
  };
}
