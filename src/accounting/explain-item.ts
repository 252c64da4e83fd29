import type { DeliveredLedger, DeliveryLog, DeliveryRecord, Outbox, OutboxEntry } from '../delivery/index.js';
import type { FeedItem, FeedRecord } from '../feeds/feed-item.js';
import { itemKey } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';
import { positionOf, seenIn } from '../feeds/feed-position.js';
import { makeFeedItem, recordId } from '../feeds/make-item.js';
import { type HeldItems, type HeldState, heldUntil } from '../held-items/index.js';
import type { Clock, Destination, MessageReference } from '../ports/index.js';
import type { ZoneOf } from '../schedule/index.js';
import {
  destinationKey,
  type Subscription,
  type SubscriptionRepository,
  unmatchedFilter,
} from '../subscriptions/index.js';
import { type ItemLookupDeps, type OneLookup, oneLookup } from './item-lookup.js';
import { type DirectoryHosts, type ItemRef, parseItemRef } from './item-ref.js';
import { type Moment, sentences } from './sentences.js';

/** What became of one item in one channel, per subscription: what `/directory why` and the panel show. */
export interface ItemExplanation {
  /** The item, once known (from the bot's records or the directory). */
  item?: { key: string; feed: FeedName; id: string; title: string; url?: string };
  /** Something about the question as a whole: no such item, not a directory link, nothing followed here. */
  notice?: string;
  /** One per subscription of the channel, in the channel's order. */
  lines: SubscriptionVerdict[];
}

/**
 * - delivered: posted here for this subscription (alone, or in its digest or summary)
 * - queued: waiting in the outbox (pacing, a retry, a rate limit)
 * - held: kept back by the schedule (digest, quiet hours, cap) until a time
 * - filtered: a filter of the subscription keeps it out (or a collection not featured)
 * - duplicate: posted (or queued) here through another subscription
 * - not_polled: its feed has not reached it yet
 * - too_old: from before the subscription, or older than the bot remembers deliveries
 * - failed: the platform refused it, the channel, or every retry failed
 * - paused: the subscription is paused
 * - not_this_feed: the subscription follows another feed
 * - no_record: found and matching, but the bot holds no record of it here (an extension of the
 *   agreed list: nothing else says this honestly)
 */
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
  | 'no_record';

export interface SubscriptionVerdict {
  subscriptionId: string;
  verdict: Verdict;
  /** The sentence `/directory why` shows for it (the link apart: see `link`). */
  text: string;
  /** When it happened or will (posted, next try, released, next poll). */
  at?: number;
  /** The posted message (for delivered and duplicate). */
  link?: string;
}

/** A feed's polling, as the poller last reported it. */
export interface FeedPolling {
  feed: FeedName;
  intervalMs: number;
  nextPollAt?: number;
}

/** What `explainItem` reads: only what the bot already keeps, plus at most one directory lookup. */
export interface ExplainDeps extends ItemLookupDeps {
  clock: Clock;
  /** Which links are the directory's. */
  links: DirectoryHosts;
  subscriptions: Pick<SubscriptionRepository, 'forChannel'>;
  ledger: Pick<DeliveredLedger, 'reference' | 'delivered'>;
  log: Pick<DeliveryLog, 'recent'>;
  outbox: Pick<Outbox, 'stored'>;
  held: Pick<HeldItems, 'read'>;
  /** A feed's saved position (undefined: never polled). */
  feedState(feed: FeedName): Promise<unknown>;
  feedPolling(): Promise<readonly FeedPolling[]>;
  /** The zone a subscription's times are written in (its schedule's zone). */
  zoneOf: ZoneOf;
  /** How long the ledger and the delivery log remember a delivery (DEDUPE_TTL_DAYS). */
  rememberMs: number;
  /** A link to a posted message the log has none for (posted before the log kept one). */
  messageLink?(destination: Destination, reference: MessageReference): string | undefined;
}

/** The question: an item (a directory link or an id, as typed) in one channel. */
export interface ExplainQuery {
  platform: string;
  channelId: string;
  item: string;
}

