import type Keyv from 'keyv';
import type { DeliveredLedger, Outbox } from '../delivery/index.js';
import type { DirectoryClient } from '../directory/index.js';
import type { FeedItem } from '../feeds/feed-item.js';
import type { Clock, Message } from '../ports/index.js';
import { directoryKeys } from '../store/index.js';
import type { Subscription, SubscriptionRepository } from '../subscriptions/index.js';
import { chooseBackfill, destinationKey } from '../subscriptions/index.js';
import { itemEntry } from './item-entry.js';
import { LOOKUP_RESERVE, recentItems } from './recent-items.js';

/** How often the poller looks for backfills asked on other instances (its own wake it at once). */
export const BACKFILL_TICK_MS = 5_000;
/** The items a subscribe chose are kept this long for the poller; after that it fetches them itself. */
const STASH_TTL_MS = 86_400_000;

/**
 * The items a subscribe command chose for its backfill (issue 29), kept in the store under the
 * request's token until the poller has queued them: the command already fetched them for its
 * preview, and what the reply counted is what the channel gets. Items of the directory, so kept
 * under its keys; gone a day after at the latest (docs/privacy.md).
 */
export class BackfillStash {
  readonly #keyv: Keyv;
  readonly #key: (token: string) => string;

  constructor(options: { keyv: Keyv; directoryId: string }) {
    this.#keyv = options.keyv;
    const keys = directoryKeys(options.directoryId);
    this.#key = (token) => keys.backfill(token);
  }

  async keep(token: string, items: readonly FeedItem[]): Promise<void> {
    await this.#keyv.set(this.#key(token), items, STASH_TTL_MS);
  }

  async read(token: string): Promise<FeedItem[] | undefined> {
    return (await this.#keyv.get<FeedItem[]>(this.#key(token))) ?? undefined;
  }

  async drop(token: string): Promise<void> {
    await this.#keyv.delete(this.#key(token));
  }
}

export type BackfillEvent =
  | {
      type: 'queued';
      platform: string;
      subscriptionId: string;
      /** N of `--backfill N`. */
      asked: number;
      /** Messages queued: the items chosen less those the channel already has or has queued. */
      queued: number;
      /** The items were fetched here (a SUBSCRIPTIONS route, or the command's choice had expired). */
      fetched: boolean;
    }
  /** Not queued this time (the directory, or the lookup reserve spent): tried again at the next tick. */
  | { type: 'deferred'; platform: string; subscriptionId: string; error: unknown }
  | { type: 'tick-failed'; error: unknown };

export interface BackfillRunnerOptions {
  subscriptions: SubscriptionRepository;
  outbox: Outbox;
  ledger: DeliveredLedger;
  stash: BackfillStash;
  client: DirectoryClient;
  compose: (item: FeedItem) => Message;
  clock: Clock;
  /** DEDUPE_TTL_DAYS: only items from within it are backfilled (see chooseBackfill). */
  dedupeTtlMs: number;
  /** Told after messages were queued, so it delivers them now. */
  wake: () => void;
  /** Platforms with an adapter running here; other subscriptions' backfills wait. */
  platforms: () => ReadonlySet<string>;
  /** Platforms whose deliveries carry the item's record (see FeedRunnerOptions). */
  recordPlatforms?: ReadonlySet<string>;
  tickMs?: number;
  onEvent?: (event: BackfillEvent) => void;
}

/**
 * Queues backfills (`--backfill N`, `backfill=N`) on the poller only, like every delivery: for each
 * subscription with one pending, its items (as the subscribe command chose them, or fetched now from
 * the lookup reserve) become outbox entries like any item's (its format, its thread, paced), minus
 * what the channel already has or has queued; only then is the request cleared. A crash in between
 * repeats it, and the outbox and the delivered ledger keep the repeat from posting anything twice.
 */
export function createBackfillRunner(options: BackfillRunnerOptions) {
  const { subscriptions, outbox, ledger, stash, clock } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;

  async function backfill(subscription: Subscription): Promise<number> {
    const request = subscription.backfill;
    if (request === undefined) return 0;
    const now = clock.now();
    let items = await stash.read(request.token);
    const fetched = items === undefined;
    if (items === undefined) {
      const { client, dedupeTtlMs } = options;
      const recent = await recentItems(client, subscription.feed, subscription.filters, now, LOOKUP_RESERVE);
      items = chooseBackfill(recent, subscription, request.count, { now, withinMs: dedupeTtlMs });
    }
    const entries = items.map((item) =>
      itemEntry(item, subscription, options.compose(item), now, options.recordPlatforms),
    );
    const key = destinationKey(subscription.platform, subscription.channelId);
    const had = await ledger.delivered(entries.map((e) => ({ destination: key, itemKey: e.itemKey })));
    const fresh = entries.filter((e, i) => !had[i] && !outbox.has(key, e.itemKey));
    // Durable in the outbox before the request is cleared (see the runner's comment).
    const queued = await outbox.enqueue(fresh);
    await subscriptions.settleBackfill(subscription.id, request.token);
    await stash.drop(request.token);
    options.onEvent?.({
      type: 'queued',
      platform: subscription.platform,
      subscriptionId: subscription.id,
      asked: request.count,
      queued,
      fetched,
    });
    return queued;
  }

  async function tick(): Promise<number> {
    const platforms = options.platforms();
    const pending = (await subscriptions.index()).where(
      (s) => s.backfill !== undefined && s.paused === undefined && platforms.has(s.platform),
    );
    let queued = 0;
    for (const subscription of pending) {
      try {
        queued += await backfill(subscription);
      } catch (error) {
        // The directory or its quota (the lookup reserve is spent): the request stays, and the
        // next tick tries again. One subscription's failure never holds back the others.
        options.onEvent?.({
          type: 'deferred',
          platform: subscription.platform,
          subscriptionId: subscription.id,
          error,
        });
      }
    }
    if (queued > 0) options.wake();
    return queued;
  }

  /** One tick at a time; a wake during one runs another after it (the change may be newer). */
  function runOnce(): Promise<number> {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = tick().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        safely();
      }
    });
    return running;
  }

  function safely(): void {
    runOnce().catch((error: unknown) => options.onEvent?.({ type: 'tick-failed', error }));
  }

  return {
    /** Queues every pending backfill now and resolves with how many messages were queued. */
    runOnce,
    start(): void {
      clearInterval(timer);
      safely();
      timer = setInterval(safely, options.tickMs ?? BACKFILL_TICK_MS);
      timer.unref();
    },
    /** A subscription changed here (a subscribe asked for a backfill): look now, not at the next tick. */
    wake(): void {
      if (timer !== undefined) safely();
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => {});
    },
  };
}
