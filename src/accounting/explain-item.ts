import type { DirectoryLiveEvent, IdOrSlug } from '../directory/index.js';
import type { FeedItem } from '../feeds/feed-item.js';
import type { FeedName } from '../feeds/feed-names.js';
import type { LiveFeedState } from '../feeds/live-feed.js';
import type { Destination } from '../ports/index.js';
import { destinationKey, type Subscription } from '../subscriptions/index.js';
import type { ExplainDeps, ExplainQuery, ItemExplanation, SubscriptionVerdict } from './item-explanation.js';
import { lookUpItem } from './item-lookup.js';
import { ITEM_NOUNS, type ItemReference, parseItem } from './item-reference.js';
import {
  type ChannelFacts,
  type ItemFacts,
  itemVerdict,
  ownVerdict,
  releasedVerdict,
  settledVerdict,
} from './verdicts.js';

/**
 * What became of one item in one channel, one line per subscription there: `/directory why` and
 * the control panel show the same answer. Reads what the bot keeps (subscriptions, ledger,
 * delivery log, outbox, held items, feed positions and health) and asks the directory for the
 * item at most once, and only when those records leave a line open or the item is named by slug.
 */
export async function explainItem(query: ExplainQuery, deps: ExplainDeps): Promise<ItemExplanation> {
  const parsed = parseItem(query.item, deps.directoryLinks);
  if ('notice' in parsed) return { notice: parsed.notice, noticeCode: 'not_an_item', lines: [] };
  const subscriptions = await deps.subscriptions.forChannel(query.platform, query.channelId);
  if (subscriptions.length === 0)
    return {
      notice: 'This channel has no subscriptions, so nothing is posted here.',
      noticeCode: 'no_subscriptions',
      lines: [],
    };
  const reference = withFeed(parsed.reference, subscriptions);
  if ('notice' in reference) return { notice: reference.notice, noticeCode: 'not_an_item', lines: [] };
  const { feed, ref } = reference;

  const lookup = createLookup(deps, feed, ref);
  // A slug names no item key: the one lookup says which id it is.
  const id = 'id' in ref ? ref.id : (await lookup.item())?.id;
  if (id === undefined)
    return {
      notice: sentence(lookup.problem() ?? `the directory has no ${describe(feed, ref)}`),
      noticeCode: lookup.found() === null ? 'not_found' : 'unchecked',
      lines: [],
    };
  const key = `${feed}:new:${id}`;
  const facts = await channelFacts(query, deps, subscriptions, feed, key);

  const settled = subscriptions.map((s) => settledVerdict(s, facts));
  const open = settled.some((line) => line === undefined || line === 'released' || 'unlessOwn' in line);
  const item = open ? await lookup.item() : lookup.known();
  // Nothing here knows it and the directory has none: there is no such item to explain.
  if (lookup.found() === null && settled.every((line) => line === undefined))
    return { notice: sentence(lookup.problem() ?? ''), noticeCode: 'not_found', lines: [] };
  const known: ItemFacts = { dedupeTtlMs: deps.dedupeTtlMs };
  if (item !== undefined) known.item = item;
  else known.missing = lookup.problem() ?? `the directory no longer has this ${ITEM_NOUNS[feed]}`;
  if (item !== undefined && settled.includes(undefined))
    await addPosition(known, deps, feed, item, facts.now);

  const lines = subscriptions.map((s, i): SubscriptionVerdict => {
    const line = settled[i];
    if (line === 'released') return releasedVerdict(s, facts, item);
    if (line === undefined) return itemVerdict(s, facts, known);
    if ('unlessOwn' in line) return (item && ownVerdict(s, facts, item)) ?? line.unlessOwn;
    return line;
  });
  const problem = open && item === undefined ? lookup.problem() : undefined;
  return {
    item: summaryOf(feed, id, key, item, facts),
    ...(problem === undefined
      ? {}
      : { notice: sentence(problem), noticeCode: lookup.found() === null ? 'not_found' : 'unchecked' }),
    lines,
  };
}

/** A bare id takes its feed from the channel's subscriptions, when they follow only one. */
function withFeed(
  reference: ItemReference,
  subscriptions: readonly Subscription[],
): { feed: FeedName; ref: IdOrSlug } | { notice: string } {
  if (reference.feed !== undefined) return { feed: reference.feed, ref: reference.ref };
  const feeds = [...new Set(subscriptions.map((s) => s.feed))];
  if (feeds.length === 1) return { feed: feeds[0]!, ref: reference.ref };
  const id = reference.ref.id;
  return {
    notice: `Which ${id}? This channel follows ${feeds.join(' and ')}: say ${feeds.map((f) => `${ITEM_NOUNS[f].split(' ')[0]} ${id}`).join(' or ')}.`,
  };
}

/** A clause as a sentence of its own. */
function sentence(clause: string): string {
  return `${clause[0]?.toUpperCase() ?? ''}${clause.slice(1)}.`;
}

function describe(feed: FeedName, ref: IdOrSlug): string {
  return `${ITEM_NOUNS[feed]} ${'id' in ref ? ref.id : ref.slug}`;
}

