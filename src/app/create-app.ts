import type { Config } from '../config/config.js';
import type { DeliveryWorker } from '../delivery/index.js';
import type { DirectoryClient } from '../directory/index.js';
import type { RunningEmulator } from '../emulator/index.js';
import { createEngine, createItemComposer, type Engine, type EngineEvent } from '../engine/index.js';
import { BotError, configProblems, isBotError } from '../errors.js';
import { engineEventSink } from '../observability/event-log.js';
import { createHttpServer, describeListening } from '../observability/http-server.js';
import { createMetrics } from '../observability/metrics.js';
import type { AdapterContext, ChatAdapter, Logger } from '../ports/index.js';
import { systemClock, withDeadline } from '../ports/index.js';
import { createSecretSealer, createStore, verifyStoreKey } from '../store/index.js';
import { ChannelHistory } from '../subscriptions/index.js';
import { WebhookRegistry } from '../webhooks/index.js';
import { checkDirectoryToken } from './directory-token.js';
import { createLostAccessRemoval, type LostAccessRemoval } from './lost-access-removal.js';
import { buildPanel } from './panel-wiring.js';
import { type ConsoleOptions, createAdapters } from './platforms.js';
import {
  isSandbox,
  SANDBOX_STORE_NAMESPACE,
  startSandboxAfresh,
  storeNamespace,
  subscriptionSeeds,
} from './sandbox.js';
import { configuredWebhooks, mentionSupportOf, resolveSeeds } from './webhook-setup.js';
import {
  buildCommandHandler,
  buildHomeService,
  buildZones,
  connectionDegradation,
  directoryView,
  engineSettings,
  openDirectory,
} from './wiring.js';
import {
  createDeliveryWorker,
  openWorkerDeliveries,
  type ProcessRole,
  watchWorkerQueue,
  workersFor,
} from './worker-wiring.js';
import { createWorkspaceRemoval } from './workspace-removal.js';

export interface App {
  /**
   * Wires everything, mounts every route, binds the HTTP server (so the platform sees the port
   * quickly), then connects the adapters and starts the pipeline; `/readyz` answers 503 until
   * all of that is done. Rejects with a `config_invalid` BotError when a platform refuses a
   * configured credential, and with `port_in_use` when the port is taken.
   */
  start(): Promise<{ port: number }>;
  /** Stops taking work, finishes what is in flight, closes the store. Safe to call twice. */
  stop(): Promise<void>;
}

export interface AppOptions extends ConsoleOptions {
  logger: Logger;
  /**
   * `worker`: a delivery worker only (`directory-bot worker`, ADR 005): no HTTP, no polling, no
   * Discord gateway; the platforms' clients only post. Default `start`: everything.
   */
  role?: ProcessRole;
}

/**
 * The bot's lifecycle: wires the store, the directory, the pipeline, the commands and the
 * chosen chat adapters together (see wiring.ts and platforms.ts), starts them in order and
 * takes them down within the shutdown budget.
 */
