import { randomBytes } from 'node:crypto';
import type Keyv from 'keyv';
import type { Clock, ThreadProblem } from '../ports/index.js';
import { sleep } from '../ports/index.js';
import { sameSchedule } from '../schedule/index.js';
import type { LeaseBackend } from '../store/index.js';
import { withAddressing } from './mentions.js';
import type { ProblemField, Subscription } from './subscription.js';
import { notifyChange, type SubscriptionChangeListener } from './subscription-changes.js';
import {
  type AddResult,
  idsOf,
  newId,
  sameFilters,
  withBackfill,
  withFormat,
  withOnRemoval,
  withSchedule,
  withThreading,
} from './subscription-identity.js';
import { SubscriptionIndex } from './subscription-index.js';
import { seedChange } from './subscription-seeding.js';
import type { SubscriptionSeed } from './subscription-spec.js';

/** The pause code of a subscription a person paused (`/directory pause`), not the platform. */
export const USER_PAUSE_CODE = 'paused_by_user';

/** One subscription changed by id, and whether it did; undefined when the channel has no such id. */
type OneChange = { subscription: Subscription; changed: boolean } | undefined;

export type NewSubscription = Omit<Subscription, 'id' | 'createdAt' | 'paused'>;

/** The one store document holding every subscription (docs/privacy.md lists it). */
export const SUBSCRIPTIONS_KEY = 'subscriptions';
/**
 * Changes to a fresh random value after every write of SUBSCRIPTIONS, so an instance can tell
 * with one small read whether the index it holds is still the stored list.
 */
export const SUBSCRIPTIONS_VERSION_KEY = 'subscriptions-version';
/** The lease name serialising changes to it. */
export const SUBSCRIPTIONS_WRITE_LOCK = 'subscriptions-write';

/**
 * Subscriptions live in one store document. They change rarely (a slash command) and are
 * read on every poll cycle; one document keeps a read to one round-trip. Changes from
 * any instance go through a short lease so two concurrent edits never overwrite each other.
 * Readers that route items or answer for one channel go through `index()`, which re-reads
 * the document only when its version key changed, so a poll or a command costs what it
 * returns, not the number of subscriptions.
 */
export class SubscriptionRepository {
  readonly #keyv: Keyv;
  readonly #leases: LeaseBackend;
  readonly #clock: Clock;
  readonly #owner = randomBytes(6).toString('hex');
  /**
   * This instance's changes, one after another: the lease is re-entrant for its owner, so two
   * changes of one instance at once (two channels refused together) would each read the same
   * list and the later write would undo the earlier.
   */
  #writes: Promise<unknown> = Promise.resolve();
  #cached: { version: string; index: SubscriptionIndex } | undefined;
  readonly #listeners: SubscriptionChangeListener[] = [];
  #loading: Promise<SubscriptionIndex> | undefined;

  constructor(options: { keyv: Keyv; leases: LeaseBackend; clock: Clock }) {
    this.#keyv = options.keyv;
    this.#leases = options.leases;
    this.#clock = options.clock;
  }

  /** Calls `listener` after every change this instance writes (other instances' are not seen). */
  onChange(listener: SubscriptionChangeListener): void {
    this.#listeners.push(listener);
  }

  async list(): Promise<Subscription[]> {
    return ((await this.#keyv.get<Subscription[]>(SUBSCRIPTIONS_KEY)) ?? []).map((s) => ({ ...s }));
  }

  async forChannel(platform: string, channelId: string): Promise<Subscription[]> {
    return (await this.index()).forChannel(platform, channelId).map((s) => ({ ...s }));
  }

  /**
   * The stored subscriptions, indexed; rebuilt only when another write (from any instance)
   * changed the version key. Its subscriptions are shared: read them, never change them.
   */
  async index(): Promise<SubscriptionIndex> {
    this.#loading ??= this.#freshIndex().finally(() => {
      this.#loading = undefined;
    });
    return this.#loading;
  }

