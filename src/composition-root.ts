import {
  type ConsoleScreen,
  createConsoleAdapter,
  createConsoleScreen,
  isForegroundTerminal,
  type JobControl,
  processJobControl,
  renderConsoleMessage,
  renderConsoleReply,
} from '../adapters/console/index.js';
import {
  createDiscordAdapter,
  registerDiscordCommands,
  renderDiscordMessage,
  renderDiscordReply,
} from '../adapters/discord/index.js';
import { createSlackAdapter, renderSlackMessage, renderSlackReply } from '../adapters/slack/index.js';
import type { LookupPlatform, LookupSession } from './cli/lookup-command.js';
import { COMMAND_REGISTRY, createCommandHandler, directoryLinks } from './commands/index.js';
import type { StatusReport } from './commands/types.js';
import type { Config } from './config/config.js';
import { loadConfig } from './config/load-config.js';
import type { SubscriptionSeed } from './delivery/subscription-spec.js';
import { createDirectoryClient, type DirectoryClient, SPEC_WINDOW_MS } from './directory/index.js';
import { EMULATOR_WEB_URL, type RunningEmulator, startEmulator } from './emulator/index.js';
import { createItemComposer } from './engine/compose-item.js';
import { createEngine, type Engine } from './engine/engine.js';
import { FeedScheduler } from './engine/feed-scheduler.js';
import { BotError, isBotError } from './errors.js';
import { FEED_NAMES } from './feeds/feed-names.js';
import { directoryEventSink, engineEventSink } from './observability/event-log.js';
import { createHttpServer, describeListening } from './observability/http-server.js';
import { createMetrics } from './observability/metrics.js';
import type { AdapterContext, ChatAdapter } from './ports/chat-adapter.js';
import { systemClock } from './ports/clock.js';
import type { CommandHandler, CommandReply } from './ports/commands.js';
import { withDeadline } from './ports/deadline.js';
import type { Logger } from './ports/logger.js';
import type { Message } from './ports/message.js';
import { type BotStore, createStore } from './store/create-store.js';
import { directoryIdFor, SANDBOX_DIRECTORY_ID } from './store/directory-keys.js';
import { USER_AGENT } from './version.js';

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

export interface AppOptions {
  logger: Logger;
  /** Standard input for the console prompt; only passed on an interactive terminal in the foreground. */
  consoleInput?: NodeJS.ReadableStream;
  /** Called when the console prompt ends (Ctrl-D, `exit`): the CLI shuts down. */
  onConsoleClosed?: () => void;
  /** Where the console adapter writes; default stdout. */
  consoleWrite?: (text: string) => void;
  /** The terminal the console shares with the log lines; takes the place of `consoleWrite`. */
  consoleScreen?: ConsoleScreen;
  /** Ctrl-Z, `fg` and `bg` for a prompt on a real terminal. */
  consoleJobControl?: JobControl;
  /** Where the full logs go while the terminal shows only warnings; named in the console's banner. */
  logFile?: string;
}

/** The sandbox's own token for its embedded emulator. */
const SANDBOX_TOKEN = 'sandbox-token';
const SANDBOX_CHANNEL = 'sandbox';

/**
 * The store namespace the sandbox uses, apart from live bots' `directory-bot`. Subscriptions
 * are one document per namespace and seeding SUBSCRIPTIONS replaces every route seeded from
 * the environment, so a sandbox sharing live's namespace on an explicit store would drop the
 * production routes (and add its console ones). Namespaced, it never reads or writes them.
 */
export const SANDBOX_STORE_NAMESPACE = 'directory-bot-sandbox';

/** The store namespace for this configuration: the sandbox's own, or the default. */
function storeNamespace(config: Config): { namespace?: string } {
  return isSandbox(config) ? { namespace: SANDBOX_STORE_NAMESPACE } : {};
}

/** Sandbox mode (no directory configured, or SANDBOX=true): the embedded emulator stands in for the directory. */
export function isSandbox(config: Config): boolean {
  return config.sandbox.enabled;
}

/** Whether the bot runs the console adapter, and so can offer a `directory>` prompt. */
export function wantsConsole(config: Config): boolean {
  return isSandbox(config) || config.feeds.subscriptions.some((s) => s.platform === 'console');
}

