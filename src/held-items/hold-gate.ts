import type { OutboxEntry } from '../delivery/index.js';
import type { FeedItem } from '../feeds/feed-item.js';
import type { HeldItem } from '../messages/index.js';
import type { ScheduleOptions, ZoneOf } from '../schedule/index.js';
import { capWindowAt, latestDigestAt, quietWindowAt } from '../schedule/index.js';
import type { Subscription } from '../subscriptions/index.js';
import {
  type CapCount,
  emptyHeldState,
  type HeldItems,
  type HeldState,
  type HoldReason,
  holdItems,
} from './held-item-store.js';

export type ScheduleGateEvent = { type: 'held'; subscriptionId: string; reason: HoldReason; count: number };

export interface ScheduleGateOptions {
  held: HeldItems;
  zoneOf: ZoneOf;
  onEvent?: (event: ScheduleGateEvent) => void;
}

/** One message a poll would queue for a subscription with a schedule. */
export interface ScheduledCandidate {
  entry: OutboxEntry;
  subscription: Subscription;
  item: FeedItem;
}

/**
 * Where a poll's messages for scheduled subscriptions go: held for a digest, held through quiet
 * hours, held over a volume cap, or on to the outbox now. Holding is written to the store before
 * this resolves, so the feed's cursor may move after it like after an enqueue.
 */
export function createScheduleGate(options: ScheduleGateOptions) {
  const { held, zoneOf } = options;

  /** Holds what the schedules hold (durably) and returns the entries to queue now. */
  async function admit(candidates: readonly ScheduledCandidate[], now: number): Promise<OutboxEntry[]> {
    const bySubscription = new Map<string, ScheduledCandidate[]>();
    for (const candidate of candidates) {
      const list = bySubscription.get(candidate.subscription.id) ?? [];
      list.push(candidate);
      bySubscription.set(candidate.subscription.id, list);
    }
    const admitted = new Set<OutboxEntry>();
    await Promise.all(
      [...bySubscription.values()].map(async (list) => {
        const subscription = list[0]!.subscription;
        const zone = await zoneOf(subscription);
        const counts = await held.update(subscription.id, (current) =>
          decide(current, list, subscription.schedule ?? {}, zone, now, admitted),
        );
        for (const [reason, count] of counts)
          options.onEvent?.({ type: 'held', subscriptionId: subscription.id, reason, count });
      }),
    );
    return candidates.filter((c) => admitted.has(c.entry)).map((c) => c.entry);
  }

  return { admit };
}

export type ScheduleGate = ReturnType<typeof createScheduleGate>;

/** Decides each candidate of one subscription, in order; `admitted` collects those posted now. */
function decide(
  current: HeldState | undefined,
  list: readonly ScheduledCandidate[],
  schedule: ScheduleOptions,
  zone: string,
  now: number,
  admitted: Set<OutboxEntry>,
) {
  const state = current ? structuredClone(current) : emptyHeldState();
  const toHold: HeldItem[] = [];
  if (schedule.digest && state.lastDigestAt === undefined)
    state.lastDigestAt = latestDigestAt(schedule.digest, zone, now);
  const quiet = schedule.quiet ? quietWindowAt(schedule.quiet, zone, now) : undefined;
  for (const { entry, item } of list) {
    const reminder = item.event === 'reminder';
    // A "starting soon" reminder in tomorrow's digest would be about an event already over.
    if (schedule.digest && !reminder) {
      toHold.push(heldItem(entry, item, 'digest'));
    } else if (quiet && (!reminder || schedule.quietStrict === true)) {
      toHold.push(heldItem(entry, item, 'quiet'));
      // An earlier quiet batch not yet released keeps its end: the runner releases it first.
      state.quietUntil ??= quiet.end;
    } else if (!reminder && overCap(state, schedule, zone, now)) {
      toHold.push(heldItem(entry, item, 'cap'));
      state.capUntil ??= capHoldUntil(state, schedule, zone, now);
    } else {
      count(state, schedule, zone, now);
      admitted.add(entry);
    }
  }
  const changedCounts =
    list.some((c) => admitted.has(c.entry)) && (schedule.maxPerHour || schedule.maxPerDay);
  const added = holdItems(state, toHold, schedule.top !== undefined);
  const byReason = new Map<HoldReason, number>();
  for (const item of toHold) byReason.set(item.reason, (byReason.get(item.reason) ?? 0) + 1);
  const changed = !current || added > 0 || toHold.length > 0 || changedCounts;
  return { ...(changed ? { next: state } : {}), result: byReason };
}

function heldItem(entry: OutboxEntry, item: FeedItem, reason: HoldReason): HeldItem {
  const post = item.record.type === 'post' ? item.record.post : undefined;
  return {
    itemKey: entry.itemKey,
    feed: item.feed,
    message: entry.message,
    discoveredAt: item.discoveredAt,
    reason,
    ...(entry.thread === undefined ? {} : { thread: entry.thread }),
    ...(post?.votesCount === undefined ? {} : { votes: post.votesCount }),
    ...(post?.commentsCount === undefined ? {} : { comments: post.commentsCount }),
  };
}

/** Messages already posted in the window holding `now` (a count from an earlier window is 0). */
function inWindow(counter: CapCount | undefined, start: number): number {
  return counter?.start === start ? counter.count : 0;
}

function overCap(state: HeldState, schedule: ScheduleOptions, zone: string, now: number): boolean {
  const { maxPerHour, maxPerDay } = schedule;
  if (
    maxPerHour !== undefined &&
    inWindow(state.sentThisHour, capWindowAt('hour', zone, now).start) >= maxPerHour
  )
    return true;
  return (
    maxPerDay !== undefined && inWindow(state.sentToday, capWindowAt('day', zone, now).start) >= maxPerDay
  );
}

function count(state: HeldState, schedule: ScheduleOptions, zone: string, now: number): void {
  if (schedule.maxPerHour !== undefined) {
    const { start } = capWindowAt('hour', zone, now);
    state.sentThisHour = { start, count: inWindow(state.sentThisHour, start) + 1 };
  }
  if (schedule.maxPerDay !== undefined) {
    const { start } = capWindowAt('day', zone, now);
    state.sentToday = { start, count: inWindow(state.sentToday, start) + 1 };
  }
}

/** When a cap that is full at `now` opens again: the day's end if the day's cap is full, else the hour's. */
function capHoldUntil(state: HeldState, schedule: ScheduleOptions, zone: string, now: number): number {
  const day = capWindowAt('day', zone, now);
  if (schedule.maxPerDay !== undefined && inWindow(state.sentToday, day.start) >= schedule.maxPerDay)
    return day.end;
  return capWindowAt('hour', zone, now).end;
}