/** Releases' item keys: `digest:<subscription>:<slot>:<part>` (src/held-items/release-entries.ts). */
const RELEASE_KEY = /^(digest|quiet|cap):([^:]+):/;

/**
 * Why an item was (or was not) posted in a channel, subscription by subscription: from the
 * delivered ledger, the delivery log, the outbox, the held items and the feed positions, and the
 * directory's record of the item only when those do not settle it (one lookup at most, from the
 * lookup reserve, within the asker's allowance).
 */
export async function explainItem(query: ExplainQuery, deps: ExplainDeps): Promise<ItemExplanation> {
  const parsed = parseItemRef(query.item, deps.links);
  if ('notice' in parsed) return { notice: parsed.notice, lines: [] };
  const { ref } = parsed;
  const subscriptions = await deps.subscriptions.forChannel(query.platform, query.channelId);
  if (subscriptions.length === 0)
    return {
      notice: 'This channel follows nothing, so nothing is posted here: `subscribe` adds a feed.',
      lines: [],
    };
  const lookup = oneLookup(ref, deps);
  let id = 'id' in ref ? ref.id : undefined;
  if (id === undefined) {
    const found = await lookup.get();
    if ('notAsked' in found) return { notice: `Could not look the item up: ${found.notAsked}.`, lines: [] };
    if ('missing' in found) return { notice: missingNotice(ref), lines: [] };
    id = recordId(found.record);
  }
  const facts = await gather(query, subscriptions, itemKey(ref.feed, 'new', id), deps);
  const lines: SubscriptionVerdict[] = [];
  for (const subscription of subscriptions)
    lines.push(await verdictFor(subscription, ref, facts, lookup, deps));
  // Never asked for the title alone: only when the id or a line needed the item.
  const looked = await lookup.asked();
  const record = looked && 'record' in looked ? looked.record : undefined;
  return {
    item: describeItem(ref.feed, id, facts, record),
    ...(looked && 'missing' in looked ? { notice: missingNotice(ref) } : {}),
    lines,
  };
}

function missingNotice(ref: ItemRef): string {
  return `The directory has no such ${ref.feed === 'live' ? 'live event' : ref.feed.replace(/s$/, '')} now: it was removed, or never there.`;
}

/** What the bot keeps about the item in this channel, read once for every subscription. */
interface Facts {
  key: string;
  destination: Destination;
  now: number;
  posted: boolean;
  postedAt?: number;
  reference?: MessageReference;
  /** The log's records of the channel, newest first. */
  records: DeliveryRecord[];
  /** The item's own records, newest first. */
  itemRecords: DeliveryRecord[];
  /** The item's post in the log, if it has one. */
  postRecord?: DeliveryRecord;
  /** The subscriptions it was posted here for; undefined when it was not posted here. */
  postedFor?: string[];
  queue: readonly OutboxEntry[];
  held: Map<string, HeldState>;
}

async function gather(
  query: ExplainQuery,
  subscriptions: readonly Subscription[],
  key: string,
  deps: ExplainDeps,
): Promise<Facts> {
  const channel = destinationKey(query.platform, query.channelId);
  const workspaceId = subscriptions.find((s) => s.workspaceId !== undefined)?.workspaceId;
  const feed = key.split(':')[0] as FeedName;
  const [reference, [posted = false], records, queue, held] = await Promise.all([
    deps.ledger.reference(channel, key),
    deps.ledger.delivered([{ destination: channel, itemKey: key }]),
    deps.log.recent(channel),
    deps.outbox.stored(channel),
    deps.held.read(subscriptions.filter((s) => s.schedule !== undefined).map((s) => s.id)),
  ]);
  const itemRecords = records.filter((record) => record.itemKey === key);
  const postRecord = itemRecords.find((r) => r.outcome === 'delivered');
  const postedFor = postedSubscriptions(postRecord, posted || reference !== undefined, subscriptions, feed);
  return {
    key,
    destination: {
      platform: query.platform,
      channelId: query.channelId,
      ...(workspaceId === undefined ? {} : { workspaceId }),
    },
    now: deps.clock.now(),
    posted: posted || reference !== undefined,
    ...(reference === undefined
      ? {}
      : {
          postedAt: reference.postedAt,
          reference: {
            messageId: reference.messageId,
            ...(reference.threadId === undefined ? {} : { threadId: reference.threadId }),
            ...(reference.channelId === undefined ? {} : { channelId: reference.channelId }),
          },
        }),
    records,
    itemRecords,
    ...(postRecord === undefined ? {} : { postRecord }),
    ...(postedFor === undefined ? {} : { postedFor }),
    queue,
    held,
  };
}