/**
 * The one directory request, made at most once and only when asked for: spent from the person's
 * lookup allowance and the interactive reserve, its failure said in words rather than thrown.
 */
function createLookup(deps: ExplainDeps, feed: FeedName, ref: IdOrSlug) {
  let done: Promise<FeedItem | undefined> | undefined;
  let result: FeedItem | null | undefined;
  let problem: string | undefined;
  const run = async (): Promise<FeedItem | undefined> => {
    const waitMs = deps.allowLookup?.() ?? 0;
    if (waitMs > 0) {
      problem = `you have asked the directory often in the last minute (ask again in ${Math.ceil(waitMs / 1000)} s)`;
      return undefined;
    }
    try {
      const now = deps.clock.now();
      const listed =
        feed === 'live'
          ? (((await deps.feedState('live')) as LiveFeedState | undefined)?.upcoming ?? [])
          : [];
      const found = await lookUpItem(deps.client, feed, ref, { now, listed: listed as DirectoryLiveEvent[] });
      if (found === null) problem = `the directory has no ${describe(feed, ref)}`;
      result = found;
      return found ?? undefined;
    } catch (error) {
      problem = `the directory could not be asked just now (${error instanceof Error ? error.message : String(error)})`;
      return undefined;
    }
  };
  return {
    item: () => {
      done ??= run();
      return done;
    },
    /** The item if it was looked up already (never asks). */
    known: () => result ?? undefined,
    /** The lookup's answer: the item, null when the directory has none, undefined when not asked or it failed. */
    found: () => result,
    /** Why there is no item, in a clause (`the directory has no comment 9`); undefined when there is one. */
    problem: () => problem,
  };
}

async function channelFacts(
  query: ExplainQuery,
  deps: ExplainDeps,
  subscriptions: readonly Subscription[],
  feed: FeedName,
  key: string,
): Promise<ChannelFacts> {
  const destination: Destination = {
    platform: query.platform,
    channelId: query.channelId,
    ...(subscriptions[0]?.workspaceId === undefined ? {} : { workspaceId: subscriptions[0].workspaceId }),
  };
  const where = destinationKey(query.platform, query.channelId);
  const pair = [{ destination: where, itemKey: key }];
  const [[delivered], reference, log, queue, held, zones] = await Promise.all([
    deps.ledger.delivered(pair),
    deps.ledger.reference(where, key),
    deps.log.recent(where),
    deps.queued(where),
    deps.held.read(subscriptions.filter((s) => s.schedule !== undefined).map((s) => s.id)),
    Promise.all(subscriptions.map(async (s) => [s.id, await deps.zoneOf(s)] as const)),
  ]);
  const messageLink = deps.messageLink;
  return {
    key,
    feed,
    destination,
    now: deps.clock.now(),
    delivered: delivered === true,
    reference,
    log,
    queue,
    held,
    zones: new Map(zones),
    subscriptions,
    ...(messageLink === undefined ? {} : { messageLink: (r) => messageLink(destination, r) }),
  };
}

/** Where the item stands against its feed's saved position, and when that feed polls next. */
async function addPosition(known: ItemFacts, deps: ExplainDeps, feed: FeedName, item: FeedItem, now: number) {
  const runner = deps.feeds.find((f) => f.name === feed);
  if (runner === undefined) return;
  const [state, health] = await Promise.all([deps.feedState(feed), deps.health()]);
  known.position = runner.position(state, item, now);
  known.nextPollAt = health.find((h) => h.feed === feed)?.nextPollAt;
}

/** The item as the answer heads it: from the lookup, or from what a message about it carried. */
function summaryOf(
  feed: FeedName,
  id: string,
  key: string,
  item: FeedItem | undefined,
  facts: ChannelFacts,
): NonNullable<ItemExplanation['item']> {
  const fromRecord = item === undefined ? undefined : titleAndUrl(item);
  const message =
    facts.queue.find((e) => e.itemKey === key)?.message ??
    [...facts.held.values()].flatMap((state) => state.items).find((held) => held.itemKey === key)?.message;
  const title =
    fromRecord?.title ??
    message?.title ??
    facts.log.find((r) => r.itemKey === key && r.title !== undefined)?.title ??
    `${ITEM_NOUNS[feed]} ${id}`;
  const url = fromRecord?.url ?? message?.url;
  return { key, feed, id, title, ...(url === undefined ? {} : { url }) };
}

/** A record's name (a comment's first words) and link. */
function titleAndUrl(item: FeedItem): { title: string; url?: string } {
  const { record } = item;
  const short = (text: string) => {
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > 80 ? `${line.slice(0, 79)}…` : line;
  };
  const pick = (title: string, url: string | undefined) => ({ title, ...(url === undefined ? {} : { url }) });
  switch (record.type) {
    case 'post':
      return pick(record.post.name, record.post.url);
    case 'comment':
      return pick(`"${short(record.comment.body)}"`, record.comment.url);
    case 'collection':
      return pick(record.collection.name, record.collection.url);
    case 'live':
      return pick(record.event.name, record.event.url);
    case 'notification':
      return pick(
        short(record.notification.text) || `notification ${record.notification.id}`,
        record.notification.url,
      );
  }
}
