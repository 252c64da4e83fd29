import type { ExplainDeps } from '../accounting/index.js';
import type {
  DirectoryClient,
  DirectoryConnection,
  DirectoryLiveEvent,
  QuotaClass,
} from '../directory/index.js';
import type { FeedHealth } from '../engine/index.js';
import type { FeedItem } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';
import type { Clock, LinkPreview, MentionSupport, Message } from '../ports/index.js';
import type {
  ChannelHistory,
  ChannelZoneRepository,
  ReminderRepository,
  Subscription,
  SubscriptionRepository,
  ZoneResolver,
} from '../subscriptions/index.js';
import type { DirectoryLinks } from './directory-links.js';

/** One directory quota class as `status` shows it. */
export interface QuotaStatus {
  limit: number;
  remaining: number;
  /** Epoch ms of the next reset; null when no period has started. */
  resetAt: number | null;
  /** A 429 pause is in force. */
  paused: boolean;
}

/** What `/directory status` reports; the composition root provides it. */
export interface StatusReport {
  /** Quota left, as the instance that polls sees it (its own counters when it is this one). */
  quotas: Readonly<Record<QuotaClass, QuotaStatus>>;
  /** Whether the directory answers and takes the token, as the polling instance last found. */
  connection: DirectoryConnection;
  /** Each feed's health as last saved by the instance that polls. */
  feeds: readonly FeedHealth[];
  /** Feeds some active subscription wants; the others are not polled, so their health is moot. */
  subscribedFeeds: ReadonlySet<FeedName>;
  /** Every paused subscription; `status` shows those of the asking channel. */
  pausedSubscriptions: readonly Subscription[];
  /** Whether the instance answering is the one polling the directory. */
  isPoller: boolean;
  /** On another instance: when the poller saved the quotas and connection shown (epoch ms). */
  savedAt?: number;
  /** With delivery workers (Redis, ADR 005): messages queued for them and those they gave up on. */
  deliveryWorkers?: { queued: number; dead: number };
}

/** What `why` reads beyond what every command has (the client, the clock, the directory's links). */
export type WhyDesk = Omit<ExplainDeps, 'client' | 'clock' | 'links' | 'allowance'>;

/** How a command ended, for metrics. */
export type CommandResult =
  | 'ok'
  | 'cached'
  | 'usage'
  | 'forbidden'
  | 'rate_limited'
  | 'not_found'
  | 'quota'
  | 'upstream_error'
  | 'error';

export interface CommandEvent {
  /** The command name, or `unknown` when the text named none. */
  command: string;
  platform: string;
  result: CommandResult;
}

/** How a link preview ended, for metrics: `found`, or the reason there is no card. */
export interface PreviewEvent {
  platform: string;
  result: 'found' | Extract<LinkPreview, { status: 'none' }>['reason'];
  /** Answered from the lookup cache: no directory request. */
  cached: boolean;
}

/** What `/directory remind` needs: where reminders are kept and what the live feed last listed. */
export interface ReminderDesk {
  repository: ReminderRepository;
  /** The directory the bot reads: a reminder is about one of its events. */
  directoryId: string;
  /** Upcoming events from the live feed's last listing in the store: no upstream request. */
  listedEvents(): Promise<readonly DirectoryLiveEvent[]>;
}

/** A subscription's latest digest or summary, every part numbered (what `/directory digest` shows). */
export interface LatestDigest {
  kind: 'digest' | 'quiet' | 'cap';
  /** The instant it was due: the digest slot, or the end of quiet hours or of the cap window. */
  before: number;
  parts: readonly Message[];
}

/** Where the latest digest of each subscription is kept (the held items' store; read-only here). */
export interface DigestDesk {
  latest(subscriptionId: string): Promise<LatestDigest | undefined>;
}

/**
 * Where `subscribe --backfill N` hands the items it chose to the poller, which queues them
 * (src/engine/backfill-runner.ts): the command fetched them for its preview already.
 */
export interface BackfillDesk {
  /** Only items from within this long of now are backfilled (DEDUPE_TTL_DAYS; see chooseBackfill). */
  withinMs: number;
  /** Keeps `items` for the request `token`; answers how many the channel `destination` has not had. */
  keep(token: string, destination: string, items: readonly FeedItem[]): Promise<number>;
}

/** Channel time zones (`/directory timezone`) and how a schedule's zone is found. */
export interface ZoneDesk {
  channelZones: ChannelZoneRepository;
  resolve: ZoneResolver['resolve'];
}

export interface CommandDependencies {
  client: DirectoryClient;
  subscriptions: SubscriptionRepository;
  clock: Clock;
  /** Platform user ids always allowed to change subscriptions (ADMIN_USER_IDS). */
  adminUserIds: readonly string[];
  status: () => Promise<StatusReport>;
  /** Reminder lead time live subscriptions get when they do not choose one. */
  defaultRemindMinutes: number;
  /** Which links name directory posts; a link to any other site is refused, not looked up. */
  directoryLinks: DirectoryLinks;
  /** Channel zones; absent where nothing is stored (schedules are then shown in their `--tz` or UTC). */
  zones?: ZoneDesk;
  /**
   * What `why` reads (the ledger, the delivery log, the outbox, held items, feed positions);
   * absent where nothing is stored (then `why` says so).
   */
  why?: WhyDesk;
  /** Personal live-event reminders; absent where nothing is stored (then `remind` says so). */
  reminders?: ReminderDesk;
  /**
   * Whom `platform` can ping (`subscribe --mention`), as its adapter says; absent, or undefined for
   * a platform: it pings nobody and `--mention` is refused there.
   */
  mentionSupport?: (platform: string) => MentionSupport | undefined;
  /** Subscriptions' latest digests (`/directory digest`); absent where nothing is stored. */
  digests?: DigestDesk;
  /** Backfill on subscribe; absent where nothing polls (the poller then fetches the items itself). */
  backfill?: BackfillDesk;
  /**
   * Where every change a `manage` command makes is recorded (who, what, when): the channel's
   * history the control panel shows. Absent where nothing is stored (the CLI's lookups).
   */
  history?: ChannelHistory;
  /** Identical lookups within this many ms are answered from memory. Default 60 s. */
  cacheTtlMs?: number;
  /** Lookups that go upstream per person per minute. Default 10. */
  userRateLimit?: { perMinute: number };
  onEvent?: (event: CommandEvent) => void;
  /** Every link preview (`CommandHandler.preview`), for metrics. */
  onPreview?: (event: PreviewEvent) => void;
}
