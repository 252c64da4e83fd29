import type Keyv from 'keyv';
import type { DirectoryConnection, QuotaClass, QuotaLedger, QuotaSnapshot } from '../directory/index.js';
import { messageOf } from '../errors.js';
import type { Feed } from '../feeds/feed.js';
import type { FeedName } from '../feeds/feed-names.js';
import type { Clock } from '../ports/index.js';
import { directoryKeys } from '../store/index.js';
import type { PollSummary } from './feed-runner.js';
import { jitteredInterval, planCadence } from './poll-cadence.js';

export interface FeedHealth {
  feed: FeedName;
  intervalMs: number;
  lastPollAt?: number;
  lastSuccessAt?: number;
  lastError?: string;
  consecutiveFailures: number;
  lastFound?: number;
  nextPollAt?: number;
}

/**
 * The directory as the polling instance sees it, saved with the feed health: another instance
 * answering `/directory status` (or `/readyz`) shows this rather than its own unused quota
 * counters and a connection it has not tried.
 */
export interface DirectoryReport {
  /** When it was saved (epoch ms). */
  at: number;
  quotas: Record<QuotaClass, QuotaSnapshot>;
  connection: DirectoryConnection;
}

export type PollEvent =
  | { type: 'polled'; summary: PollSummary; ms: number }
  | { type: 'poll-failed'; feed: FeedName; error: unknown; retryInMs: number }
  | { type: 'cadence'; feed: FeedName; intervalMs: number };

export interface PollSchedulerOptions {
  feeds: readonly Feed[];
  runFeed: (feed: Feed, signal: AbortSignal) => Promise<PollSummary>;
  /** Feeds at least one active subscription wants; the others are not polled (quota kept). */
  wantedFeeds: () => Promise<ReadonlySet<FeedName>>;
  ledger: Pick<QuotaLedger, 'snapshot' | 'check'>;
  /** The client's connection state, saved with the quotas in the directory report. */
  connection: () => DirectoryConnection;
  store: Keyv;
  /** The directory polled; health is saved under its keys (see directory-keys.ts). */
  directoryId: string;
  clock: Clock;
  windowMs: number;
  reserveFraction: number;
  minIntervalMs: number;
  onEvent?: (event: PollEvent) => void;
}

const MAX_ERROR_BACKOFF_MS = 10 * 60_000;

/**
 * Runs each wanted feed at the cadence its quota allows. Polls never overlap (one at a
 * time, across all feeds), are jittered so instances and feeds do not align, and stop
 * cleanly: `stop()` waits for the poll in progress.
 */
export class PollScheduler {
  readonly #options: PollSchedulerOptions;
  readonly #health = new Map<FeedName, FeedHealth>();
  #timer: NodeJS.Timeout | undefined;
  #current: Promise<void> | undefined;
  #running = false;
  /** Aborts the poll in progress (and any quota wait inside it) on stop. */
  #abort = new AbortController();

  constructor(options: PollSchedulerOptions) {
    this.#options = options;
    for (const feed of options.feeds)
      this.#health.set(feed.name, { feed: feed.name, intervalMs: 0, consecutiveFailures: 0 });
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#abort = new AbortController();
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    this.#abort.abort();
    await this.#current;
  }