export function createApp(config: Config, options: AppOptions): App {
  const { logger } = options;
  const role = options.role ?? 'start';
  const sandbox = isSandbox(config);
  const metrics = createMetrics();
  const http = createHttpServer({ logger, registry: metrics.registry });
  let storeErrorLogged = false;
  const store = createStore({
    url: config.store.url,
    ...storeNamespace(config),
    onError: (error) => {
      // Connection errors repeat on every reconnect attempt; one line is enough until it recovers.
      if (storeErrorLogged) return;
      storeErrorLogged = true;
      logger.error({ err: error, store: config.store.source }, 'store error');
    },
  });
  const sealer = config.store.encryption ? createSecretSealer(config.store.encryption) : undefined;
  http.addReadinessCheck({
    name: 'store',
    async check() {
      await store.ping();
      storeErrorLogged = false;
      return undefined;
    },
  });

  let emulator: RunningEmulator | undefined;
  let client: DirectoryClient | undefined;
  let engine: Engine | undefined;
  let worker: DeliveryWorker | undefined;
  let panel: ReturnType<typeof buildPanel>;
  // On Redis: the workers' queued and dead messages, which an uninstall deletes with the rest.
  let workerDeliveries: ReturnType<typeof openWorkerDeliveries>;
  const adapters: ChatAdapter[] = [];
  let stopped: Promise<void> | undefined;
  let starting: Promise<unknown> = Promise.resolve();

  const start = async () => {
    // Everything that answers a request is wired before the port is bound: the platform routes
    // traffic (and Slack counts a non-200 slash command as a failure) as soon as it accepts
    // connections, while connecting to Slack or Discord can take seconds.
    const directory = await openDirectory(config, logger, metrics, () => client?.ledger);
    emulator = directory.emulator;
    client = directory.client;

    // Every webhook by name, from the environment and the store; a URL no kind takes is a
    // configuration error (exit 78) here, before anything is bound.
    const webhooks = new WebhookRegistry({
      keyv: store.keyv,
      leases: store.leases,
      clock: systemClock,
      sealer,
      configured: configuredWebhooks(config),
    });
    // The console's banner names the port, known once it is bound (before adapters start).
    let boundPort = 0;
    // A worker posts and answers nothing: a gateway of its own would receive the interactions too.
    const adapterConfig =
      role === 'worker' && config.discord
        ? { ...config, discord: { ...config.discord, gateway: false } }
        : config;
    adapters.push(
      ...(await createAdapters(
        adapterConfig,
        { ...options, metrics },
        store,
        () => boundPort,
        sealer,
        webhooks,
      )),
    );
    // With Redis, deliveries go through the workers' engine (checked here: exit 78 with the fix).
    const workers = await workersFor(
      config,
      store,
      storeNamespace(config).namespace ?? 'directory-bot',
      directory.id,
      role,
    );
    // SUBSCRIPTIONS as the engine takes it: webhooks resolved to their kinds, mentions checked.
    const seeds = resolveSeeds(subscriptionSeeds(config), configuredWebhooks(config), adapters);
    // The zone each schedule is read in; the engine's schedule runner takes `zones.resolver.zoneOf`.
    const zones = buildZones(store, adapters);

    // Created once the engine is (it needs the engine's outbox); the engine's events reach it.
    let lostAccess: LostAccessRemoval | undefined;
    let home: ReturnType<typeof buildHomeService> | undefined;
    const eventSink = engineEventSink(logger, metrics, () => activeEngine.outbox.size());
    // The engine's events, and the in-process delivery worker's (as the dispatcher's).
    const onEngineEvent = (event: EngineEvent) => {
      eventSink(event);
      lostAccess?.observe(event);
      if (event.source === 'dispatcher' && event.type === 'delivered')
        home?.recordDelivery(event.entry.subscriptionIds, systemClock.now());
    };
    const activeEngine = createEngine({
      store,
      client,
      directoryId: directory.id,
      // The emulator invents its world afresh at every start, from the same seed, so the
      // previous sandbox run's positions would sit ahead of every new id and keep the
      // console silent for as long as that run lasted: start each sandbox run from "now".
      forgetPreviousState: sandbox,
      // A live store may have been written by an earlier version, which may still be running.
      upgradeFromUnprefixedState: !sandbox,
      adapters,
      clock: systemClock,
      compose: createItemComposer(systemClock),
      settings: engineSettings(config),
      seeds,
      // Digests, quiet hours and caps read each schedule in its --tz, channel, workspace zone or UTC.
      schedule: { zoneOf: zones.resolver.zoneOf },
      ...(workers === undefined ? {} : { workers }),
      onEvent: onEngineEvent,
    });
    engine = activeEngine;
    if (activeEngine.handOff) watchWorkerQueue(metrics, activeEngine.handOff.queue);

    const history = new ChannelHistory({ keyv: store.keyv, leases: store.leases, clock: systemClock });
    const parts = {
      client,
      engine: activeEngine,
      store,
      directoryId: directory.id,
      metrics,
      zones,
      history,
      mentionSupport: (platform: string) => mentionSupportOf(adapters, platform),
    };
    const commands = buildCommandHandler(config, parts);
    home = buildHomeService(config, parts, commands, logger);
    // The panel answers at `/`; mounted with the adapters' routes, before the port is bound.
    // A worker answers nothing but its probes: no panel, and its adapters' routes (Slack events,
    // Discord interactions) go nowhere, as the platforms send those to the web process.
    panel = role === 'worker' ? undefined : buildPanel(config, parts, commands, adapters, logger);
    if (panel) http.mount('/', panel.handler);
    const adapterHttp = role === 'worker' ? { mount: () => {} } : http;
    workerDeliveries = openWorkerDeliveries(config);
    const workspaceRemoved = createWorkspaceRemoval({
      store,
      outbox: activeEngine.outbox,
      deliveryLog: activeEngine.deliveryLog,
      workerQueue: activeEngine.handOff?.queue,
      ...(workerDeliveries === undefined ? {} : { workerDeliveries: workerDeliveries.deliveries }),
      logger,
      metrics,
    });
    lostAccess = createLostAccessRemoval({
      subscriptions: activeEngine.subscriptions,
      adapters,
      workspaceRemoved,
      logger,
    });
    const contexts = new Map(
      adapters.map((adapter) => [
        adapter,
        {
          http: adapterHttp,
          commands,
          logger: logger.child({ adapter: adapter.platform }),
          workspaceRemoved,
          home,
        },
      ]),
    );
    for (const [adapter, context] of contexts) {
      adapter.attach?.(context);
      http.addReadinessCheck({ name: adapter.platform, check: async () => adapter.health().reason });
    }
    // A directory that refuses the token or does not answer leaves the bot ready (it still answers
    // commands and the platforms) but degraded, which a health check reading the body can see.
    // A worker polls nothing: the directory's health is the web process's to report.
    if (role === 'start')
      http.addDegradationCheck({
        name: 'directory',
        check: async () => connectionDegradation((await directoryView(parts)).connection),
      });
    let engineStarted = false;
    http.addReadinessCheck(
      role === 'worker'
        ? // A worker polls nothing: it is ready once its BullMQ worker takes jobs over live connections.
          { name: 'delivery worker', check: async () => (worker ? worker.readiness() : 'starting') }
        : { name: 'engine', check: async () => (engineStarted ? undefined : 'starting') },
    );

    // A worker serves only its probes (/healthz, /readyz, /metrics), and only when PORT is set:
    // Heroku routes nothing to a worker dyno (and gives it no port), while Kubernetes, Fly and
    // Render probe one. Every route answers from here on: /readyz says 503 until all is ready.
    const serves = role === 'start' || config.server.portSet === true;
    const port = serves ? await http.listen(config.server.port, config.server.host) : 0;
    boundPort = port;
    const bound = http.address();
    if (serves)
      logger.info({ address: bound?.address, port }, bound ? describeListening(bound) : 'listening');
    if (store.kind === 'sqlite' && config.server.onHeroku) {
      logger.warn(
        { store: store.description },
        'RUNNING ON HEROKU WITH A FILE STORE: dyno disks are wiped at least daily, so subscriptions, cursors and dedupe state will be lost. Add Heroku Redis or Postgres (REDIS_URL / DATABASE_URL).',
      );
    }
    await store.ping();
    logger.info({ store: store.description }, `store ready (${store.kind})`);
    if ((await store.keyLayout?.()) === 'legacy')
      logger.info(
        { store: store.description },
        'the Redis keys are in the layout of earlier versions (directory-bot::directory-bot:…), read and written in place; to rename them, stop every instance and run "directory-bot store migrate-keys"',
      );
    if (sealer) {
      // A wrong STORE_ENCRYPTION_KEY stops the start here, with the error naming it.
      const check = await verifyStoreKey(store.keyv, sealer);
      logger.info({ keyId: sealer.keyId, check }, 'store encryption key verified');
    }
    if (sandbox && config.store.source !== 'default') {
      logger.warn(
        { store: store.description, source: config.store.source },
        `sandbox on the store ${config.store.source} names: its state, subscriptions included, is kept apart there under the namespace ${SANDBOX_STORE_NAMESPACE}, but it still uses that server`,
      );
    }

    // The directory's token is checked beside the platforms' tokens, so every refused credential
    // is reported in one run. The sandbox's emulator takes its own token.
    const { baseUrl } = config.directory;
    const directoryCheck =
      directory.emulator === undefined && baseUrl !== undefined
        ? checkDirectoryToken({ ...config.directory, baseUrl })
        : Promise.resolve();
    // Before the engine seeds SUBSCRIPTIONS: a sandbox start is a first start (see sandbox.ts).
    if (sandbox && !(await startSandboxAfresh(store)))
      logger.warn(
        { store: store.description },
        "the sandbox's poller lease is held (another sandbox runs on this store, or one stopped without releasing it within POLLER_LEASE_TTL_S): its state is kept instead of started afresh",
      );
    await startAdapters(contexts, directoryCheck);
    // Not awaited: a platform's answer must not hold up the start.
    void lostAccess.sweep();
    if (workers !== undefined && (role === 'worker' || config.workers?.inWeb !== false)) {
      worker = createDeliveryWorker({
        config,
        workers,
        engine: activeEngine,
        adapters,
        clock: systemClock,
        onEvent: onEngineEvent,
      });
      await worker.start();
      logger.info({ queue: workers.names.queueName }, 'delivery worker ready');
    }
    // A worker never polls: it takes no part in the poller lease.
    if (role === 'worker') return { port };
    await activeEngine.start();
    engineStarted = true;
    announce(logger, config, sandbox, adapters, emulator, options.consoleInput !== undefined);
    return { port };
  };

  return {
    start() {
      const run = start();
      starting = run.catch(() => {});
      return run;
    },
    stop() {
      stopped ??= (async () => {
        // Everything here is bounded: Heroku kills at 30 s, and whatever is cut short is
        // safe in the durable outbox for the next process.
        const deadline = Date.now() + Math.max(1000, config.server.shutdownTimeoutMs - 3000);
        const step = async (name: string, work: () => Promise<unknown> | undefined) => {
          const left = deadline - Date.now();
          const finished = await settleWithin(
            Promise.resolve()
              .then(work)
              .catch((error: unknown) => logger.warn({ err: error, step: name }, 'error while stopping')),
            Math.max(0, left),
          );
          if (!finished)
            logger.warn(
              { step: name },
              'shutdown step cut short; pending work stays queued for the next start',
            );
        };
        // A signal during start-up: let start finish wiring, then take everything down in order.
        await step('start-up', () => starting);
        // Stop taking commands and events first, then let deliveries in flight finish.
        // The worker first: its sends in flight need the adapters.
        await step('delivery worker', () => worker?.stop());
        for (const adapter of adapters) await step(`${adapter.platform} adapter`, () => adapter.stop());
        await step('engine', () => engine?.stop());
        await step('http', () => http.close());
        // After the server: no sign-in is counted any more.
        panel?.close();
        await step('directory client', () => client?.close());
        await step('emulator', () => emulator?.close());
        await step('store', () => store.close());
        workerDeliveries?.close();
      })();
      return stopped;
    },
  };
}

