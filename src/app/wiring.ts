import {
  COMMAND_REGISTRY,
  type CommandDependencies,
  createCommandHandler,
  createHomeService,
  directoryLinks,
  type StatusReport,
  type WhyDesk,
} from '../commands/index.js';
import type { Config } from '../config/config.js';
import {
  createDirectoryClient,
  type DirectoryClient,
  type DirectoryConnection,
  SPEC_WINDOW_MS,
} from '../directory/index.js';
import { EMULATOR_WEB_URL, type RunningEmulator, startEmulator } from '../emulator/index.js';
import type { Engine, EngineSettings } from '../engine/index.js';
import { PollScheduler } from '../engine/index.js';
import { BotError } from '../errors.js';
import { directoryEventSink } from '../observability/event-log.js';
import type { Metrics } from '../observability/metrics.js';
import type { ChatAdapter, CommandHandler, Logger } from '../ports/index.js';
import { systemClock } from '../ports/index.js';
import type { BotStore } from '../store/index.js';
import { directoryIdFor, directoryKeys, SANDBOX_DIRECTORY_ID } from '../store/index.js';
import {
  type ChannelHistory,
  ChannelZoneRepository,
  createZoneResolver,
  type ZoneResolver,
} from '../subscriptions/index.js';
import { USER_AGENT } from '../version.js';
import { isSandbox, SANDBOX_TOKEN } from './sandbox.js';

/**
 * The engine's settings from the configuration. The bot and `directory-bot lookup` share
 * them: a lookup's engine only answers commands and never polls, so the polling and lease
 * settings are simply unused there.
 */
export function engineSettings(config: Config): EngineSettings {
  return {
    pollMinIntervalMs: isSandbox(config)
      ? Math.min(config.feeds.pollMinIntervalMs, 10_000)
      : config.feeds.pollMinIntervalMs,
    dedupeTtlMs: config.feeds.dedupeTtlMs,
    ...(config.feeds.edits.maxAgeMs > 0 ? { edits: config.feeds.edits } : {}),
    reserveFraction: config.directory.lookupReserveFraction,
    defaultRemindMinutes: config.feeds.liveRemindMinutes,
    clearNotifications: config.feeds.clearNotifications,
    windowMs: SPEC_WINDOW_MS,
    leaseTtlMs: config.feeds.pollerLeaseTtlMs,
    // Renew three times per lease so one slow store round-trip never loses it.
    leaseRenewMs: Math.floor(config.feeds.pollerLeaseTtlMs / 3),
  };
}

export interface OpenDirectory {
  client: DirectoryClient;
  /** The sandbox's embedded emulator, which the caller closes after the client. */
  emulator: RunningEmulator | undefined;
  /** Which directory the client reads, for keying its state in the store. */
  id: string;
}

