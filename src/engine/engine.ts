import type { DispatchEvent, EditLimits, HandOffEvent, WorkerNames } from '../delivery/index.js';
import { DeliveredLedger, DeliveryLog, Dispatcher, HandOff, Outbox } from '../delivery/index.js';
import type { DirectoryClient, DirectoryLiveEvent } from '../directory/index.js';
import { createFeeds } from '../feeds/create-feeds.js';
import type { Feed } from '../feeds/feed.js';
import type { FeedItem } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';
import type { LiveFeedState } from '../feeds/live-feed.js';
import { createScheduling, type SchedulingEvent, type SchedulingOptions } from '../held-items/index.js';
import type { ChatAdapter, Clock, Destination, Message, MessageReference } from '../ports/index.js';
import type { BotStore } from '../store/index.js';
import { directoryKeys, LEGACY_POLLER_LEASE } from '../store/index.js';
import type { SubscriptionSeed } from '../subscriptions/index.js';
import { ReminderRepository, SubscriptionRepository } from '../subscriptions/index.js';
import { type DirectoryReturn, startFromNowAfterDirectoryChange } from './active-directory.js';
import { type BackfillEvent, BackfillStash, createBackfillRunner } from './backfill-runner.js';
import { type PollSummary, runFeedOnce } from './feed-runner.js';
import { type PollEvent, PollScheduler } from './poll-scheduler.js';
import { type LeaderEvent, PollerLease } from './poller-lease.js';
import { createReminderRunner, type ReminderEvent } from './reminder-runner.js';
import { olderToCheck } from './removal-memory.js';
import { createTodaysRanking } from './todays-ranking.js';
import { migrateUnprefixedState } from './unprefixed-state.js';

export interface EngineSettings {
  pollMinIntervalMs: number;
  dedupeTtlMs: number;
  /** Keep posted messages current in place (EDIT_MAX_AGE_H, EDIT_MIN_INTERVAL_S); absent: never edit. */
  edits?: EditLimits;
  reserveFraction: number;
  defaultRemindMinutes: number;
  clearNotifications: boolean;
  /** The directory's quota window (spec: 15 minutes). */
  windowMs: number;
  leaseTtlMs?: number;
  leaseRenewMs?: number;
  /** How often the poller looks for due reminders; default REMINDER_TICK_MS (tests go faster). */
  reminderTickMs?: number;
}

export type EngineEvent =
  | { source: 'store'; type: 'swept'; removed: number }
  | { source: 'store'; type: 'sweep-failed'; error: unknown }
  | ({ source: 'store'; type: 'directory-changed'; directoryId: string } & DirectoryReturn)
  | ({ source: 'polling' } & PollEvent)
  | ({ source: 'dispatcher' } & DispatchEvent)
  | ({ source: 'workers' } & HandOffEvent)
  | ({ source: 'reminders' } & ReminderEvent)
  | ({ source: 'backfill' } & BackfillEvent)
  | ({ source: 'schedule' } & SchedulingEvent)
  | ({ source: 'leader' } & LeaderEvent);

