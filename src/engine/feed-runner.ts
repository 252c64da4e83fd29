import type Keyv from 'keyv';
import type { DeliveredLedger, Dispatcher, EditLimits, Outbox, OutboxEntry } from '../delivery/index.js';
import { threadCommentRoutes } from '../delivery/index.js';
import type { Feed } from '../feeds/feed.js';
import type { FeedItem } from '../feeds/feed-item.js';
import type { ScheduledCandidate, ScheduleGate } from '../held-items/index.js';
import type { Clock, Message } from '../ports/index.js';
import { directoryKeys } from '../store/index.js';
import type { Subscription, SubscriptionRepository } from '../subscriptions/index.js';
import { destinationKey } from '../subscriptions/index.js';
import { itemEntry } from './item-entry.js';
import { editEverywhere, type RefreshDeps, refreshShown, shownState } from './refresh-shown.js';
import { type TodaysRanking, withoutRank } from './todays-ranking.js';

export interface FeedRunnerOptions {
  store: Keyv;
  /** The directory the feed reads; its position is kept under that directory's keys. */
  directoryId: string;
  subscriptions: SubscriptionRepository;
  outbox: Outbox;
  ledger: DeliveredLedger;
  dispatcher: Pick<Dispatcher, 'wake'>;
  compose: (item: FeedItem) => Message;
  clock: Clock;
  defaultRemindMinutes: number;
  /** Keep posted messages current from what each poll lists (edits in place); absent: never edit. */
  edits?: EditLimits;
  /** Holds the messages of subscriptions with a schedule (digest, quiet hours, caps). */
  schedule?: ScheduleGate;
  /** The posts' rank of the day, shown and kept current with the other values (needs `edits`). */
  ranking?: TodaysRanking;
  /** Platforms whose deliveries carry the item's record (`ChatAdapter.wantsRecords`); default none. */
  recordPlatforms?: ReadonlySet<string>;
}

export interface PollSummary {
  feed: string;
  found: number;
  queued: number;
  /** Held back by a subscription's schedule (digest, quiet hours, volume cap). */
  held: number;
  /** Already delivered or queued for that destination. */
  duplicates: number;
  /** Edits of posted messages queued (or folded into a pending one) from this poll's listing. */
  edits?: number;
}

/**
 * One poll of one feed, end to end: poll → route to subscriptions → drop what each
 * destination already has → queue durably → only then save the feed's new state.
 * A crash anywhere before the state is saved re-finds the same items next time, and the
 * outbox and the delivered ledger make that harmless.
 */
export async function runFeedOnce(
  feed: Feed,
  options: FeedRunnerOptions,
  signal?: AbortSignal,
): Promise<PollSummary> {
  const { store, subscriptions, outbox, ledger, clock } = options;
  const stateKey = directoryKeys(options.directoryId).feedState(feed.name);
  const state = await store.get(stateKey);
  const polled = await feed.poll(state, signal);
  const { nextState, observedThroughNewest, observedIds, observedPartial, rememberFound } = polled;
  const index = await subscriptions.index();
  const now = clock.now();
  // Ranks ride on the records, so a new post's first message shows its rank when it is known.
  const ranked =
    feed.name === 'posts' && options.ranking && polled.observed
      ? await options.ranking.rank(polled.items, polled.observed, {
          index,
          now,
          defaultRemindMinutes: options.defaultRemindMinutes,
          pollCost: feed.costPerPoll,
          signal,
        })
      : undefined;
  const items = ranked?.items ?? polled.items;
  const observed = ranked?.observed ?? polled.observed;

  const candidates: OutboxEntry[] = [];
  const composed = new Map<string, Message>();
  // Only subscriptions with a schedule land here: without any, routing costs what it did before.
  const scheduled = new Map<OutboxEntry, ScheduledCandidate>();
  const routed = new Set<string>();
  const queue = (routedItem: FeedItem, subscription: Subscription) => {
    const key = destinationKey(subscription.platform, subscription.channelId);
    routed.add(`${key}|${routedItem.key}`);
    if (outbox.has(key, routedItem.key)) return;
    // A held message may go out on another day, so it never claims a rank "today".
    const item = subscription.schedule ? withoutRank(routedItem) : routedItem;
    const composedKey = item === routedItem ? item.key : `${item.key}:unranked`;
    let full = composed.get(composedKey);
    if (!full) {
      full = options.compose(item);
      composed.set(composedKey, full);
    }
    // Composed once per item; each destination gets it in its own subscription's format, with
    // the mentions and poster its subscription configured (never any the item's text names).
    const entry = itemEntry(item, subscription, full, now, options.recordPlatforms);
    candidates.push(entry);
    if (subscription.schedule) scheduled.set(entry, { entry, subscription, item });
  };
  for (const item of items) {
    const targets = index.route(item, { now, defaultRemindMinutes: options.defaultRemindMinutes });
    for (const subscription of targets) queue(item, subscription);
  }
  // Posts subscriptions with --thread-comments: comments on the posts their channel received.
  for (const route of await threadCommentRoutes(items, index, routed, { ledger, outbox })) {
    queue(route.item, route.subscription);
  }
  const delivered = await ledger.delivered(
    candidates.map((c) => ({ destination: c.destinationKey, itemKey: c.itemKey })),
  );
  let fresh = candidates.filter((_, index) => !delivered[index]);
  const due = fresh.length;
  if (scheduled.size > 0 && options.schedule) {
    // Held durably before the cursor moves, like a queued message.
    const held = fresh.flatMap((entry) => scheduled.get(entry) ?? []);
    if (held.length > 0) {
      const admitted = new Set(await options.schedule.admit(held, now));
      fresh = fresh.filter((entry) => !scheduled.has(entry) || admitted.has(entry));
    }
  }
  const queued = await outbox.enqueue(fresh);
  // Durably queued is enough to post: a crash before the cursor moves re-finds these items,
  // and the delivered ledger drops them. Waking now keeps the cursor write off the delay.
  if (queued > 0) options.dispatcher.wake();
  await feed.afterQueued?.(items);
  // Only now may the cursor move: everything behind it is delivered or durably queued.
  await store.set(stateKey, nextState);
  const held = due - fresh.length;
  const summary = {
    feed: feed.name,
    found: items.length,
    queued,
    held,
    duplicates: candidates.length - queued - held,
  };
  const remember = rememberFound === true && items.length > 0;
  if (options.edits === undefined || (observed === undefined && !remember)) return summary;
  const refresh: RefreshDeps = { ...options, index, now: clock.now(), limits: options.edits };
  const shown = await refreshShown(feed.name, observed ?? [], refresh, {
    throughNewest: observedThroughNewest === true,
    ...(observedIds ? { ids: observedIds } : {}),
    ...(observedPartial ? { partial: true } : {}),
    ...(rememberFound ? { found: items } : {}),
  });
  let { edits } = shown;
  // A post marked removed is left so: its rank is no longer anyone's business.
  if (shown.removedIds.length > 0) await options.ranking?.forget(shown.removedIds);
  const unlisted = (ranked?.unlisted ?? []).filter((item) => !shown.removedIds.includes(item.id));
  for (const item of unlisted) {
    const decisions = await editEverywhere(item, shownState(item.record, refresh.now), (m) => m, refresh);
    edits += decisions.filter((d) => d === 'queued' || d === 'coalesced').length;
  }
  if (edits > 0) options.dispatcher.wake();
  return { ...summary, edits };
}

/** Forgets a feed's cursor (tests and `reset`). */
export async function resetFeedState(store: Keyv, directoryId: string, feed: string): Promise<void> {
  await store.delete(directoryKeys(directoryId).feedState(feed));
}
