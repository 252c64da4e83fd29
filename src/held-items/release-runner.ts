import type { DeliveredLedger, Outbox } from '../delivery/index.js';
import type { Clock } from '../ports/index.js';
import type { ZoneOf } from '../schedule/index.js';
import { capWindowAt, latestDigestAt, quietWindowAt } from '../schedule/index.js';
import type { Subscription, SubscriptionRepository } from '../subscriptions/index.js';
import { DIGEST_LATE_AFTER_MS, type DueRelease, dueReleases } from './due-releases.js';
import { groupedEnqueue } from './grouped-enqueue.js';
import {
  emptyHeldState,
  HELD_LIMIT,
  type HeldItems,
  type HeldState,
  type HoldReason,
} from './held-item-store.js';
import { type ComposeDigest, releasedItems, releaseEntries } from './release-entries.js';

/** The safety tick: a schedule the timer missed (a clock jump, a change by another instance) is this late at most. */
export const SCHEDULE_TICK_MS = 15_000;

/** Subscriptions released at once (each one's writes stay in order). */
const RELEASE_CONCURRENCY = 16;

export type ScheduleEvent =
  | {
      type: 'released';
      platform: string;
      subscriptionId: string;
      kind: HoldReason;
      items: number;
      /** Messages queued (0: an empty digest not asked for; or all already queued or posted). */
      messages: number;
      /** The instant it was due (the digest slot, the end of quiet hours or of the cap window). */
      dueAt: number;
      late: boolean;
    }
  | { type: 'forgotten'; subscriptionId: string; items: number }
  | { type: 'tick-failed'; error: unknown };

export interface ScheduleRunnerOptions {
  subscriptions: SubscriptionRepository;
  held: HeldItems;
  outbox: Outbox;
  ledger: DeliveredLedger;
  clock: Clock;
  zoneOf: ZoneOf;
  composeDigest: ComposeDigest;
  /** Told after messages were queued, so it delivers them now. */
  wake: () => void;
  /** Platforms with an adapter running here; other subscriptions' schedules wait. */
  platforms: () => ReadonlySet<string>;
  /** Whether a platform keeps replies in threads: a digest's later parts go there (issue 29). */
  repliesInThreads: (platform: string) => boolean;
  tickMs?: number;
  onEvent?: (event: ScheduleEvent) => void;
}

/**
 * Releases what schedules held, on the poller only (like every delivery): digests at their slot,
 * quiet hours' messages when they end, a cap's excess when its window ends. It wakes at the
 * earliest instant anything is due, plus a safety tick.
 *
 * Each release is three writes, in an order that makes a crash between any two harmless: the
 * release is marked in the held state (so a restart repeats exactly it, even after another slot
 * has passed), its messages are queued under keys fixed by the slot (checked against the outbox
 * and the delivered ledger first), and only then are its items let go and the slot recorded.
 */