export interface EngineOptions {
  store: BotStore;
  client: DirectoryClient;
  /**
   * The directory `client` reads (`directoryIdFor(baseUrl)`, or SANDBOX_DIRECTORY_ID). Feed
   * positions, health, the outbox, the delivered ledger and the poller lease are kept under
   * it, so another directory's state is never read as this one's.
   */
  directoryId: string;
  /**
   * Forget this directory's positions, outbox and ledger when first taking the poller lease,
   * so every feed starts from "now". For a directory that is new at every start, like the
   * sandbox's emulator, whose ids and data restart from the same seed: what an earlier run
   * remembered describes records that no longer exist, and its cursors would sit ahead of
   * every new id. Done under the lease so no other poller of the directory is writing.
   */
  forgetPreviousState?: boolean;
  /**
   * Upgrading a store written by versions before per-directory state (not the sandbox's):
   * never poll while an instance of such a version holds its `poller` lease (a deploy's
   * overlap), so the two never both post; then, once, adopt what is safe of its state
   * (src/engine/unprefixed-state.ts). See docs/adr/004-state-per-directory.md.
   */
  upgradeFromUnprefixedState?: boolean;
  adapters: readonly ChatAdapter[];
  clock: Clock;
  compose: (item: FeedItem) => Message;
  settings: EngineSettings;
  seeds?: readonly SubscriptionSeed[];
  /**
   * Deliver through the workers' engine on Redis (ADR 005): the poller hands what it queues to
   * the workers' FIFOs instead of sending it itself. Absent: the in-process dispatcher, as always.
   */
  workers?: { redisUrl: string; names: WorkerNames };
  /** Digests, quiet hours and caps: how zones are found and digests written (defaults for both). */
  schedule?: SchedulingOptions;
  onEvent?: (event: EngineEvent) => void;
}

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * The core pipeline assembled: feeds → router → outbox → dispatcher → adapters, run by the
 * scheduler on whichever instance holds the poller lease. Every instance can answer
 * commands; only the leader polls and delivers.
 */
