import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CommandHandler } from './commands.js';
import type { HomeService } from './home.js';
import type { Logger } from './logger.js';
import type { MentionSupport } from './mentions.js';
import type { Message } from './message.js';
import type { ThreadOpening, ThreadTarget } from './threads.js';
import type { WorkspaceAccess } from './workspace-access.js';

/** Where a message goes: a channel id in the platform's own format (Slack `C…`, Discord snowflake). */
export interface Destination {
  platform: string;
  channelId: string;
  /** Slack team id for multi-workspace installs; Discord guild id when known. */
  workspaceId?: string;
  /**
   * A direct message to one person: `channelId` is then the person's platform user id, and the
   * adapter opens (or reuses) the DM conversation before posting (see `ChatAdapter.deliverDirect`).
   */
  direct?: true;
  /** A reply: post it under this parent (see threads.ts); absent = a top-level message. */
  thread?: ThreadTarget;
}

/**
 * A delivery's outcome as a value: failure is normal here, and one bad channel must never
 * abort the cycle.
 * - delivered: the platform confirmed the post.
 * - rejected: permanent (channel gone, no access, bot removed — or, with scope `message`, this
 *   one message is unpostable); retrying will not help.
 * - failed: transient (429, 5xx, network); retry after `retryAfterMs` when given.
 */
export type DeliveryOutcome =
  | {
      status: 'delivered';
      platformMessageId?: string;
      bucket?: BucketState;
      /** The message is a thread of its own (a Discord forum post): replies go straight in. */
      threadId?: string;
      /**
       * The channel the message itself lives in, when not the destination's (Discord: a reply's
       * thread, a forum post's own thread): edits go there.
       */
      channelId?: string;
    }
  | {
      status: 'rejected';
      code: string;
      reason: string;
      /**
       * What the refusal is about. `destination` (the default): the channel is gone or closed
       * to the bot, so its subscriptions pause. `message`: this one message can never be
       * posted (invalid blocks, too long, a 400) — it is dropped and the channel carries on.
       * `thread`: the thread in `destination.thread` will not take it (archived, no permission to
       * post in threads); the core posts it top-level with a note and tells the subscription why.
       */
      scope?: 'destination' | 'message' | 'thread';
    }
  | {
      status: 'failed';
      code: string;
      reason: string;
      retryAfterMs?: number;
      /** The wait is for every destination of the platform (Discord's global limit), not this one. */
      global?: boolean;
    };

/**
 * A destination's rate-limit bucket as the platform stated it with the answer (Discord's
 * `X-RateLimit-Remaining` and `-Reset-After`): with nothing remaining the outbox sends it nothing
 * until the reset, so it never posts into a bucket it was told is empty.
 */
export interface BucketState {
  remaining: number;
  /** From when the answer was received, already including any safety margin the adapter adds. */
  resetAfterMs: number;
}

export interface DeliveryOptions {
  /**
   * Stable per (destination, item, event kind). Adapters pass it to the platform where it
   * supports idempotency (Discord `nonce` + `enforce_nonce`) so a retried post is not duplicated.
   */
  idempotencyKey: string;
  /** The item the message is about, for a destination that is sent the record itself (`wantsRecords`). */
  item?: DeliveredItem;
}

/**
 * The item behind a delivery: its key (`comments:new:812`, see the code map's glossary) and, for
 * an adapter that asked for records (`ChatAdapter.wantsRecords`), the directory record as the
 * core parsed it. A digest or a reminder has no single record.
 */
export interface DeliveredItem {
  key: string;
  record?: unknown;
}

/** The code of a delete the platform refused (permission): see `ChatAdapter.delete`. */
export const DELETE_REFUSED = 'delete_refused';

/** A raw Node request handler mounted on the bot's own HTTP server under a path prefix. */
export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface HttpMount {
  /** Route every request whose path starts with `prefix` (e.g. `/slack/`) to `handler`. */
  mount(prefix: string, handler: HttpHandler): void;
}

/** A Slack workspace (team id, or enterprise id for an org-wide install) or a Discord server (guild id). */
export interface RemovedWorkspace {
  platform: 'slack' | 'discord';
  id: string;
}

