import { messageOf } from '../errors.js';
import type { ChatAdapter, DeliveryOutcome } from '../ports/chat-adapter.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveredLedger } from './dedupe.js';
import { DeliveryTurns } from './delivery-turns.js';
import { sendEdit } from './edits.js';
import { withMuteActions } from './mute-actions.js';
import type { Outbox, OutboxEntry } from './outbox.js';
import { Pacer } from './pacer.js';
import type { SubscriptionRepository } from './subscriptions.js';
import { ThreadDelivery } from './thread-delivery.js';

export type DispatchEvent =
  | { type: 'delivered'; entry: OutboxEntry; ms: number }
  | { type: 'edited'; entry: OutboxEntry; ms: number }
  | { type: 'rejected'; entry: OutboxEntry; code: string; reason: string; dropped: number }
  | { type: 'dropped'; entry: OutboxEntry; code: string; reason: string }
  | { type: 'failed'; entry: OutboxEntry; code: string; reason: string; retryInMs: number }
  | { type: 'abandoned'; entry: OutboxEntry; reason: string }
  | { type: 'error'; entry: OutboxEntry; error: unknown };

export interface DispatcherOptions {
  outbox: Outbox;
  ledger: DeliveredLedger;
  subscriptions: SubscriptionRepository;
  adapters: ReadonlyMap<string, ChatAdapter>;
  clock: Clock;
  /**
   * Deliveries in flight at once per platform, across its destinations (one at a time per
   * destination); per platform so that a slow platform never holds another's slots.
   */
  concurrency?: number;
  /**
   * After this many failures that were not rate limits an entry is given up on (logged and
   * counted); with the backoff capped at 10 minutes that is about three hours of trying.
   */
  maxAttempts?: number;
  onEvent?: (event: DispatchEvent) => void;
}

const BASE_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 10 * 60_000;

/**
 * Drains the outbox: one message at a time per destination (order kept; edits after new ones), many
 * destinations in parallel, paced to each platform's limits before it answers 429. A slow or failing
 * destination holds only its own slot, a slow platform only its own; outcomes are values.
 */
export class Dispatcher {
  readonly #options: Required<Omit<DispatcherOptions, 'onEvent'>> & Pick<DispatcherOptions, 'onEvent'>;
  readonly #inFlight = new Set<string>();
  readonly #inFlightPerPlatform = new Map<string, number>();
  readonly #pacer = new Pacer();
  readonly #threads: ThreadDelivery;
  readonly #turns = new DeliveryTurns();
  #running = false;
  #timer: NodeJS.Timeout | undefined;
  #idle: (() => void)[] = [];

  constructor(options: DispatcherOptions) {
    this.#options = { concurrency: 16, maxAttempts: 20, ...options };
    this.#threads = new ThreadDelivery(options);
  }

  start(): void {
    this.#running = true;
    this.wake();
  }

  /** Stops starting deliveries and resolves once those in flight have finished. */
  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    if (this.#inFlight.size > 0) await new Promise<void>((resolve) => this.#idle.push(resolve));
  }

