import type { ItemExplanation } from '../accounting/index.js';
import type { StatusReport } from '../commands/index.js';
import type { DeliveryRecord } from '../delivery/index.js';
import type { FeedName } from '../feeds/feed-names.js';
import type { HeldSummary } from '../held-items/index.js';
import type {
  Clock,
  CommandHandler,
  DeliveryOutcome,
  KeyValueStore,
  Logger,
  Message,
  MessageFormat,
  WorkspaceAccess,
} from '../ports/index.js';
import type { ChannelHistory, Subscription, SubscriptionRepository } from '../subscriptions/index.js';
import type { SignInProvider } from './sign-in/sign-in-provider.js';

/** The delivery log's reading side: the panel's log page and its message links. */
export interface DeliveryLogReader {
  recent(destinationKey: string, limit?: number): Promise<DeliveryRecord[]>;
}

/** How each platform draws a message: the payload its adapter would send (Block Kit, embeds). */
export type MessageRenderers = Partial<Record<'slack' | 'discord', (message: Message) => Promise<unknown>>>;

/** One of the bot's webhooks as the panel lists it: its URL only masked (`shown`). */
export interface PanelWebhook {
  name: string;
  kind: string;
  platform: string;
  shown: string;
  /** The variable configuring it, or `store` when added from the CLI or the panel. */
  source: string;
  subscriptions: Subscription[];
}

/**
 * The bot's webhook destinations (issue 30), as `directory-bot webhook` manages them
 * (`openWebhookAdmin` in src/app). Problems are BotErrors in the command's words.
 */
export interface PanelWebhooks {
  list(): Promise<PanelWebhook[]>;
  add(input: { name: string; url?: string; secret?: string; routes: string[]; by: string }): Promise<{
    stored: boolean;
    subscriptions: Subscription[];
  }>;
  test(name: string): Promise<DeliveryOutcome>;
  remove(name: string): Promise<{ subscriptions: Subscription[] }>;
}

/** Everything the control panel reads and runs; the composition root (src/app) builds it. */
export interface PanelDeps {
  /** The `/directory` handler: every change in the panel is the command it stands for. */
  commands: CommandHandler;
  subscriptions: SubscriptionRepository;
  history: ChannelHistory;
  /** `/directory status`'s report: feeds' health, quotas, paused subscriptions. */
  status: () => Promise<StatusReport>;
  /**
   * Messages waiting to be posted: the outbox's on the polling instance and, with delivery
   * workers, their queues in Redis (any instance can count those); undefined where neither is
   * known here.
   */
  queueDepth: () => number | undefined | Promise<number | undefined>;
  /** A subscription in one line with its schedule's zone and next run, as `subscriptions` says it. */
  describe: (subscription: Subscription) => Promise<string>;
  /** Why a paused subscription is paused, in words. */
  describePause: (subscription: Subscription) => string;
  /**
   * The next message a subscription would post, in `format` (`previewSubscription`): at most one
   * directory lookup from the lookup reserve, cached briefly. Undefined when nothing recent matches.
   */
  preview: (
    feed: FeedName,
    filters: Subscription['filters'],
    format: MessageFormat,
  ) => Promise<Message | undefined>;
  renderers: MessageRenderers;
  /** Tells the channel about a change made in the panel, through the outbox like any message. */
  announce: (
    where: { platform: string; channelId: string; workspaceId?: string },
    message: Message,
  ) => Promise<void>;
  /** Each platform's answers about who may see and change what; the console has the sandbox's. */
  access: ReadonlyMap<string, WorkspaceAccess>;
  /** The delivery log (CONTRACTS.md §1), once the bot keeps one. */
  deliveryLog?: DeliveryLogReader;
  /** Items held by a channel's schedules, and when they go. */
  held?: (platform: string, channelId: string) => Promise<HeldSummary[]>;
  /** `/directory why` (CONTRACTS.md §2), once the bot answers it. */
  explain?: (query: { platform: string; channelId: string; item: string }) => Promise<ItemExplanation>;
  /** Webhook destinations, managed by operators only; undefined where the panel offers none. */
  webhooks?: PanelWebhooks;
  /** Platform user ids always allowed to change subscriptions (ADMIN_USER_IDS). */
  adminUserIds: readonly string[];
  /** `platform:userId` of the operators, who see every installation. */
  operatorIds: readonly string[];
  /** Sign in with Slack, with Discord: the configured ones. */
  providers: readonly SignInProvider[];
  /** The sandbox's local sign-in (no platform configured): the person at the terminal. */
  localSignIn: boolean;
  /** Sessions live here, so any web instance can read them. */
  sessions: KeyValueStore;
  /** Signs the session cookie; more than one while rotating (the first signs). */
  sessionSecrets: readonly string[];
  clock: Clock;
  logger: Logger;
}