export function createEngine(options: EngineOptions) {
  const { store, client, clock, settings, onEvent, directoryId } = options;
  const keyv = store.keyv;
  // Subscriptions are about channels, not directories: "post comments here" holds whichever
  // directory the bot reads, so they are shared by every directory on the store.
  const subscriptions = new SubscriptionRepository({ keyv, leases: store.leases, clock });
  const outbox = new Outbox({ keyv, directoryId });
  const ledger = new DeliveredLedger({ keyv, ttlMs: settings.dedupeTtlMs, directoryId });
  // What became of each delivery, kept as long as the ledger remembers it (`/directory why`).
  const deliveryLog = new DeliveryLog({
    keyv,
    directoryId,
    ttlMs: settings.dedupeTtlMs,
    clock,
    shared: options.workers !== undefined,
  });
  const adapters = new Map(options.adapters.map((a) => [a.platform, a]));
  /** Platforms whose deliveries carry the item's record: only their outbox entries keep it. */
  const recordPlatforms = new Set(options.adapters.filter((a) => a.wantsRecords).map((a) => a.platform));
  const handOff =
    options.workers === undefined
      ? undefined
      : new HandOff({
          outbox,
          ...options.workers,
          // Dead deliveries last as long as the ledger a replay checks.
          deadRetentionMs: settings.dedupeTtlMs,
          now: () => clock.now(),
          onEvent: (event) => onEvent?.({ source: 'workers', ...event }),
        });
  const dispatcher: Pick<Dispatcher, 'start' | 'stop' | 'wake' | 'drained'> =
    handOff ??
    new Dispatcher({
      outbox,
      ledger,
      subscriptions,
      adapters,
      clock,
      log: deliveryLog,
      onEvent: (event) => onEvent?.({ source: 'dispatcher', ...event }),
    });

  const reminders = new ReminderRepository({ keyv, leases: store.leases, clock });
  const reminderRunner = createReminderRunner({
    reminders,
    outbox,
    ledger,
    keyv,
    directoryId,
    clock,
    wake: () => dispatcher.wake(),
    platforms: () => new Set(adapters.keys()),
    ...(settings.reminderTickMs === undefined ? {} : { tickMs: settings.reminderTickMs }),
    onEvent: (event) => onEvent?.({ source: 'reminders', ...event }),
  });

  const backfillStash = new BackfillStash({ keyv, directoryId });
  const backfills = createBackfillRunner({
    subscriptions,
    outbox,
    ledger,
    stash: backfillStash,
    client,
    compose: options.compose,
    clock,
    dedupeTtlMs: settings.dedupeTtlMs,
    wake: () => dispatcher.wake(),
    platforms: () => new Set(adapters.keys()),
    recordPlatforms,
    onEvent: (event) => onEvent?.({ source: 'backfill', ...event }),
  });
  // A subscribe answered here asks for its backfill at once; other instances' wait for the tick.
  subscriptions.onChange((changed) => {
    if (changed.some((s) => s.backfill !== undefined)) backfills.wake();
  });

  const scheduling = createScheduling(options.schedule ?? {}, {
    keyv,
    directoryId,
    subscriptions,
    outbox,
    ledger,
    clock,
    wake: () => dispatcher.wake(),
    platforms: () => new Set(adapters.keys()),
    repliesInThreads: (platform) => adapters.get(platform)?.repliesInThreads === true,
    onEvent: (event) => onEvent?.({ source: 'schedule', ...event }),
  });

  let reminderHorizon = settings.defaultRemindMinutes;
  const feeds = createFeeds(
    { client, clock },
    {
      reminderHorizonMinutes: () => reminderHorizon,
      clearNotificationsAfterDelivery: settings.clearNotifications,
      // Marking a removed comment is an edit: without edits the check would spend for nothing.
      checkRemovedComments: settings.edits !== undefined,
      olderCommentToCheck: () => olderToCheck(keyv, directoryId, 'comments'),
    },
  );

  const ranking =
    settings.edits === undefined
      ? undefined
      : createTodaysRanking({ client, store: keyv, directoryId, ledger, limits: settings.edits });
  const runFeed = (feed: Feed, signal?: AbortSignal): Promise<PollSummary> =>
    runFeedOnce(
      feed,
      {
        store: keyv,
        directoryId,
        subscriptions,
        outbox,
        ledger,
        dispatcher,
        compose: options.compose,
        clock,
        defaultRemindMinutes: settings.defaultRemindMinutes,
        ...(settings.edits === undefined ? {} : { edits: settings.edits }),
        ...(ranking === undefined ? {} : { ranking }),
        schedule: scheduling.gate,
        recordPlatforms,
      },
      signal,
    );

  const wantedFeeds = async (): Promise<ReadonlySet<FeedName>> => {
    const active = (await subscriptions.index()).activeRoutes().filter((r) => adapters.has(r.platform));
    reminderHorizon = Math.max(
      0,
      ...active.filter((r) => r.feed === 'live').map((r) => r.remindMinutes ?? settings.defaultRemindMinutes),
    );
    const wanted = new Set(active.map((s) => s.feed));
    // Pending personal reminders read the live feed's listing for moved or cancelled events.
    if ((await reminders.list()).some((r) => r.directoryId === directoryId && adapters.has(r.platform)))
      wanted.add('live');
    return wanted;
  };

  const polling = new PollScheduler({
    feeds,
    runFeed,
    wantedFeeds,
    ledger: client.ledger,
    connection: client.connection,
    store: keyv,
    directoryId,
    clock,
    windowMs: settings.windowMs,
    reserveFraction: settings.reserveFraction,
    minIntervalMs: settings.pollMinIntervalMs,
    onEvent: (event) => onEvent?.({ source: 'polling', ...event }),
  });

  // Delivered-ledger keys are never read again, so SQL stores only shrink if swept.
  let sweepTimer: NodeJS.Timeout | undefined;
  const sweep = () => {
    store.sweepExpired(clock.now()).then(
      (removed) => onEvent?.({ source: 'store', type: 'swept', removed }),
      (error: unknown) => onEvent?.({ source: 'store', type: 'sweep-failed', error }),
    );
  };

  let previousStateForgotten = !options.forgetPreviousState;
  const leader = new PollerLease({
    leases: store.leases,
    name: directoryKeys(directoryId).pollerLease,
    ...(options.upgradeFromUnprefixedState ? { deferTo: LEGACY_POLLER_LEASE } : {}),
    ...(settings.leaseTtlMs ? { ttlMs: settings.leaseTtlMs } : {}),
    ...(settings.leaseRenewMs ? { renewEveryMs: settings.leaseRenewMs } : {}),
    async onLead() {
      if (!previousStateForgotten) {
        await store.deleteByPrefix(directoryKeys(directoryId).prefix);
        // The workers' queue too (Redis), or an earlier run's messages would still be sent.
        await handOff?.queue.clear();
        previousStateForgotten = true;
      }
      if (options.upgradeFromUnprefixedState) {
        const migration = await migrateUnprefixedState({ keyv, directoryId, now: clock.now() });
        if (migration.directoryId === directoryId)
          ledger.consultUnprefixedEntries(migration.at + settings.dedupeTtlMs, clock);
      }
      if (!options.forgetPreviousState) {
        const change = await startFromNowAfterDirectoryChange(store, directoryId);
        if (change) onEvent?.({ source: 'store', type: 'directory-changed', directoryId, ...change });
      }
      await outbox.load();
      dispatcher.start();
      polling.start();
      reminderRunner.start();
      backfills.start();
      scheduling.start();
      sweep();
      sweepTimer = setInterval(sweep, SWEEP_EVERY_MS);
      sweepTimer.unref();
    },
    async onFollow() {
      clearInterval(sweepTimer);
      await reminderRunner.stop();
      await backfills.stop();
      await scheduling.stop();
      await polling.stop();
      await dispatcher.stop();
      // The last attempts' records, before the store may be closed.
      await deliveryLog.flushed();
    },
    onEvent: (event) => onEvent?.({ source: 'leader', ...event }),
  });

  return {
    subscriptions,
    reminders,
    reminderRunner,
    /** Held items (digests, quiet hours, caps) and the runner releasing them. */
    scheduling,
    /** Backfills on subscribe: the runner queueing them, and what the subscribe command hands it. */
    backfill: {
      runner: backfills,
      /** Keeps a subscribe's chosen items for the runner; answers how many the channel has not had. */
      async keep(token: string, destination: string, items: readonly FeedItem[]): Promise<number> {
        await backfillStash.keep(token, items);
        const had = await ledger.delivered(items.map((item) => ({ destination, itemKey: item.key })));
        return had.filter((already) => !already).length;
      },
      /** Only items from within this long are backfilled (DEDUPE_TTL_DAYS; see chooseBackfill). */
      withinMs: settings.dedupeTtlMs,
    },
    outbox,
    /** What each destination already received (where each message is). */
    ledger,
    /** What became of each delivery lately, per destination. */
    deliveryLog,
    /** How long the ledger and the delivery log remember a delivery (DEDUPE_TTL_DAYS). */
    rememberMs: settings.dedupeTtlMs,
    /** A link to a message posted on one of the platforms, where its adapter can make one. */
    messageLink(destination: Destination, reference: MessageReference): string | undefined {
      return adapters.get(destination.platform)?.messageLink?.(destination, reference);
    },
    dispatcher,
    /** The hand-off to delivery workers, when they deliver (see `workers`). */
    handOff,
    polling,
    leader,
    feeds,
    /** Feeds at least one active subscription on a running platform wants: the ones polled. */
    wantedFeeds,
    /** Seeds SUBSCRIPTIONS and starts competing for the poller lease. */
    async start(): Promise<void> {
      await subscriptions.seed(options.seeds ?? []);
      leader.start();
    },
    /** Stops polling, finishes deliveries in flight, releases the lease. */
    async stop(): Promise<void> {
      await leader.stop();
      await handOff?.close();
    },
    /** Upcoming live events as the live feed last listed them (from the store; no request). */
    async listedLiveEvents(): Promise<DirectoryLiveEvent[]> {
      return (await keyv.get<LiveFeedState>(directoryKeys(directoryId).feedState('live')))?.upcoming ?? [];
    },
    /** Polls every wanted feed once, now, regardless of cadence (tests, benchmarks). */
    async pollAllOnce(): Promise<PollSummary[]> {
      const wanted = await wantedFeeds();
      const summaries: PollSummary[] = [];
      for (const feed of feeds) if (wanted.has(feed.name)) summaries.push(await runFeed(feed));
      return summaries;
    },
  };
}

export type Engine = ReturnType<typeof createEngine>;