/** The directory client for this configuration: the configured directory, or in the sandbox an embedded emulator. */
export async function openDirectory(
  config: Config,
  logger: Logger,
  metrics: Metrics,
  ledger: () => DirectoryClient['ledger'] | undefined,
): Promise<OpenDirectory> {
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

/** What the `/directory` handler reads from the configuration; a whole Config will do. */
export interface CommandConfig {
  feeds: Pick<Config['feeds'], 'adminUserIds' | 'liveRemindMinutes'>;
  directory: Pick<Config['directory'], 'baseUrl'>;
}

/** The running parts the `/directory` handler answers from. */
export interface CommandParts {
  client: DirectoryClient;
  engine: Engine;
  store: BotStore;
  /** The directory `client` reads (see `openDirectory`). */
  directoryId: string;
  /** Counts every command when given. */
  metrics?: Metrics;
  /** Channel zones and how a schedule's zone is found (`buildZones`); absent: schedules shown in UTC. */
  zones?: Zones;
  /** Whom each platform can ping (its adapter's `mentions`); absent: `--mention` is refused everywhere. */
  mentionSupport?: CommandDependencies['mentionSupport'];
  /** Where every change to a channel's subscriptions is recorded; absent: not recorded (the CLI). */
  history?: ChannelHistory;
}

/** The channel zones store and the resolver over it: what the commands and the engine share. */
export interface Zones {
  channelZones: ChannelZoneRepository;
  resolver: ZoneResolver;
}

/**
 * Channel zones (`/directory timezone`) in the store, and the `ZoneOf` chain over them: a
 * subscription's `--tz` → its channel's zone → its workspace's (asked of the adapter of its
 * platform: Slack's installer `tz`) → UTC. `zones.resolver.zoneOf` is what the engine's schedule
 * runner takes.
 */
export function buildZones(store: BotStore, adapters: readonly ChatAdapter[]): Zones {
  const channelZones = new ChannelZoneRepository({
    keyv: store.keyv,
    leases: store.leases,
    clock: systemClock,
  });
  const resolver = createZoneResolver({
    channelZones,
    workspaceZone: async (platform, workspaceId) =>
      adapters.find((a) => a.platform === platform)?.workspaceTimeZone?.(workspaceId),
  });
  return { channelZones, resolver };
}

/** The directory's quota and connection as the polling instance sees them. */
export interface DirectoryView {
  quotas: ReturnType<DirectoryClient['ledger']['snapshot']>;
  connection: DirectoryConnection;
  /** Set when read from what the poller saved (this instance does not poll). */
  savedAt?: number;
}

/**
 * The directory as the polling instance sees it: this instance's own client when it polls, else
 * the report the poller saves with each round (its own client when none was saved yet).
 */
export async function directoryView(
  parts: Pick<CommandParts, 'client' | 'engine' | 'store' | 'directoryId'>,
): Promise<DirectoryView> {
  const { client, engine, store, directoryId } = parts;
  const own = { quotas: client.ledger.snapshot(), connection: client.connection() };
  if (engine.leader.isLeader) return own;
  const saved = await PollScheduler.savedReport(store.keyv, directoryId);
  return saved === undefined
    ? own
    : { quotas: saved.quotas, connection: saved.connection, savedAt: saved.at };
}

/**
 * The report the polling instance saved for the directory `config` reads (the sandbox's when it
 * names none), for `doctor` on another machine; undefined when none was saved.
 */
export function savedDirectoryReport(store: BotStore, config: Pick<Config, 'directory'>) {
  const { baseUrl } = config.directory;
  return PollScheduler.savedReport(
    store.keyv,
    baseUrl === undefined ? SANDBOX_DIRECTORY_ID : directoryIdFor(baseUrl),
  );
}

/**
 * What `/readyz` says of a directory that cannot be used (`degraded`), or undefined when it can.
 * The bot stays ready: it still answers commands and the platforms.
 */
export function connectionDegradation(connection: DirectoryConnection): string | undefined {
  if (connection.state === 'refused')
    return `the directory refused DIRECTORY_TOKEN since ${new Date(connection.since).toISOString()}: ${connection.detail}`;
  if (connection.state === 'unreachable')
    return `the directory has not answered since ${new Date(connection.since).toISOString()}: ${connection.detail}`;
  return undefined;
}

/** `/directory status`'s report (the home tab's and the control panel's too), from the running parts. */
export async function statusReport(
  parts: Pick<CommandParts, 'client' | 'engine' | 'store' | 'directoryId'>,
): Promise<StatusReport> {
  const { engine, store, directoryId } = parts;
  const index = await engine.subscriptions.index();
  const isPoller = engine.leader.isLeader;
  // Only the poller's view is live; another instance shows what the poller last saved (its own
  // quota counters only count its lookups, and its connection is rarely tried).
  const view = await directoryView(parts);
  return {
    quotas: view.quotas,
    connection: view.connection,
    feeds: await feedHealth({ engine, store, directoryId }),
    pausedSubscriptions: index.paused(),
    subscribedFeeds: await engine.wantedFeeds(),
    isPoller,
    ...(view.savedAt === undefined ? {} : { savedAt: view.savedAt }),
    ...(engine.handOff === undefined ? {} : { deliveryWorkers: await workerCounts(engine.handOff) }),
  };
}

/** What the workers hold: any instance reads it from Redis; unknown (not shown) when Redis does not answer. */
async function workerCounts(
  handOff: NonNullable<Engine['handOff']>,
): Promise<{ queued: number; dead: number }> {
  const [queued, dead] = await Promise.all([handOff.queue.size(), handOff.queue.deadCount()]);
  return { queued, dead };
}

/** Each feed's health: only the poller's is live; another instance reads what the poller last saved. */
function feedHealth({ engine, store, directoryId }: Pick<CommandParts, 'engine' | 'store' | 'directoryId'>) {
  return engine.leader.isLeader
    ? Promise.resolve(engine.polling.health())
    : PollScheduler.savedHealth(store.keyv, directoryId);
}

/**
 * What `/directory why` and the control panel's "why" read (src/accounting): the ledger, the
 * delivery log, the outbox as stored, the held items and the feed positions of this directory.
 */
export function whyDesk(parts: Pick<CommandParts, 'engine' | 'store' | 'directoryId' | 'zones'>): WhyDesk {
  const { engine, store, directoryId, zones } = parts;
  const keys = directoryKeys(directoryId);
  return {
    subscriptions: engine.subscriptions,
    ledger: engine.ledger,
    log: engine.deliveryLog,
    outbox: queuedFor(engine),
    held: engine.scheduling.held,
    feedState: (feed) => store.keyv.get(keys.feedState(feed)),
    feedPolling: () => feedHealth(parts),
    // Without channel zones (the CLI's lookups), a schedule's own `--tz`, else UTC.
    zoneOf: zones?.resolver.zoneOf ?? (async (s) => s.schedule?.timeZone ?? 'UTC'),
    rememberMs: engine.rememberMs,
    messageLink: engine.messageLink,
  };
}

/**
 * What is queued for a channel as `why` sees it: the outbox, and with delivery workers their
 * queue in Redis too (an entry is in one or the other, moving from the first to the second).
 */
function queuedFor(engine: Engine): WhyDesk['outbox'] {
  const { handOff, outbox } = engine;
  if (handOff === undefined) return outbox;
  return {
    stored: async (destination) => [
      ...(await outbox.stored(destination)),
      ...(await handOff.queue.entries(destination)),
    ],
  };
}

/** What the `/directory` commands (and the home tab) answer from, built from the running parts. */
function commandDependencies(
  config: CommandConfig,
  { client, engine, store, directoryId, metrics, zones, history, mentionSupport }: CommandParts,
  overrides: Partial<CommandDependencies> = {},
): CommandDependencies {
  const status = () => statusReport({ client, engine, store, directoryId });
  const why = whyDesk({ engine, store, directoryId, ...(zones === undefined ? {} : { zones }) });
  return {
    client,
    subscriptions: engine.subscriptions,
    clock: systemClock,
    why,
    adminUserIds: config.feeds.adminUserIds,
    status,
    defaultRemindMinutes: config.feeds.liveRemindMinutes,
    reminders: { repository: engine.reminders, directoryId, listedEvents: engine.listedLiveEvents },
    digests: { latest: (id) => engine.scheduling.held.latest(id) },
    backfill: { withinMs: engine.backfill.withinMs, keep: engine.backfill.keep },
    ...(zones ? { zones: { channelZones: zones.channelZones, resolve: zones.resolver.resolve } } : {}),
    ...(history ? { history } : {}),
    directoryLinks: directoryLinks(config.directory.baseUrl, EMULATOR_WEB_URL),
    ...(mentionSupport === undefined ? {} : { mentionSupport }),
    ...(metrics
      ? {
          onEvent: (event) =>
            metrics.commands.inc({ platform: event.platform, command: event.command, result: event.result }),
          onPreview: (event) =>
            metrics.linkPreviews.inc({
              platform: event.platform,
              result: event.result,
              cached: String(event.cached),
            }),
        }
      : {}),
    ...overrides,
  };
}

/**
 * The `/directory` handler every chat platform and `directory-bot lookup` share. `overrides`
 * is for tests and benchmarks (a lifted rate limit, say); the bot passes none.
 */
export function buildCommandHandler(
  config: CommandConfig,
  parts: CommandParts,
  overrides: Partial<CommandDependencies> = {},
): CommandHandler {
  return createCommandHandler(commandDependencies(config, parts, overrides));
}

/**
 * The home surface (Slack's App Home) over the same commands: its buttons run them through
 * `commands`, and its status is `/directory status`'s. Recent viewers are kept in the store.
 */
export function buildHomeService(
  config: CommandConfig,
  parts: CommandParts,
  commands: CommandHandler,
  logger: Logger,
): ReturnType<typeof createHomeService> {
  return createHomeService({
    deps: commandDependencies(config, parts),
    commands,
    store: parts.store.keyv,
    logger: logger.child({ component: 'home' }),
  });
}

/** The `/directory` command definitions, for registering them with Discord. */
export function commandDefinitions() {
  return COMMAND_REGISTRY.definitions;
}