/**
 * Why a workspace is gone: Slack's `app_uninstalled` or `tokens_revoked` (the bot token),
 * Discord's `guildDelete` for a server that removed the bot (not one that is merely unavailable),
 * or `missing_access`: every subscribed channel of the workspace refused the bot and the
 * platform, asked, confirmed the bot is no longer in it (see `ChatAdapter.removalCheck`).
 */
export type WorkspaceRemovalReason =
  | 'app_uninstalled'
  | 'tokens_revoked'
  | 'guild_removed'
  | 'missing_access';

/** What the platform says when asked whether the bot is still in a workspace. */
export type WorkspaceMembership = 'member' | 'removed' | 'unknown';

/**
 * How the core learns of a removal the platform sends no event for (Discord without the
 * gateway): once every subscribed channel of a workspace has been refused with one of
 * `lostChannelCodes` (and its subscriptions paused for it), the core asks `membership` and
 * forgets the workspace only on `removed`.
 */
export interface RemovalCheck {
  /** Rejection codes that, on every subscribed channel of a workspace at once, suggest removal. */
  lostChannelCodes: readonly string[];
  /** Asks the platform; `removed` only when it answers that the bot is not in the workspace. */
  membership(workspaceId: string): Promise<WorkspaceMembership>;
}

export interface AdapterContext {
  http: HttpMount;
  commands: CommandHandler;
  logger: Logger;
  /**
   * The platform says the bot was uninstalled from (or removed by) a workspace: the core
   * deletes everything it holds about it. Resolves once that is done; never rejects (failures
   * are logged). Absent where nothing is stored (the CLI's lookups, some tests).
   */
  workspaceRemoved?(workspace: RemovedWorkspace, reason: WorkspaceRemovalReason): Promise<void>;
  /** The home surface (Slack's App Home), where the platform has one. Absent in the CLI and some tests. */
  home?: HomeService;
}

export interface AdapterHealth {
  ready: boolean;
  /** Why not ready, for /readyz. */
  reason?: string;
}

/** A message the bot posted: its platform id (Slack `ts`, Discord message id), and thread if any. */
export interface MessageReference {
  messageId: string;
  threadId?: string;
  /** The channel the message lives in when not the destination's (a Discord thread). */
  channelId?: string;
}

/** A token bucket: `ratePerSecond` sustained, up to `burst` at once. */
export interface RateLimit {
  ratePerSecond: number;
  burst: number;
}

/**
 * At most `limit` sends in any `windowMs` (a sliding window): safe under a platform that counts
 * in fixed windows (Discord's 50 per second) whichever moment its window starts, and still lets
 * the whole `limit` go at once.
 */
export interface WindowLimit {
  limit: number;
  windowMs: number;
}

/**
 * The platform's posting limits that the core's outbox paces to, so messages are spread
 * before the platform answers 429, not after.
 */
export interface DeliveryPacing {
  /**
   * Per destination, when the platform does not say. Absent: the adapter reports each
   * destination's bucket with every answer (`bucket` on a delivered outcome) and that is the pace.
   * Several limits (a Teams webhook's 4 a second, 60 in 30 seconds and 1,800 an hour) all hold.
   */
  perDestination?: RateLimit | WindowLimit | readonly (RateLimit | WindowLimit)[];
  /**
   * Per workspace (a Slack team: its limit is per app per workspace), keyed by the destination's
   * `workspaceId`; destinations without one (a single-workspace install) share one workspace.
   */
  perWorkspace?: RateLimit;
  /** Across everything the adapter serves with one credential (Discord's global limit per bot). */
  global?: RateLimit | WindowLimit;
}