export { createConsoleScreen, isForegroundTerminal, processJobControl };

/**
 * The composition root: the one place that reads the configuration and wires the store,
 * the directory, the pipeline, the commands and the chosen chat adapters together. It is
 * the only module in src/ allowed to import from adapters/.
 */
export function createApp(config: Config, options: AppOptions): App {
  const { logger } = options;
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

    // The console's banner names the port, known once it is bound (before adapters start).
    let boundPort = 0;
    adapters.push(...createAdapters(config, options, store, { sandbox, port: () => boundPort }));
    const seeds: SubscriptionSeed[] = [...config.feeds.subscriptions];
    if (sandbox)
      for (const feed of FEED_NAMES)
        seeds.push({ platform: 'console', channelId: SANDBOX_CHANNEL, feed, filters: {} });

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
      settings: {
        pollMinIntervalMs: sandbox
          ? Math.min(config.feeds.pollMinIntervalMs, 10_000)
          : config.feeds.pollMinIntervalMs,
        dedupeTtlMs: config.feeds.dedupeTtlMs,
        reserveFraction: config.directory.lookupReserveFraction,
        defaultRemindMinutes: config.feeds.liveRemindMinutes,
        clearNotifications: config.feeds.clearNotifications,
        windowMs: SPEC_WINDOW_MS,
        leaseTtlMs: config.feeds.pollerLeaseTtlMs,
        // Renew three times per lease so one slow store round-trip never loses it.
        leaseRenewMs: Math.floor(config.feeds.pollerLeaseTtlMs / 3),
      },
      seeds,
      onEvent: engineEventSink(logger, metrics, () => activeEngine.outbox.size()),
    });
    engine = activeEngine;

    const commands = buildCommandHandler(config, client, directory.id, activeEngine, store, metrics);
    const contexts = new Map(
      adapters.map((adapter) => [
        adapter,
        { http, commands, logger: logger.child({ adapter: adapter.platform }) },
      ]),
    );
    for (const [adapter, context] of contexts) {
      adapter.attach?.(context);
      http.addReadinessCheck({ name: adapter.platform, check: async () => adapter.health().reason });
    }
    let engineStarted = false;
    http.addReadinessCheck({
      name: 'engine',
      check: async () => (engineStarted ? undefined : 'starting'),
    });

    const port = await http.listen(config.server.port);
    boundPort = port;
    const bound = http.address();
    logger.info({ address: bound?.address, port }, bound ? describeListening(bound) : 'listening');
    if (store.kind === 'sqlite' && config.server.onHeroku) {
      logger.warn(
        { store: store.description },
        'RUNNING ON HEROKU WITH A FILE STORE: dyno disks are wiped at least daily, so subscriptions, cursors and dedupe state will be lost. Add Heroku Redis or Postgres (REDIS_URL / DATABASE_URL).',
      );
    }
    await store.ping();
    logger.info({ store: store.description }, `store ready (${store.kind})`);
    if (sandbox && config.store.source !== 'default') {
      logger.warn(
        { store: store.description, source: config.store.source },
        `sandbox on the store ${config.store.source} names: its state, subscriptions included, is kept apart there under the namespace ${SANDBOX_STORE_NAMESPACE}, but it still uses that server`,
      );
    }

    await startAdapters(contexts);
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
        for (const adapter of adapters) await step(`${adapter.platform} adapter`, () => adapter.stop());
        await step('engine', () => engine?.stop());
        await step('http', () => http.close());
        await step('directory client', () => client?.close());
        await step('emulator', () => emulator?.close());
        await step('store', () => store.close());
      })();
      return stopped;
    },
  };
}

/**
 * Connects every adapter at once, so a bot with both platforms is ready after the slower of the
 * two, not their sum. Every refused credential is reported together (one `config_invalid` whose
 * details list each problem), so the operator fixes them in one go; any other failure wins.
 */
