import type { DeliveryRecord, OutboxEntry, PostedReference } from '../delivery/index.js';
import type { FeedPosition } from '../feeds/feed.js';
import type { FeedItem } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';
import { type HeldState, type HoldReason, releaseAt } from '../held-items/index.js';
import type { Destination } from '../ports/index.js';
import { filterMiss, type Subscription, USER_PAUSE_CODE } from '../subscriptions/index.js';
import type { SubscriptionVerdict } from './item-explanation.js';
import { ITEM_NOUNS } from './item-reference.js';
import { when } from './when-text.js';

/** What the bot keeps about one item in one channel, read once for all its subscriptions. */
export interface ChannelFacts {
  key: string;
  feed: FeedName;
  destination: Destination;
  now: number;
  /** The delivered ledger says the channel received it; `reference`: where (when the platform said). */
  delivered: boolean;
  reference?: PostedReference | undefined;
  /** The channel's delivery log, newest first. */
  log: readonly DeliveryRecord[];
  queue: readonly OutboxEntry[];
  held: ReadonlyMap<string, HeldState>;
  /** The zone each subscription's times are told in. */
  zones: ReadonlyMap<string, string>;
  /** The channel's subscriptions, in list order: the first that takes an item is the one it goes out for. */
  subscriptions: readonly Subscription[];
  /** A link to a posted message whose record has none. */
  messageLink?: (reference: PostedReference) => string | undefined;
}

/** What a verdict about an item no record settles needs: the item itself, and where its feed stands. */
export interface ItemFacts {
  /** The item as looked up; undefined with `missing` saying why there is none. */
  item?: FeedItem | undefined;
  missing?: string;
  position?: FeedPosition;
  nextPollAt?: number | undefined;
  dedupeTtlMs: number;
}

const PLATFORM_NAMES: Readonly<Record<string, string>> = { slack: 'Slack', discord: 'Discord' };
const platformName = (platform: string) => PLATFORM_NAMES[platform] ?? platform;
const linked = (text: string, link: string | undefined) =>
  link === undefined ? `${text}.` : `${text}: ${link}`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const reasonOf = (r: Pick<DeliveryRecord, 'code' | 'reason'>) =>
  [r.reason, r.code === undefined || r.reason?.includes(r.code) ? undefined : `(${r.code})`]
    .filter((part) => part !== undefined && part !== '')
    .join(' ');

/** The kinds of message a schedule posts for what it held, as their item keys begin. */
const SUMMARY = /^(digest|quiet|cap):([^:]+):(.+):(\d+)$/;
const SUMMARY_NAMES: Readonly<Record<HoldReason, string>> = {
  digest: 'digest',
  quiet: 'summary of what quiet hours held',
  cap: 'summary of what the volume cap held',
};

/**
 * What the records settle for one subscription before the item is known:
 * - a verdict: posted (or queued) for it, held by its schedule, failed, paused, another feed's;
 * - `released`: its schedule let the item go in a digest or summary, and which one is told by
 *   when the item appeared (`releasedVerdict`);
 * - `unlessOwn`: the channel got it for another subscription — a duplicate for this one, unless
 *   the item says this one would not have taken it anyway (`ownVerdict`: filtered, too old);
 * - undefined: only the item can tell (filters, age, polling: `itemVerdict`).
 */
export type Settled = SubscriptionVerdict | { unlessOwn: SubscriptionVerdict } | 'released' | undefined;

const hasFilters = (s: Subscription) =>
  Object.entries(s.filters).some(([name, value]) => name !== 'remindMinutes' && value !== undefined);