/** The port every chat platform implements. Adapters translate; the core decides. */
export interface ChatAdapter {
  readonly platform: string;
  readonly pacing: DeliveryPacing;
  /**
   * Mount the adapter's HTTP routes and bind `/directory`, at once and without calling the
   * platform. The composition root calls it for every adapter before the port is bound: a
   * platform routes requests as soon as the port accepts connections, so no route of ours may
   * answer 404 while an adapter is still connecting. Optional for adapters with no routes.
   */
  attach?(context: AdapterContext): void;
  /**
   * Connect (check the token, open the gateway or socket), attaching first when `attach` was not
   * called. Resolves when ready to deliver. Rejects with a `config_invalid` BotError whose message
   * starts with the variable's name when the platform refuses the configured credentials.
   */
  start(context: AdapterContext): Promise<void>;
  deliver(destination: Destination, message: Message, options: DeliveryOptions): Promise<DeliveryOutcome>;
  /**
   * Sends a direct message to the person `destination.channelId` names (`destination.direct`).
   * Optional: a platform without DMs leaves it out and such messages are dropped. A person who
   * refuses DMs is `rejected` with scope `message`: never retried, and no channel is paused.
   */
  deliverDirect?(
    destination: Destination,
    message: Message,
    options: DeliveryOptions,
  ): Promise<DeliveryOutcome>;
  /**
   * Starts (or finds) the thread under a posted message, for a platform where a thread is a
   * thing of its own (Discord). Absent: replies name the parent and need no thread first (Slack
   * `thread_ts`, the console). Must be idempotent: a second call for one message never starts a
   * second thread. `name`: what the thread is about (the post's name), where threads have names.
   */
  openThread?(destination: Destination, parentMessageId: string, name: string): Promise<ThreadOpening>;
  /**
   * Replies posted under a message live in a thread a reader opens (Slack, Discord), apart from
   * the channel's stream. A digest's parts after its first go there, so a digest is one message
   * in the channel (issue 29); without it (the console prints replies in its one stream) they are
   * counted on the first part instead, with where to see them.
   */
  readonly repliesInThreads?: boolean;
  /**
   * Replaces a message the bot posted (`reference.messageId`, in `reference.threadId` when it
   * sits in a thread) with `message`. Optional: without it edits are dropped. A message that is
   * gone or can no longer be edited is `rejected` with scope `message`; a channel the bot lost is
   * `rejected` as for `deliver`.
   */
  edit?(
    destination: Destination,
    reference: MessageReference,
    message: Message,
    item?: DeliveredItem,
  ): Promise<DeliveryOutcome>;
  /**
   * Deletes a message the bot posted (only ever its own: the core passes references from its
   * ledger). Optional: without it a subscription's `--on-removal delete` marks instead. A message
   * already gone is `delivered` (nothing is left to do); a refusal for permission is `rejected`
   * with code `DELETE_REFUSED` and scope `message` (the core then marks the message and says why);
   * a channel the bot lost is `rejected` as for `deliver`.
   */
  delete?(destination: Destination, reference: MessageReference): Promise<DeliveryOutcome>;
  health(): AdapterHealth;
  /**
   * A link to a message the bot posted, for people to open it (`/directory why`, the control
   * panel), or undefined where the platform has none or the adapter cannot tell (a workspace
   * whose address it does not know). Pure: no request is made.
   */
  messageLink?(destination: Destination, reference: MessageReference): string | undefined;
  /**
   * The IANA zone a workspace lives in, where the platform says (Slack: the `tz` of the person who
   * installed the app); undefined where it does not (Discord tells bots no server zone). The
   * default of the workspace's schedules after a subscription's and a channel's own zone.
   * Cached by the adapter; never rejects.
   */
  workspaceTimeZone?(workspaceId: string | undefined): Promise<string | undefined>;
  /** Present where a removal can go unannounced: see `RemovalCheck`. */
  readonly removalCheck?: RemovalCheck;
  /**
   * Who this platform can ping on a match (`--mention`). Absent: nobody, and a subscription asking
   * for mentions here is refused when it is configured.
   */
  readonly mentions?: MentionSupport;
  /**
   * Deliveries to this platform carry the item's directory record (`DeliveryOptions.item`), which
   * the outbox then keeps with each of its entries: a generic JSON webhook sends it on. Absent:
   * only the composed message is kept.
   */
  readonly wantsRecords?: boolean;
  /** Who may see and change what in the control panel (see `WorkspaceAccess`); absent: operators only. */
  readonly access?: WorkspaceAccess;
  /** Stop taking work and close connections. */
  stop(): Promise<void>;
}