async function verdictFor(
  subscription: Subscription,
  ref: ItemRef,
  facts: Facts,
  lookup: OneLookup,
  deps: ExplainDeps,
): Promise<SubscriptionVerdict> {
  const moment: Moment = { now: facts.now, zone: await deps.zoneOf(subscription) };
  const line = (verdict: Verdict, text: string, extra: { at?: number; link?: string | undefined } = {}) => ({
    subscriptionId: subscription.id,
    verdict,
    text,
    ...(extra.at === undefined ? {} : { at: extra.at }),
    ...(extra.link === undefined ? {} : { link: extra.link }),
  });
  const { itemRecords, queue } = facts;
  const { postRecord, postedFor } = facts;
  const entry = queue.find((e) => e.itemKey === facts.key);

  if (postedFor?.includes(subscription.id)) {
    const at = facts.postedAt ?? postRecord?.at ?? facts.now;
    const link = linkOf(postRecord, facts, deps);
    const newest = itemRecords[0];
    const later = newest !== undefined && newest !== postRecord && newest.at > at ? newest : undefined;
    const messageId = facts.reference?.messageId ?? postRecord?.messageId;
    return line('delivered', sentences.delivered(at, moment, later, messageId, link), { at, link });
  }
  if (entry?.subscriptionIds.includes(subscription.id)) return line(...queued(entry, facts, moment));

  const state = facts.held.get(subscription.id);
  const heldItem = state?.items.find((item) => item.itemKey === facts.key);
  if (state && heldItem) {
    const until = heldUntil(subscription.schedule, state, moment.zone, heldItem.reason, facts.now);
    return line('held', sentences.held(heldItem.reason, until, subscription, moment), { at: until });
  }
  if (state?.released?.includes(facts.key)) return line(...released(subscription, facts, moment));

  if (subscription.feed !== ref.feed)
    return line('not_this_feed', sentences.notThisFeed(subscription.feed, ref.feed));
  // Here through another subscription: a duplicate for this one only if its filters let the item in.
  const heldBy = [...facts.held].find(([id, s]) => id !== subscription.id && holds(s, facts.key))?.[0];
  if ((postedFor !== undefined || entry !== undefined || heldBy !== undefined) && !subscription.paused) {
    const miss = await filterMiss(subscription, ref, facts, lookup);
    if (miss) return line('filtered', sentences.filtered(miss));
  }
  if (postedFor !== undefined) {
    const at = facts.postedAt ?? postRecord?.at;
    const link = linkOf(postRecord, facts, deps);
    return line('duplicate', sentences.duplicate(postedFor.join(', '), 'posted', at, moment), {
      ...(at === undefined ? {} : { at }),
      link,
    });
  }
  if (entry !== undefined)
    return line(
      'duplicate',
      sentences.duplicate(entry.subscriptionIds.join(', '), 'queued', undefined, moment),
    );
  if (heldBy !== undefined) return line('duplicate', sentences.duplicate(heldBy, 'held', undefined, moment));
  const refusal = itemRecords.find(
    (r) => r.outcome === 'rejected' || r.outcome === 'dropped' || r.outcome === 'abandoned',
  );
  if (refusal && refusal === itemRecords[0])
    return line('failed', sentences.failed(refusal, facts.destination.platform, moment), { at: refusal.at });
  if (subscription.paused)
    return line('paused', sentences.paused(subscription, facts.now), { at: subscription.paused.at });
  return line(...(await fromTheDirectory(subscription, ref, facts, lookup, deps, moment)));
}

type LineParts = [Verdict, string, { at?: number; link?: string | undefined }?];