export function settledVerdict(s: Subscription, facts: ChannelFacts): Settled {
  const mine = (ids: readonly string[]) => ids.includes(s.id);
  const named = facts.log.some((r) => r.itemKey === facts.key && mine(r.subscriptionIds));
  if (
    s.feed !== facts.feed &&
    !named &&
    !facts.queue.some((e) => e.itemKey === facts.key && mine(e.subscriptionIds))
  )
    return {
      subscriptionId: s.id,
      verdict: 'not_this_feed',
      text: `Follows ${s.feed}; this is a ${ITEM_NOUNS[facts.feed]}.`,
    };
  const zone = facts.zones.get(s.id) ?? 'UTC';
  const at = (ms: number) => when(ms, zone, facts.now);
  const entry = facts.queue.find((e) => e.itemKey === facts.key);
  const other = facts.delivered
    ? deliveredVerdict(s, facts, at)
    : entry === undefined || mine(entry.subscriptionIds)
      ? undefined
      : ({
          subscriptionId: s.id,
          verdict: 'duplicate',
          text: `A duplicate: queued here for subscription ${entry.subscriptionIds.join(', ')}, and a channel gets each item once.`,
        } satisfies SubscriptionVerdict);
  if (other?.verdict === 'duplicate') {
    // Routing gives an item to one subscription per channel: this one may never have wanted it.
    if (s.paused !== undefined) return pausedVerdict(s, at);
    return hasFilters(s) ? { unlessOwn: other } : other;
  }
  if (other !== undefined) return other;
  if (entry !== undefined) return queuedVerdict(s, facts, entry, at);

  const state = facts.held.get(s.id);
  const held = state?.items.find((item) => item.itemKey === facts.key);
  if (state !== undefined && held !== undefined) {
    const goes = releaseAt(held.reason, s.schedule, state, zone, facts.now);
    const what =
      held.reason === 'digest'
        ? `Held for the digest${s.schedule?.top === undefined ? '' : ` (it lists the top ${s.schedule.top} by votes)`}`
        : held.reason === 'quiet'
          ? 'Held through quiet hours'
          : `Held over the volume cap (${capText(s)})`;
    return {
      subscriptionId: s.id,
      verdict: 'held',
      text:
        goes === undefined
          ? `${what}: it goes with the next release.`
          : `${what}: it goes ${at(goes)}${held.reason === 'cap' ? ', in one summary' : ''}.`,
      ...(goes === undefined ? {} : { at: goes }),
    };
  }
  if (state?.released?.includes(facts.key)) return 'released';

  const failure = facts.log.find(
    (r) => r.itemKey === facts.key && ['abandoned', 'dropped', 'rejected', 'failed'].includes(r.outcome),
  );
  if (failure !== undefined) {
    const platform = platformName(facts.destination.platform);
    const text =
      failure.outcome === 'abandoned'
        ? `Failed: given up ${at(failure.at)}; ${platform} kept answering ${reasonOf(failure)}.`
        : failure.outcome === 'dropped'
          ? `Failed: dropped ${at(failure.at)}; ${platform} refused it: ${reasonOf(failure)}.`
          : `Failed: ${platform} refused it ${at(failure.at)}: ${reasonOf(failure)}.`;
    return { subscriptionId: s.id, verdict: 'failed', text, at: failure.at };
  }

  return pausedVerdict(s, at);
}

function pausedVerdict(s: Subscription, at: (ms: number) => string): SubscriptionVerdict | undefined {
  if (s.paused === undefined) return undefined;
  const why =
    s.paused.code === USER_PAUSE_CODE
      ? 'a channel manager paused it'
      : `${platformName(s.platform)} refused the channel: ${reasonOf(s.paused)}`;
  return {
    subscriptionId: s.id,
    verdict: 'paused',
    text: `Paused since ${at(s.paused.at)}: ${why}. Nothing is posted for it until it is resumed (resume ${s.id}).`,
    at: s.paused.at,
  };
}

/**
 * Whether the subscription would have taken the item at all: filtered out (which filter, what the
 * item had), or too old (it appeared before the subscription). Undefined when it would have.
 */
export function ownVerdict(
  s: Subscription,
  facts: ChannelFacts,
  item: FeedItem,
): SubscriptionVerdict | undefined {
  const at = (ms: number) => when(ms, facts.zones.get(s.id) ?? 'UTC', facts.now);
  const miss = filterMiss(item, s.filters);
  if (miss !== undefined)
    return {
      subscriptionId: s.id,
      verdict: 'filtered',
      text: `Filtered out by ${miss.filter}: ${miss.had}.`,
    };
  const appeared = appearedAt(item);
  if (appeared !== undefined && appeared < s.createdAt)
    return {
      subscriptionId: s.id,
      verdict: 'too_old',
      text: `Too old: it appeared ${at(appeared)}, before this subscription was made at ${at(s.createdAt)}; a subscription posts only what appears after it.`,
      at: appeared,
    };
  return undefined;
}