async function startAdapters(contexts: ReadonlyMap<ChatAdapter, AdapterContext>): Promise<void> {
  const results = await Promise.allSettled([...contexts].map(([adapter, context]) => adapter.start(context)));
  const errors = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  const other = errors.find((error) => !isBotError(error, 'config_invalid'));
  if (other !== undefined) throw other;
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) {
    const problems = errors.map((error) => (error as BotError).message);
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

async function openDirectory(
  config: Config,
  logger: Logger,
  metrics: ReturnType<typeof createMetrics>,
  ledger: () => DirectoryClient['ledger'] | undefined,
): Promise<{ client: DirectoryClient; emulator: RunningEmulator | undefined; id: string }> {
  let emulator: RunningEmulator | undefined;
  let baseUrl = config.directory.baseUrl;
  let token = config.directory.token;
  // Only sandbox mode runs the emulator: it never stands in for a missing real directory.
  if (config.sandbox.enabled) {
    emulator = await startEmulator({
      port: 0,
      tokens: [SANDBOX_TOKEN],
      seed: 1,
      activityPerMinute: config.sandbox.activityPerMinute,
    });
    baseUrl = emulator.url;
    token = SANDBOX_TOKEN;
    logger.info({ url: emulator.url }, 'embedded directory emulator started (sandbox data)');
  } else if (!baseUrl) {
    throw new BotError('config_invalid', 'DIRECTORY_BASE_URL is required outside the sandbox');
  }
  const client = createDirectoryClient({
    baseUrl,
    token: token ?? '',
    userAgent: USER_AGENT,
    onEvent: directoryEventSink(logger.child({ component: 'directory' }), metrics, ledger),
  });
  // The emulator's URL has a new port every run; its state is the sandbox's, whatever the port.
  return { client, emulator, id: emulator ? SANDBOX_DIRECTORY_ID : directoryIdFor(baseUrl) };
}

function createAdapters(
  config: Config,
  options: AppOptions,
  store: BotStore,
  { sandbox, port }: { sandbox: boolean; port: () => number },
): ChatAdapter[] {
  const { logger } = options;
  const adapters: ChatAdapter[] = [];
  if (wantsConsole(config)) {
    const input = options.consoleInput;
    adapters.push(
      createConsoleAdapter({
        logger,
        ...(input ? { input, banner: () => consoleBanner(config, sandbox, port(), options.logFile) } : {}),
        // In the sandbox the prompt is the feeds' channel: `subscriptions` there lists what flows.
        ...(sandbox ? { promptChannelId: SANDBOX_CHANNEL } : {}),
        ...(options.onConsoleClosed ? { onInputClosed: options.onConsoleClosed } : {}),
        ...(options.consoleWrite ? { write: options.consoleWrite } : {}),
        ...(options.consoleScreen ? { screen: options.consoleScreen } : {}),
        ...(options.consoleJobControl ? { jobControl: options.consoleJobControl } : {}),
        render: { color: process.stdout.isTTY === true },
      }),
    );
  }
  if (config.slack) {
    adapters.push(
      createSlackAdapter({
        ...(config.slack.botToken ? { botToken: config.slack.botToken } : {}),
        signingSecret: config.slack.signingSecret,
        ...(config.slack.appToken ? { appToken: config.slack.appToken } : {}),
        apiUrl: config.slack.apiUrl,
        ...(config.slack.oauth ? { oauth: { ...config.slack.oauth, installationStore: store.keyv } } : {}),
        logger,
      }),
    );
  }
  if (config.discord) {
    adapters.push(
      createDiscordAdapter({
        ...(config.discord.token ? { token: config.discord.token } : {}),
        applicationId: config.discord.applicationId,
        ...(config.discord.publicKey ? { publicKey: config.discord.publicKey } : {}),
        apiUrl: config.discord.apiUrl,
        gateway: config.discord.gateway && config.discord.token !== undefined,
        logger,
      }),
    );
  }
  return adapters;
}

function buildCommandHandler(
  config: Config,
  client: DirectoryClient,
  directoryId: string,
  engine: Engine,
  store: BotStore,
  metrics: ReturnType<typeof createMetrics>,
): CommandHandler {
  const status = async (): Promise<StatusReport> => {
    const all = await engine.subscriptions.list();
    return {
      quotas: client.ledger.snapshot(),
      feeds: engine.leader.isLeader
        ? engine.scheduler.health()
        : await FeedScheduler.savedHealth(store.keyv, directoryId),
      pausedSubscriptions: all.filter((s) => s.paused),
      subscribedFeeds: await engine.wantedFeeds(),
      isPoller: engine.leader.isLeader,
    };
  };
  return createCommandHandler({
    client,
    subscriptions: engine.subscriptions,
    clock: systemClock,
    adminUserIds: config.feeds.adminUserIds,
    status,
    defaultRemindMinutes: config.feeds.liveRemindMinutes,
    directoryLinks: directoryLinks(config.directory.baseUrl, EMULATOR_WEB_URL),
    onEvent: (event) =>
      metrics.commands.inc({ platform: event.platform, command: event.command, result: event.result }),
  });
}

/** What the person at the prompt sees first: where they are, how to leave, where the rest went. */
function consoleBanner(config: Config, sandbox: boolean, port: number, logFile: string | undefined): string {
  const lines = sandbox
    ? [
        'Directory Bot: SANDBOX MODE',
        `An embedded directory emulator invents activity, and every feed prints here as #${SANDBOX_CHANNEL}.`,
        'To go live set DIRECTORY_BASE_URL + DIRECTORY_TOKEN and a Slack or Discord app (see .env.example).',
      ]
    : [
        `Directory Bot is running: ${config.directory.baseUrl ?? 'embedded emulator'}; console subscriptions print here.`,
      ];
  lines.push(`HTTP on port ${port}: /healthz, /readyz, /metrics.`);
  if (logFile !== undefined) {
    lines.push(`Full logs go to ${logFile}; only warnings show here (set LOG_LEVEL to see them all here).`);
  }
  lines.push('Type "help" for the commands, "exit" or "quit" to stop the bot.');
  return lines.join('\n');
}

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
          : 'No prompt: stdin and stdout are not both a terminal in the foreground; run commands with "directory-bot lookup …". ') +
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