export function createScheduleRunner(options: ScheduleRunnerOptions) {
  const { subscriptions, held, outbox, ledger, clock, zoneOf } = options;
  const tickMs = options.tickMs ?? SCHEDULE_TICK_MS;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<{ queued: number; nextAt: number | undefined }> | undefined;
  let started = false;
  const enqueue = groupedEnqueue(outbox);

  async function tick(): Promise<{ queued: number; nextAt: number | undefined }> {
    const now = clock.now();
    const index = await subscriptions.index();
    const all = new Map(index.where(() => true).map((s) => [s.id, s]));
    const platforms = options.platforms();
    const ids = new Set(await held.ids());
    for (const s of all.values()) if (s.schedule) ids.add(s.id);
    const states = await held.read([...ids]);
    let queued = 0;
    let nextAt: number | undefined;
    const one = async (id: string) => {
      const subscription = all.get(id);
      if (!subscription) {
        // Unsubscribed, or its workspace removed the bot: nothing of it is posted any more.
        const items = states.get(id)?.items.length ?? 0;
        await held.update(id, () => ({ next: null, result: undefined }));
        options.onEvent?.({ type: 'forgotten', subscriptionId: id, items });
        return;
      }
      if (subscription.paused || !platforms.has(subscription.platform)) return;
      const result = await runSubscription(subscription, states.get(id), now);
      queued += result.queued;
      if (result.nextAt !== undefined) nextAt = Math.min(nextAt ?? result.nextAt, result.nextAt);
    };
    // Several subscriptions at once: a digest slot many channels share (09:00) is a store round
    // trip per write, and one after another they would make the last channel's digest late.
    // One subscription failing (the store) never holds back the others; the tick still fails.
    const queue = [...ids];
    const failures: unknown[] = [];
    await Promise.all(
      Array.from({ length: Math.min(RELEASE_CONCURRENCY, queue.length) }, async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift())
          await one(id).catch((error: unknown) => failures.push(error));
      }),
    );
    if (failures.length > 0) throw failures[0];
    if (queued > 0) options.wake();
    return { queued, nextAt };
  }

  async function runSubscription(subscription: Subscription, stored: HeldState | undefined, now: number) {
    const zone = await zoneOf(subscription);
    let state = stored;
    const digest = subscription.schedule?.digest;
    if (!state || (digest && state.lastDigestAt === undefined)) {
      // A new digest's first period runs from the slot before it began (its creation bounds it).
      const lastDigestAt = digest ? latestDigestAt(digest, zone, now) : undefined;
      state = { ...(state ?? emptyHeldState()), ...(lastDigestAt === undefined ? {} : { lastDigestAt }) };
      const initial = state;
      await held.update(subscription.id, (current) =>
        current ? { result: undefined } : { next: initial, result: undefined },
      );
    }
    let queued = 0;
    // Each pass releases what is due; a release can make the next due (a missed quiet end then a digest).
    for (let pass = 0; pass < 4; pass += 1) {
      const { due, nextAt } = dueReleases(subscription.schedule, state, zone, now);
      if (due.length === 0) {
        if (!subscription.schedule && state.items.length === 0)
          await held.update(subscription.id, () => ({ next: null, result: undefined }));
        return { queued, nextAt };
      }
      for (const release of due) {
        const after = await releaseOne(subscription, release, zone, now);
        queued += after.queued;
        state = after.state;
      }
    }
    return { queued, nextAt: now };
  }

  async function releaseOne(subscription: Subscription, wanted: DueRelease, zone: string, now: number) {
    const marked = await held.update(subscription.id, (current) => {
      const state = current ?? emptyHeldState();
      if (state.releasing) return { result: state };
      const next = { ...state, releasing: wanted };
      return { next, result: next };
    });
    const release = lateIfOverdue(marked.releasing ?? wanted, now);
    const target = { zone, repliesInThreads: options.repliesInThreads(subscription.platform) };
    const { entries, parts } = releaseEntries(
      subscription,
      marked,
      release,
      target,
      now,
      options.composeDigest,
    );
    // Before its messages are queued, so one that names /directory digest never finds an older one.
    if (parts !== undefined)
      await held.keepLatest(subscription.id, { kind: release.kind, before: release.before, parts });
    const already = await ledger.delivered(
      entries.map((e) => ({ destination: e.destinationKey, itemKey: e.itemKey })),
    );
    const fresh = entries.filter((e, i) => !already[i] && !outbox.has(e.destinationKey, e.itemKey));
    await enqueue(fresh);
    const queued = fresh.length;
    const taken = new Set(releasedItems(marked, release).map((item) => item.itemKey));
    const state = await held.update(subscription.id, (current) => {
      const next = settle(structuredClone(current ?? marked), subscription, release, taken, zone, now);
      return { next, result: next };
    });
    options.onEvent?.({
      type: 'released',
      platform: subscription.platform,
      subscriptionId: subscription.id,
      kind: release.kind,
      items: taken.size,
      messages: queued,
      dueAt: release.lateFor ?? release.before,
      late: release.lateFor !== undefined,
    });
    return { queued, state };
  }

  /** Resolves with how many messages were queued and when the runner is next due. */
  function runOnce(): Promise<{ queued: number; nextAt: number | undefined }> {
    running ??= tick().finally(() => {
      running = undefined;
    });
    return running;
  }

  function plan(at: number): void {
    clearTimeout(timer);
    if (!started) return;
    const delay = Math.min(Math.max(0, at - clock.now()), tickMs);
    timer = setTimeout(() => {
      runOnce().then(
        (result) => plan(result.nextAt ?? clock.now() + tickMs),
        (error: unknown) => {
          options.onEvent?.({ type: 'tick-failed', error });
          plan(clock.now() + tickMs);
        },
      );
    }, delay);
    timer.unref();
  }

  return {
    runOnce,
    start(): void {
      started = true;
      plan(clock.now());
    },
    /** Looks again soon (something was held: a new quiet or cap window may end before the timer). */
    wake(): void {
      if (started && running === undefined) plan(clock.now());
    },
    async stop(): Promise<void> {
      started = false;
      clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };
}

/** A digest finished long after its slot (a crash, then downtime) says it is late, as a missed one does. */
function lateIfOverdue(release: DueRelease, now: number): DueRelease {
  if (release.kind !== 'digest' || release.lateFor !== undefined) return release;
  return now - release.before > DIGEST_LATE_AFTER_MS ? { ...release, lateFor: release.before } : release;
}

/** The held state after a release was queued: its items let go, its window or slot moved on. */
function settle(
  state: HeldState,
  subscription: Subscription,
  release: DueRelease,
  taken: ReadonlySet<string>,
  zone: string,
  now: number,
): HeldState {
  const schedule = subscription.schedule ?? {};
  state.items = state.items.filter((item) => !taken.has(item.itemKey));
  state.released = [...taken, ...(state.released ?? [])].slice(0, HELD_LIMIT);
  delete state.omitted[release.kind];
  delete state.releasing;
  // Items held in a later window (the runner did not run in between) go when that window ends.
  const lastHeld = (kind: HoldReason) =>
    Math.max(-1, ...state.items.filter((item) => item.reason === kind).map((item) => item.discoveredAt));
  if (release.kind === 'digest') {
    if (schedule.digest) state.lastDigestAt = release.before;
    else delete state.lastDigestAt;
  } else if (release.kind === 'quiet') {
    delete state.quietUntil;
    const latest = lastHeld('quiet');
    if (latest >= 0)
      state.quietUntil = (schedule.quiet && quietWindowAt(schedule.quiet, zone, latest)?.end) || now;
  } else {
    delete state.capUntil;
    const latest = lastHeld('cap');
    if (latest >= 0)
      state.capUntil = capWindowAt(schedule.maxPerHour === undefined ? 'day' : 'hour', zone, latest).end;
  }
  return state;
}