/** What the item itself says for a subscription nothing settled: its filters, its age, its feed's position. */
export function itemVerdict(s: Subscription, facts: ChannelFacts, known: ItemFacts): SubscriptionVerdict {
  const zone = facts.zones.get(s.id) ?? 'UTC';
  const at = (ms: number) => when(ms, zone, facts.now);
  const noun = ITEM_NOUNS[facts.feed];
  const { item } = known;
  if (item === undefined)
    return {
      subscriptionId: s.id,
      verdict: 'unknown',
      text: `Not posted, queued or held here; ${known.missing ?? 'the item could not be looked up'}, so its filters and age were not checked.`,
    };
  const own = ownVerdict(s, facts, item);
  if (own?.verdict === 'filtered') return own;
  const feedName = `The ${facts.feed} feed`;
  switch (known.position) {
    case 'never':
      return {
        subscriptionId: s.id,
        verdict: 'filtered',
        text: `${feedName} posts collections when they are featured; this one is not featured.`,
      };
    case 'unstarted':
    case 'ahead': {
      const next = known.nextPollAt;
      const first =
        known.position === 'unstarted'
          ? `${feedName} has not polled yet: its first poll records what exists then and posts only what comes after`
          : `Not polled yet: ${feedName.toLowerCase()} has not reached it`;
      return {
        subscriptionId: s.id,
        verdict: 'not_polled',
        text:
          next === undefined
            ? `${first}; no poll is scheduled on this instance.`
            : `${first}; its next poll is ${at(next)}.`,
        ...(next === undefined ? {} : { at: next }),
      };
    }
    default: {
      // Polled already: one from before the subscription was passed over for it.
      if (own !== undefined) return own;
      const appeared = appearedAt(item);
      if (appeared !== undefined && appeared < facts.now - known.dedupeTtlMs)
        return {
          subscriptionId: s.id,
          verdict: 'unknown',
          text: `It appeared ${at(appeared)}: longer ago than the bot remembers what it posted (${Math.round(known.dedupeTtlMs / 86_400_000)} days).`,
        };
      return {
        subscriptionId: s.id,
        verdict: 'unknown',
        text: `${feedName} has polled past this ${noun}, but nothing here records it: it may have come while this subscription was paused, or its record has left the delivery log.`,
      };
    }
  }
}

function deliveredVerdict(
  s: Subscription,
  facts: ChannelFacts,
  at: (ms: number) => string,
): SubscriptionVerdict {
  const records = facts.log.filter((r) => r.itemKey === facts.key);
  const posted = records.find((r) => r.outcome === 'delivered');
  const owner =
    posted?.subscriptionIds ??
    facts.queue.find((e) => e.itemKey === facts.key)?.subscriptionIds ??
    // No record names it: the first of the feed's subscriptions here, as routing picks.
    facts.subscriptions
      .filter((other) => other.feed === facts.feed)
      .slice(0, 1)
      .map((other) => other.id);
  const postedAt = facts.reference?.postedAt ?? posted?.at;
  const link =
    records.find((r) => r.link !== undefined)?.link ??
    (facts.reference === undefined ? undefined : facts.messageLink?.(facts.reference));
  const stamp = postedAt === undefined ? '' : ` ${at(postedAt)}`;
  if (!owner.includes(s.id))
    return {
      subscriptionId: s.id,
      verdict: 'duplicate',
      text: linked(
        `A duplicate: posted here${stamp} for subscription ${owner.join(', ') || 'no longer here'}, and a channel gets each item once`,
        link,
      ),
      ...(postedAt === undefined ? {} : { at: postedAt }),
      ...(link === undefined ? {} : { link }),
    };
  const deleted = records[0]?.outcome === 'deleted';
  const text = deleted
    ? `Delivered${stamp}; its message was deleted since, when the item was removed upstream.`
    : linked(`Delivered${stamp}`, link);
  return {
    subscriptionId: s.id,
    verdict: 'delivered',
    text,
    ...(postedAt === undefined ? {} : { at: postedAt }),
    ...(link === undefined || deleted ? {} : { link }),
  };
}