/** Each platform's message renderer, for `directory-bot render`. */
export const MESSAGE_RENDERERS = {
  console: (message: Message) => renderConsoleMessage(message),
  slack: (message: Message) => renderSlackMessage(message),
  discord: (message: Message) => renderDiscordMessage(message),
};

/**
 * Each platform's command-reply renderer, for `directory-bot lookup`: called as each adapter calls
 * it for a slash command, with the command text, so the payload carries the same "Share in
 * channel" button.
 */
export const REPLY_RENDERERS = {
  console: (reply: CommandReply, _commandText: string) => renderConsoleReply(reply),
  slack: (reply: CommandReply, commandText: string) => renderSlackReply(reply, { shareValue: commandText }),
  discord: (reply: CommandReply, commandText: string) => renderDiscordReply(reply, { commandText }),
};

export { registerDiscordCommands };

/** The `/directory` command definitions, for registering them with Discord. */
export function commandDefinitions() {
  return COMMAND_REGISTRY.definitions;
}

/**
 * A one-shot command handler for `directory-bot lookup`: the configured directory (or an
 * embedded emulator), the configured store, no chat platform.
 */
export async function openLookupSession(platform: LookupPlatform, logger: Logger): Promise<LookupSession> {
  const config = loadConfig();
  const store = createStore({ url: config.store.url, ...storeNamespace(config) });
  const metrics = createMetrics();
  const { client, emulator, id } = await openDirectory(config, logger, metrics, () => undefined);
  const engine = createEngine({
    store,
    client,
    directoryId: id,
    adapters: [],
    clock: systemClock,
    compose: createItemComposer(systemClock),
    settings: {
      pollMinIntervalMs: config.feeds.pollMinIntervalMs,
      dedupeTtlMs: config.feeds.dedupeTtlMs,
      reserveFraction: config.directory.lookupReserveFraction,
      defaultRemindMinutes: config.feeds.liveRemindMinutes,
      clearNotifications: false,
      windowMs: SPEC_WINDOW_MS,
    },
  });
  return {
    handler: buildCommandHandler(config, client, id, engine, store, metrics),
    render: REPLY_RENDERERS[platform],
    async close() {
      await client.close();
      await emulator?.close();
      await store.close();
    },
  };
}