/** Waiting in the outbox: for a retry, for the platform's rate limit, or its turn. */
function queued(entry: OutboxEntry, facts: Facts, moment: Moment): LineParts {
  if (entry.notBefore > facts.now) {
    const text =
      entry.attempts > 0
        ? sentences.queuedRetry(entry.notBefore, moment, facts.itemRecords[0])
        : sentences.queuedRateLimited(entry.destination.platform, entry.notBefore, moment);
    return ['queued', text, { at: entry.notBefore }];
  }
  const ahead = facts.queue.filter((e) => e.edit === undefined).findIndex((e) => e.itemKey === entry.itemKey);
  return [
    'queued',
    sentences.queuedPaced(entry.destination.platform, Math.max(0, ahead)),
    { at: entry.enqueuedAt },
  ];
}

/** Taken into a digest or summary: posted (the latest release's message), or waiting to be. */
function released(subscription: Subscription, facts: Facts, moment: Moment): LineParts {
  const mine = (key: string) => RELEASE_KEY.exec(key)?.[2] === subscription.id;
  const posts = facts.records.filter((r) => r.outcome === 'delivered' && mine(r.itemKey));
  const slotOf = (record: DeliveryRecord) => record.itemKey.replace(/:\d+$/, '');
  // The release's first part is its top-level message (later parts go in its thread).
  const newest = posts[0];
  const latest = newest && (posts.find((r) => r.itemKey === `${slotOf(newest)}:1`) ?? newest);
  if (latest) {
    const kind = RELEASE_KEY.exec(latest.itemKey)?.[1] as 'digest' | 'quiet' | 'cap';
    const slots = new Set(posts.map(slotOf));
    return [
      'delivered',
      sentences.inRelease(kind, latest.at, moment, slots.size > 1),
      { at: latest.at, link: latest.link },
    ];
  }
  const waiting = facts.queue.find((e) => mine(e.itemKey));
  const kind = (RELEASE_KEY.exec(waiting?.itemKey ?? '')?.[1] ?? 'digest') as 'digest' | 'quiet' | 'cap';
  return waiting
    ? ['queued', sentences.releaseQueued(kind), { at: waiting.enqueuedAt }]
    : ['delivered', sentences.inRelease(kind, facts.now, moment, true)];
}

/** What only the item itself can tell: its feed has not reached it, it is too old, or filtered. */
async function fromTheDirectory(
  subscription: Subscription,
  ref: ItemRef,
  facts: Facts,
  lookup: OneLookup,
  deps: ExplainDeps,
  moment: Moment,
): Promise<LineParts> {
  const found = await lookup.get();
  if ('missing' in found) return ['no_record', missingNotice(ref)];
  const state = await deps.feedState(ref.feed);
  if ('notAsked' in found) {
    // Without the record, a feed that remembers ids can still say whether it found this one.
    const id = facts.key.split(':').at(-1) ?? '';
    if (state === undefined) return ['not_polled', sentences.notPolledEver(ref.feed)];
    if ((ref.feed === 'notifications' || ref.feed === 'live') && !seenIn(state, id))
      return notPolled(ref.feed, deps, moment);
    return ['no_record', sentences.noRecord(deps.rememberMs)];
  }
  const { record } = found;
  const position = positionOf(record, state);
  if (position === 'never') return ['filtered', sentences.notFeatured()];
  if (position === 'ahead')
    return state === undefined
      ? ['not_polled', sentences.notPolledEver(ref.feed)]
      : notPolled(ref.feed, deps, moment);
  const itemAt = itemTime(record);
  if (itemAt !== undefined && itemAt < subscription.createdAt)
    return ['too_old', sentences.beforeSubscription(itemAt, subscription, moment), { at: itemAt }];
  const miss = unmatchedFilter(asFeedItem(ref.feed, record, facts.now), subscription.filters);
  if (miss) return ['filtered', sentences.filtered(miss)];
  if (itemAt !== undefined && itemAt < facts.now - deps.rememberMs)
    return ['too_old', sentences.forgotten(itemAt, deps.rememberMs, moment), { at: itemAt }];
  return ['no_record', sentences.noRecord(deps.rememberMs)];
}