function queuedVerdict(
  s: Subscription,
  facts: ChannelFacts,
  entry: OutboxEntry,
  at: (ms: number) => string,
): SubscriptionVerdict {
  const platform = platformName(facts.destination.platform);
  const failure = facts.log.find((r) => r.itemKey === facts.key && r.outcome === 'failed');
  const waiting = entry.notBefore > facts.now;
  let text: string;
  if (entry.attempts > 0 && waiting) {
    const last = failure === undefined ? '' : `: ${reasonOf(failure)}`;
    text = `Queued: retrying ${at(entry.notBefore)} after ${plural(entry.attempts, 'failed attempt')}${last}.`;
  } else if (waiting) {
    text = `Queued: waiting until ${at(entry.notBefore)}, as ${platform} asked${failure === undefined ? '' : ` (${reasonOf(failure)})`}.`;
  } else {
    const ahead = facts.queue.filter((e) => e.edit === undefined).indexOf(entry);
    text =
      ahead > 0
        ? `Queued: ${plural(ahead, 'message')} ahead of it here; the channel is paced to ${platform}'s limits.`
        : `Queued: next to go here, as soon as ${platform}'s limits allow.`;
  }
  return {
    subscriptionId: s.id,
    verdict: 'queued',
    text,
    ...(waiting ? { at: entry.notBefore } : {}),
  };
}

/**
 * An item the schedule released in a digest or summary: the first of the subscription's that
 * the log shows posted after the item appeared (without the item, the newest).
 */
export function releasedVerdict(
  s: Subscription,
  facts: ChannelFacts,
  item: FeedItem | undefined,
): SubscriptionVerdict {
  const at = (ms: number) => when(ms, facts.zones.get(s.id) ?? 'UTC', facts.now);
  const appeared = item === undefined ? undefined : appearedAt(item);
  const summaries = facts.log
    .filter((r) => r.outcome === 'delivered')
    .map((r) => ({ record: r, match: SUMMARY.exec(r.itemKey) }))
    .filter(({ match }) => match !== null && match[2] === s.id && match[4] === '1');
  // Newest first: the oldest posted after the item appeared is the one that took it.
  const summary =
    appeared === undefined ? summaries[0] : summaries.filter(({ record }) => record.at >= appeared).at(-1);
  if (summary === undefined)
    return {
      subscriptionId: s.id,
      verdict: 'delivered',
      text: "Went out with this subscription's digest or summary; that message has left the delivery log.",
    };
  const kind = summary.match![1] as HoldReason;
  const top =
    kind === 'digest' && s.schedule?.top !== undefined
      ? ` (it lists the top ${s.schedule.top} by votes)`
      : '';
  return {
    subscriptionId: s.id,
    verdict: 'delivered',
    text: linked(
      `Went out in the ${SUMMARY_NAMES[kind]} posted ${at(summary.record.at)}${top}`,
      summary.record.link,
    ),
    at: summary.record.at,
    ...(summary.record.link === undefined ? {} : { link: summary.record.link }),
  };
}

function capText(s: Subscription): string {
  const parts = [
    s.schedule?.maxPerHour === undefined ? undefined : `${s.schedule.maxPerHour} an hour`,
    s.schedule?.maxPerDay === undefined ? undefined : `${s.schedule.maxPerDay} a day`,
  ].filter((part) => part !== undefined);
  return parts.join(', ') || 'its limit';
}

/** When the item appeared in its feed's sense: posted, commented, featured; undefined for live events. */
function appearedAt(item: FeedItem): number | undefined {
  const { record } = item;
  const iso =
    record.type === 'post'
      ? record.post.createdAt
      : record.type === 'comment'
        ? record.comment.createdAt
        : record.type === 'collection'
          ? record.collection.featuredAt
          : record.type === 'notification'
            ? record.notification.createdAt
            : undefined;
  const at = iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isNaN(at) ? undefined : at;
}