  /** Looks for work now (after an enqueue). */
  wake(): void {
    if (!this.#running) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pump();
  }

  /** Resolves when the outbox is empty and nothing is in flight (tests and benchmarks). */
  async drained(pollMs = 20): Promise<void> {
    while (this.#options.outbox.size() > 0 || this.#inFlight.size > 0) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  #pump(): void {
    if (!this.#running) return;
    const { outbox, clock, concurrency } = this.#options;
    const now = clock.now();
    let nextWake = Number.POSITIVE_INFINITY;
    for (const entry of this.#turns.order(outbox.heads())) {
      const { platform } = entry.destination;
      if (this.#inFlight.has(entry.destinationKey)) continue;
      const adapter = this.#options.adapters.get(platform);
      if (!adapter || (this.#inFlightPerPlatform.get(platform) ?? 0) >= concurrency) continue;
      const wait = Math.max(entry.notBefore - now, this.#pacer.waitMs(entry.destinationKey, adapter, now));
      if (wait > 0) {
        nextWake = Math.min(nextWake, wait);
        continue;
      }
      const answered = this.#pacer.take(entry.destinationKey, adapter, now);
      this.#inFlight.add(entry.destinationKey);
      this.#inFlightPerPlatform.set(platform, (this.#inFlightPerPlatform.get(platform) ?? 0) + 1);
      void this.#deliver(adapter, entry, answered).finally(() => {
        this.#inFlight.delete(entry.destinationKey);
        this.#inFlightPerPlatform.set(platform, (this.#inFlightPerPlatform.get(platform) ?? 1) - 1);
        this.#turns.finished(entry.destinationKey, outbox.depth(entry.destinationKey) > 0, clock.now());
        if (this.#inFlight.size === 0) for (const resolve of this.#idle.splice(0)) resolve();
        this.wake();
      });
    }
    if (Number.isFinite(nextWake) && this.#timer === undefined) {
      this.#timer = setTimeout(() => {
        this.#timer = undefined;
        this.#pump();
      }, nextWake);
    }
  }

  /** `answered` is told when the platform answered, or that no request was made. */
  async #deliver(adapter: ChatAdapter, entry: OutboxEntry, answered: (at: number) => void): Promise<void> {
    const { clock } = this.#options;
    const startedAt = clock.now();
    try {
      await this.#attempt(adapter, entry, answered, startedAt);
    } finally {
      answered(clock.now());
    }
  }

  async #attempt(
    adapter: ChatAdapter,
    entry: OutboxEntry,
    answered: (at: number) => void,
    startedAt: number,
  ): Promise<void> {
    const { outbox, ledger, subscriptions, clock, onEvent, maxAttempts } = this.#options;
    try {
      if (entry.posted) {
        // Posted already; only recording it failed. Never post it again.
        await this.#recordDelivered(entry, startedAt);
        return;
      }
      // After an attempt whose outcome may not have been recorded (or after a takeover),
      // check before posting. If the store cannot answer, wait: posting blind could repeat.
      // An edit is safe to repeat: it sets the message's whole content.
      if (entry.edit === undefined && (entry.attempts > 0 || entry.recovered)) {
        const [already] = await ledger.delivered([
          { destination: entry.destinationKey, itemKey: entry.itemKey },
        ]);
        if (already) {
          await outbox.remove(entry);
          return;
        }
        entry.recovered = false;
      }
    } catch (error) {
      this.#backOffInMemory(entry, error);
      return;
    }

    let outcome: DeliveryOutcome;
    try {
      outcome = await send(adapter, entry, this.#threads);
    } catch (error) {
      // An adapter should return outcomes, not throw; treat a throw as transient.
      onEvent?.({ type: 'error', entry, error });
      outcome = {
        status: 'failed',
        code: 'adapter_threw',
        reason: messageOf(error),
      };
    }
    answered(clock.now());
    if (outcome.status === 'delivered') this.#pacer.stated(entry.destinationKey, outcome.bucket, clock.now());
    try {
      if (outcome.status === 'delivered' && entry.edit !== undefined) {
        await outbox.remove(entry);
        onEvent?.({ type: 'edited', entry, ms: clock.now() - startedAt });
        return;
      }
      if (outcome.status === 'delivered') {
        entry.posted = true;
        if (outcome.platformMessageId !== undefined) {
          entry.reference = {
            messageId: outcome.platformMessageId,
            postedAt: clock.now(),
            ...(outcome.threadId === undefined ? {} : { threadId: outcome.threadId }),
            ...(outcome.channelId === undefined ? {} : { channelId: outcome.channelId }),
            ...(entry.shown === undefined ? {} : { shown: entry.shown }),
          };
        }
        await this.#recordDelivered(entry, startedAt);
        return;
      }
      // A person who refuses DMs holds no channel and no subscription: drop that one message.
      if (outcome.status === 'rejected' && (outcome.scope === 'message' || entry.destination.direct)) {
        await outbox.remove(entry);
        onEvent?.({ type: 'dropped', entry, code: outcome.code, reason: outcome.reason });
        return;
      }
      if (outcome.status === 'rejected') {
        await subscriptions.pauseDestination(
          entry.destination.platform,
          entry.destination.channelId,
          outcome.code,
          outcome.reason,
        );
        const dropped = await outbox.dropDestination(entry.destinationKey);
        onEvent?.({
          type: 'rejected',
          entry,
          code: outcome.code,
          reason: outcome.reason,
          dropped: dropped.length,
        });
        return;
      }
      const rateLimited = outcome.retryAfterMs !== undefined;
      if (!rateLimited && entry.attempts + 1 >= maxAttempts) {
        await outbox.remove(entry);
        onEvent?.({
          type: 'abandoned',
          entry,
          reason: `${outcome.code}: ${outcome.reason} (after ${maxAttempts} attempts)`,
        });
        return;
      }
      const retryInMs = outcome.retryAfterMs ?? backoff(entry.attempts);
      if (rateLimited) {
        this.#pacer.rateLimited(
          entry.destinationKey,
          adapter,
          retryInMs,
          outcome.global === true,
          clock.now(),
        );
      }
      // A wait for the whole platform holds this entry by the platform's pace, not its own notBefore.
      const notBefore = outcome.global === true ? clock.now() : clock.now() + retryInMs;
      await outbox.reschedule(entry, notBefore, !rateLimited);
      onEvent?.({ type: 'failed', entry, code: outcome.code, reason: outcome.reason, retryInMs });
    } catch (error) {
      this.#backOffInMemory(entry, error);
    }
  }

  /** Mark delivered only after the platform confirmed the post, then forget the entry. */
  async #recordDelivered(entry: OutboxEntry, startedAt: number): Promise<void> {
    const { outbox, ledger, clock, onEvent } = this.#options;
    await ledger.markDelivered(entry.destinationKey, entry.itemKey, entry.reference);
    await outbox.remove(entry);
    onEvent?.({ type: 'delivered', entry, ms: clock.now() - startedAt });
  }

  /**
   * The store failed while checking or recording: keep the entry, back off in memory, and
   * check the ledger next time so a delivered post is not repeated.
   */
  #backOffInMemory(entry: OutboxEntry, error: unknown): void {
    entry.attempts += 1;
    entry.notBefore = this.#options.clock.now() + backoff(entry.attempts);
    this.#options.onEvent?.({ type: 'error', entry, error });
  }
}

/** A channel post, or a direct message where the destination is a person (a reminder). */
function send(adapter: ChatAdapter, entry: OutboxEntry, threads: ThreadDelivery): Promise<DeliveryOutcome> {
  if (entry.edit !== undefined) return sendEdit(adapter, entry, entry.edit);
  const options = { idempotencyKey: `${entry.destinationKey}|${entry.itemKey}` };
  if (entry.destination.direct !== true) {
    // A channel's message gets "Mute this subscription" for the subscription it is delivered for;
    // a reply goes under its post's message when the channel has it (thread-delivery.ts).
    const message = withMuteActions(entry.message, entry.subscriptionIds);
    return threads.send(adapter, entry, message, (destination, m) =>
      adapter.deliver(destination, m, options),
    );
  }
  if (adapter.deliverDirect === undefined) {
    return Promise.resolve({
      status: 'rejected',
      code: 'direct_messages_unsupported',
      reason: `${adapter.platform} cannot send direct messages`,
      scope: 'message',
    });
  }
  return adapter.deliverDirect(entry.destination, entry.message, options);
}

/** Exponential backoff with full jitter, capped. */
function backoff(attempts: number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** attempts);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
