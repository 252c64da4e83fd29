import type { DeliveredLedger, DeliveryLog, OutboxEntry } from '../delivery/index.js';
import type { DirectoryClient } from '../directory/index.js';
import type { FeedHealth } from '../engine/index.js';
import type { Feed } from '../feeds/feed.js';
import type { FeedName } from '../feeds/feed-names.js';
import type { HeldItems } from '../held-items/index.js';
import type { Clock, Destination } from '../ports/index.js';
import type { ZoneOf } from '../schedule/index.js';
import type { Subscription } from '../subscriptions/index.js';

/** What became of an item for one subscription of a channel. */
export type Verdict =
  | 'delivered'
  | 'queued'
  | 'held'
  | 'filtered'
  | 'duplicate'
  | 'not_polled'
  | 'too_old'
  | 'failed'
  | 'paused'
  | 'not_this_feed'
  /** Nothing the bot keeps tells: older than it remembers, or it could not look the item up. */
  | 'unknown';

/** One line of `/directory why`: one subscription of the channel and what became of the item for it. */
export interface SubscriptionVerdict {
  subscriptionId: string;
  verdict: Verdict;
  /** The sentence `/directory why` shows for it (and the control panel). */
  text: string;
  /** The instant the sentence is about, epoch ms: when it was posted, when it goes, the next poll. */
  at?: number;
  /** A link to the message the sentence is about (the post, the digest, the earlier copy). */
  link?: string;
}

/** The answer to "why was (or was not) this item posted here?". */
export interface ItemExplanation {
  item?: { key: string; feed: FeedName; id: string; title: string; url?: string };
  /** Said above the lines (or instead of them): no such item, not a directory link, no subscriptions. */
  notice?: string;
  /**
   * What the notice is about, for a caller that answers differently (an error for a bad argument):
   * `not_an_item` (what was typed names no item), `not_found` (the directory has no such item: no
   * lines, or those the records still settle, as for an item removed upstream after it was posted),
   * `no_subscriptions` (the channel has none), `unchecked` (the item could not be looked up, so
   * some lines are `unknown`).
   */
  noticeCode?: 'not_an_item' | 'not_found' | 'no_subscriptions' | 'unchecked';
  /** One per subscription of the channel, in the order `/directory subscriptions` lists them. */
  lines: SubscriptionVerdict[];
}

/** Which channel asks about which item: a directory link, `comment 812`, `post launch-day`, or an id. */
export interface ExplainQuery {
  platform: string;
  channelId: string;
  item: string;
}

/**
 * What an explanation reads: only what the bot already keeps (subscriptions, the delivered
 * ledger, the delivery log, the outbox, held items, feed positions and health), plus at most one
 * directory request for the item itself.
 */
export interface ExplainDeps {
  clock: Clock;
  subscriptions: { forChannel(platform: string, channelId: string): Promise<Subscription[]> };
  ledger: Pick<DeliveredLedger, 'delivered' | 'reference'>;
  log: Pick<DeliveryLog, 'recent'>;
  /** What waits in the outbox for a destination, oldest first. */
  queued(destinationKey: string): Promise<readonly OutboxEntry[]>;
  held: Pick<HeldItems, 'read'>;
  /** A feed's saved position (its poll state). */
  feedState(feed: FeedName): Promise<unknown>;
  feeds: readonly Pick<Feed, 'name' | 'position'>[];
  /** Each feed's last and next poll. */
  health(): Promise<readonly FeedHealth[]>;
  /** The zone a subscription's times are told in (its `--tz`, its channel's, its workspace's, UTC). */
  zoneOf: ZoneOf;
  /** DEDUPE_TTL_DAYS: how long the ledger and the log remember a delivery. */
  dedupeTtlMs: number;
  /** Which links are the directory's (a link elsewhere names no item here). */
  directoryLinks: { readonly primaryHost: string; accepts(hostname: string): boolean };
  /** For the one lookup, from the interactive reserve. */
  client: DirectoryClient;
  /**
   * Asked before that lookup: 0 to go ahead, otherwise how long the person must wait (the
   * commands' per-person limit). Absent: always go ahead.
   */
  allowLookup?(): number;
  /** A link to a posted message whose log record has none (the adapter learnt its address since). */
  messageLink?(
    destination: Destination,
    reference: { messageId: string; threadId?: string; channelId?: string },
  ): string | undefined;
}