/**
 * Connects every adapter at once, while `directoryCheck` runs, so a bot with both platforms is
 * ready after the slowest, not their sum. Every refused credential is reported together (one
 * `config_invalid` whose details list each problem), so the operator fixes them in one go; any
 * other failure wins.
 */
async function startAdapters(
  contexts: ReadonlyMap<ChatAdapter, AdapterContext>,
  directoryCheck: Promise<void>,
): Promise<void> {
  const results = await Promise.allSettled([
    directoryCheck,
    ...[...contexts].map(([adapter, context]) => adapter.start(context)),
  ]);
  const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  const other = errors.find((error) => !isBotError(error, 'config_invalid'));
  if (other !== undefined) throw other;
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) {
    const problems = errors.flatMap((error) => configProblems(error) ?? []);
    throw new BotError('config_invalid', problems.join('\n'), { details: { problems } });
  }
}

/** Resolves true when `work` settles within `ms`, false when time ran out; never rejects. */
function settleWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  const settled = work.then(
    () => true,
    () => true,
  );
  return withDeadline(settled, ms, () => false);
}

/** The line that says the bot is up: in the sandbox, what it is and how to go live. */
function announce(
  logger: Logger,
  config: Config,
  sandbox: boolean,
  adapters: readonly ChatAdapter[],
  emulator: RunningEmulator | undefined,
  prompt: boolean,
): void {
  if (sandbox) {
    logger.info(
      'SANDBOX MODE: an embedded directory emulator invents activity and every feed is posted to this console. ' +
        (prompt
          ? 'Type help at the prompt, exit to stop. '
          : 'No prompt: stdin and stdout are not both a terminal; run commands with "directory-bot lookup …". ') +
        'To go live set DIRECTORY_BASE_URL + DIRECTORY_TOKEN and ' +
        'SLACK_BOT_TOKEN + SLACK_SIGNING_SECRET and/or DISCORD_TOKEN + DISCORD_APPLICATION_ID (see .env.example).',
    );
    return;
  }
  logger.info(
    {
      directory: emulator ? `embedded emulator at ${emulator.url}` : config.directory.baseUrl,
      platforms: adapters.map((a) => a.platform),
      staticSubscriptions: config.feeds.subscriptions.length,
    },
    'directory bot ready',
  );
}