  async #freshIndex(): Promise<SubscriptionIndex> {
    const version = await this.#keyv.get<string>(SUBSCRIPTIONS_VERSION_KEY);
    if (version !== undefined && this.#cached?.version === version) return this.#cached.index;
    // Read after the version: the writer stores the list first, so it is at least that new.
    const index = new SubscriptionIndex((await this.#keyv.get<Subscription[]>(SUBSCRIPTIONS_KEY)) ?? []);
    // A store written only by versions before the key has none: nothing to trust, read each time.
    this.#cached = version === undefined ? undefined : { version, index };
    return index;
  }

  /**
   * Adds a subscription; an identical one (same channel, feed and filters) is returned
   * instead of duplicated — and resumed if it was paused, since subscribing again is how a
   * person says "the channel is fine now". One differing only in format, threads or schedule takes
   * the new ones in place (same id and start): a channel shows an item once, so both could never be seen.
   */
  async add(input: NewSubscription): Promise<AddResult> {
    return this.#update<AddResult>((all) => {
      const existing = all.find(
        (s) =>
          s.platform === input.platform &&
          s.channelId === input.channelId &&
          s.feed === input.feed &&
          sameFilters(s.filters, input.filters),
      );
      if (existing) {
        const { paused, ...active } = existing;
        const formatted = withThreading(withFormat(active, input.format), input.threading);
        const how = withOnRemoval(formatted, input.onRemoval);
        const scheduled = withSchedule(how, input.schedule);
        const addressed = withAddressing(scheduled, input);
        const subscription = withBackfill(addressed, input.backfill);
        const changed = {
          reformatted: formatted !== active,
          removalChanged: how !== formatted,
          rescheduled: !sameSchedule(subscription.schedule, how.schedule),
          readdressed: addressed !== scheduled,
        };
        return {
          next: all.map((s) => (s === existing ? subscription : s)),
          result: { subscription, created: false, resumed: paused !== undefined, ...changed },
        };
      }
      const fresh = { ...input, id: newId(idsOf(all)), createdAt: this.#clock.now() };
      const how = withOnRemoval(
        withThreading(withFormat(fresh, input.format), input.threading),
        input.onRemoval,
      );
      const created = withBackfill(withAddressing(withSchedule(how, input.schedule), input), input.backfill);
      const unchanged = {
        resumed: false,
        reformatted: false,
        removalChanged: false,
        rescheduled: false,
        readdressed: false,
      };
      return { next: [...all, created], result: { subscription: created, created: true, ...unchanged } };
    });
  }

  /**
   * The poller queued the backfill `token` names: it is no longer pending. A newer request made
   * meanwhile (another subscribe) has another token and stays.
   */
  async settleBackfill(id: string, token: string): Promise<void> {
    const pending = (await this.index()).where((s) => s.id === id && s.backfill?.token === token);
    if (pending.length === 0) return;
    await this.#update((all) => {
      const found = all.find((s) => s.id === id && s.backfill?.token === token);
      if (!found) return { next: all, result: undefined };
      const { backfill: _backfill, ...settled } = found;
      return { next: all.map((s) => (s === found ? settled : s)), result: undefined };
    });
  }

  /** Removes subscriptions of one channel by id, or every one of a feed; returns what was removed. */
  async remove(platform: string, channelId: string, idOrFeed: string): Promise<Subscription[]> {
    return this.#update((all) => {
      const removed = all.filter(
        (s) =>
          s.platform === platform && s.channelId === channelId && (s.id === idOrFeed || s.feed === idOrFeed),
      );
      return { next: all.filter((s) => !removed.includes(s)), result: removed };
    });
  }

  /** Removes every subscription of one destination (a webhook that is removed); returns them. */
  async removeDestination(platform: string, channelId: string): Promise<Subscription[]> {
    return this.#update((all) => {
      const removed = all.filter((s) => s.platform === platform && s.channelId === channelId);
      return { next: all.filter((s) => !removed.includes(s)), result: removed };
    });
  }

  /**
   * Removes every subscription of one workspace (Slack team, Discord server) and returns them.
   * Routes from SUBSCRIPTIONS name no workspace and stay: they are the operator's configuration.
   */
  async removeWorkspace(platform: string, workspaceId: string): Promise<Subscription[]> {
    return this.#update((all) => {
      const removed = all.filter((s) => s.platform === platform && s.workspaceId === workspaceId);
      return { next: all.filter((s) => !removed.includes(s)), result: removed };
    });
  }

  /** Pauses every subscription of a destination that failed permanently, recording why. */
  async pauseDestination(platform: string, channelId: string, code: string, reason: string): Promise<number> {
    return this.#update((all) => {
      let count = 0;
      const next = all.map((s) => {
        if (s.platform !== platform || s.channelId !== channelId || s.paused) return s;
        count += 1;
        return { ...s, paused: { code, reason, at: this.#clock.now() } };
      });
      return { next, result: count };
    });
  }

  /** `noteProblem('threadProblem', …)`: why replies went to the channel rather than a thread. */
  noteThreadProblem(ids: readonly string[], problem: ThreadProblem | undefined): Promise<void> {
    return this.noteProblem('threadProblem', ids, problem);
  }

  /**
   * Records (or, with `problem` undefined, clears) a problem of these subscriptions that
   * `/directory status` shows: replies that went to the channel rather than a thread, removed
   * items' messages marked rather than deleted. Writes only on a change of code, so a channel
   * whose problem stays costs one write, not one per message.
   */
  async noteProblem(
    field: ProblemField,
    ids: readonly string[],
    problem: ThreadProblem | undefined,
  ): Promise<void> {
    const index = await this.index();
    const changes = index.where((s) => ids.includes(s.id) && s[field]?.code !== problem?.code);
    if (changes.length === 0) return;
    await this.#update((all) => ({
      next: all.map((s) => {
        if (!ids.includes(s.id)) return s;
        const { [field]: _old, ...rest } = s;
        return problem === undefined ? rest : { ...rest, [field]: problem };
      }),
      result: undefined,
    }));
  }

  /**
   * Pauses one subscription of a channel at a person's request, recording who (`by`, their
   * platform user id) and when. One already paused, for any reason, keeps that pause: its reason
   * is the more useful one. Undefined when the channel has no subscription with this id.
   */
  async pause(platform: string, channelId: string, id: string, by: string): Promise<OneChange> {
    const paused = { code: USER_PAUSE_CODE, reason: 'a channel manager paused it', by };
    return this.#changeOne(platform, channelId, id, (s) =>
      s.paused ? s : { ...s, paused: { ...paused, at: this.#clock.now() } },
    );
  }

  /** Resumes one subscription of a channel, whatever paused it (as subscribing again does). */
  async resume(platform: string, channelId: string, id: string): Promise<OneChange> {
    return this.#changeOne(platform, channelId, id, (s) => {
      if (!s.paused) return s;
      const { paused: _paused, ...resumed } = s;
      return resumed;
    });
  }

  #changeOne(
    platform: string,
    channelId: string,
    id: string,
    change: (s: Subscription) => Subscription,
  ): Promise<OneChange> {
    return this.#update<OneChange>((all) => {
      const found = all.find((s) => s.platform === platform && s.channelId === channelId && s.id === id);
      if (!found) return { next: all, result: undefined };
      const changed = change(found);
      if (changed === found) return { next: all, result: { subscription: found, changed: false } };
      const next = all.map((s) => (s === found ? changed : s));
      return { next, result: { subscription: changed, changed: true } };
    });
  }

  /** Makes the stored routes from SUBSCRIPTIONS (created by `env`) match the variable (see `seedChange`). */
  async seed(seeds: readonly SubscriptionSeed[]): Promise<{ added: number; removed: number }> {
    return this.#update((all) => seedChange(all, seeds, this.#clock.now()));
  }

  #update<T>(change: (all: Subscription[]) => { next: Subscription[]; result: T }): Promise<T> {
    const run = this.#writes.then(() => this.#updateLocked(change));
    this.#writes = run.catch(() => {});
    return run;
  }

  async #updateLocked<T>(change: (all: Subscription[]) => { next: Subscription[]; result: T }): Promise<T> {
    await this.#lock();
    try {
      const all = await this.list();
      const { next, result } = change(all);
      await this.#keyv.set(SUBSCRIPTIONS_KEY, next);
      await this.#keyv.set(SUBSCRIPTIONS_VERSION_KEY, randomBytes(8).toString('hex'));
      // A load started before this write must not answer a read made after it.
      this.#loading = undefined;
      notifyChange(this.#listeners, all, next);
      return result;
    } finally {
      await this.#leases.release(SUBSCRIPTIONS_WRITE_LOCK, this.#owner).catch(() => {});
    }
  }

  async #lock(): Promise<void> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if (await this.#leases.acquire(SUBSCRIPTIONS_WRITE_LOCK, this.#owner, 5000)) return;
      await sleep(20 + Math.random() * 30);
    }
    throw new Error('could not lock the subscriptions for writing within 3 seconds');
  }
}