/** Whether a subscription's schedule holds the item, or let it go in a release. */
function holds(state: HeldState, key: string): boolean {
  return state.items.some((item) => item.itemKey === key) || (state.released?.includes(key) ?? false);
}

/** The filter of `subscription` the item fails, when the directory's record of it can be had. */
async function filterMiss(subscription: Subscription, ref: ItemRef, facts: Facts, lookup: OneLookup) {
  const found = await lookup.get();
  return 'record' in found
    ? unmatchedFilter(asFeedItem(ref.feed, found.record, facts.now), subscription.filters)
    : undefined;
}

async function notPolled(feed: FeedName, deps: ExplainDeps, moment: Moment): Promise<LineParts> {
  const polling = (await deps.feedPolling()).find((p) => p.feed === feed);
  const next = polling?.nextPollAt;
  return [
    'not_polled',
    sentences.notPolled(feed, next, polling?.intervalMs, moment),
    next === undefined ? {} : { at: next },
  ];
}

/**
 * The subscriptions the item was posted for, when it was: the log's record says; for a post only
 * the ledger knows (from before the log, or its record lost), the channel's first subscription of
 * the item's feed, as routing chooses one per channel.
 */
function postedSubscriptions(
  record: DeliveryRecord | undefined,
  posted: boolean,
  subscriptions: readonly Subscription[],
  feed: FeedName,
): string[] | undefined {
  if (record) return record.subscriptionIds;
  if (!posted) return undefined;
  const first = subscriptions.find((s) => s.feed === feed);
  return first === undefined ? [] : [first.id];
}

function linkOf(record: DeliveryRecord | undefined, facts: Facts, deps: ExplainDeps): string | undefined {
  if (record?.link !== undefined) return record.link;
  return facts.reference === undefined ? undefined : deps.messageLink?.(facts.destination, facts.reference);
}

/** When the item appeared in its feed: created, or featured (collections); undefined for live events. */
function itemTime(record: FeedRecord): number | undefined {
  const text =
    record.type === 'post'
      ? record.post.createdAt
      : record.type === 'comment'
        ? record.comment.createdAt
        : record.type === 'collection'
          ? (record.collection.featuredAt ?? record.collection.createdAt)
          : record.type === 'notification'
            ? record.notification.createdAt
            : undefined;
  const at = text === undefined ? Number.NaN : Date.parse(text);
  return Number.isFinite(at) ? at : undefined;
}

function asFeedItem(feed: FeedName, record: FeedRecord, now: number): FeedItem {
  return makeFeedItem(feed, 'new', record, now);
}

/** The item as the reply names it: from the directory when asked, else from what the bot kept. */
function describeItem(
  feed: FeedName,
  id: string,
  facts: Facts,
  record: FeedRecord | undefined,
): NonNullable<ItemExplanation['item']> {
  const kept =
    facts.queue.find((e) => e.itemKey === facts.key)?.message ??
    [...facts.held.values()].flatMap((s) => s.items).find((i) => i.itemKey === facts.key)?.message;
  const logged = facts.itemRecords.find((r) => r.title !== undefined)?.title;
  const fromRecord = record ? titleAndUrl(record) : undefined;
  const title = fromRecord?.title ?? kept?.title ?? logged ?? `${feed} ${id}`;
  const url = fromRecord?.url ?? kept?.url;
  return { key: facts.key, feed, id, title, ...(url === undefined ? {} : { url }) };
}

function titleAndUrl(record: FeedRecord): { title: string; url?: string } {
  const pick = (title: string, url: string | undefined) => ({ title, ...(url === undefined ? {} : { url }) });
  switch (record.type) {
    case 'post':
      return pick(record.post.name, record.post.url);
    case 'comment':
      return pick(oneLine(record.comment.body), record.comment.url);
    case 'collection':
      return pick(record.collection.name, record.collection.url);
    case 'live':
      return pick(record.event.name, record.event.url);
    case 'notification':
      return pick(oneLine(record.notification.text), record.notification.url);
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}