  /** Polls every wanted feed that is due now, one after another (also used by tests). */
  async tick(): Promise<void> {
    const { clock } = this.#options;
    const wanted = await this.#options.wantedFeeds();
    const feeds = this.#options.feeds.filter((f) => wanted.has(f.name));
    const plan = this.#plan(feeds);
    for (const feed of feeds) {
      if (!this.#running && this.#timer !== undefined) break;
      const health = this.#health.get(feed.name);
      if (!health) continue;
      const interval = plan.get(feed.name) ?? this.#options.minIntervalMs;
      if (interval !== health.intervalMs) {
        health.intervalMs = interval;
        this.#options.onEvent?.({ type: 'cadence', feed: feed.name, intervalMs: interval });
      }
      if (health.nextPollAt !== undefined && health.nextPollAt > clock.now()) continue;
      // A feed whose quota is spent (or paused after a 429) waits for its reset without
      // holding up feeds that draw on another quota.
      const budget = this.#options.ledger.check(feed.quotaClass, feed.costPerPoll, 'background');
      if (!budget.ok) {
        health.nextPollAt = clock.now() + budget.waitMs;
        continue;
      }
      await this.#poll(feed, health, interval, feeds);
    }
    const keys = directoryKeys(this.#options.directoryId);
    const report: DirectoryReport = {
      at: clock.now(),
      quotas: this.#options.ledger.snapshot(),
      connection: this.#options.connection(),
    };
    await this.#options.store
      .setMany([
        { key: keys.feedHealth, value: [...this.#health.values()] },
        { key: keys.directoryReport, value: report },
      ])
      .catch(() => {});
  }

  /** Health of every feed as this instance knows it. */
  health(): FeedHealth[] {
    return [...this.#health.values()].map((h) => ({ ...h }));
  }

  /** Health as last saved by whichever instance polls `directoryId` (for `status` on any instance). */
  static async savedHealth(store: Keyv, directoryId: string): Promise<FeedHealth[]> {
    return (await store.get<FeedHealth[]>(directoryKeys(directoryId).feedHealth)) ?? [];
  }

  /** The directory as the instance polling `directoryId` last saw it; undefined before any poll. */
  static async savedReport(store: Keyv, directoryId: string): Promise<DirectoryReport | undefined> {
    return (await store.get<DirectoryReport>(directoryKeys(directoryId).directoryReport)) ?? undefined;
  }

  #plan(feeds: readonly Feed[]): Map<string, number> {
    return planCadence({
      feeds,
      quotas: this.#options.ledger.snapshot(),
      windowMs: this.#options.windowMs,
      reserveFraction: this.#options.reserveFraction,
      minIntervalMs: this.#options.minIntervalMs,
    });
  }

  async #poll(feed: Feed, health: FeedHealth, interval: number, feeds: readonly Feed[]): Promise<void> {
    const { clock } = this.#options;
    const startedAt = clock.now();
    health.lastPollAt = startedAt;
    try {
      const summary = await this.#options.runFeed(feed, this.#abort.signal);
      health.lastSuccessAt = clock.now();
      health.consecutiveFailures = 0;
      health.lastFound = summary.found;
      delete health.lastError;
      // Planned from the limits this poll's responses reported: before the first response the
      // ledger holds the spec's defaults, and a service with lower limits would see the next
      // poll too soon, leaving a later one to wait for the window's reset.
      const planned = this.#plan(feeds).get(feed.name) ?? interval;
      health.nextPollAt = startedAt + jitteredInterval(planned, this.#options.minIntervalMs, Math.random);
      this.#options.onEvent?.({ type: 'polled', summary, ms: clock.now() - startedAt });
    } catch (error) {
      // Cut short by stop(): the feed did not fail, and the next poller polls it again.
      if (this.#abort.signal.aborted) return;
      health.consecutiveFailures += 1;
      health.lastError = messageOf(error);
      const retryAfter = (error as { retryAfterMs?: number }).retryAfterMs;
      const retryInMs = Math.min(
        MAX_ERROR_BACKOFF_MS,
        Math.max(retryAfter ?? 0, interval * 2 ** Math.min(health.consecutiveFailures - 1, 5)),
      );
      health.nextPollAt = clock.now() + retryInMs;
      this.#options.onEvent?.({ type: 'poll-failed', feed: feed.name, error, retryInMs });
    }
  }

  #schedule(delayMs: number): void {
    if (!this.#running) return;
    this.#timer = setTimeout(() => {
      this.#current = this.tick()
        .catch((error: unknown) => {
          this.#options.onEvent?.({ type: 'poll-failed', feed: 'posts', error, retryInMs: 1000 });
        })
        .finally(() => {
          this.#current = undefined;
          this.#schedule(this.#untilNextDue());
        });
    }, delayMs);
  }

  #untilNextDue(): number {
    const now = this.#options.clock.now();
    const due = [...this.#health.values()].map((h) => (h.nextPollAt ?? now) - now);
    // Re-check at least every few seconds: subscriptions or limits may have changed.
    return Math.max(50, Math.min(5000, ...due));
  }
}
