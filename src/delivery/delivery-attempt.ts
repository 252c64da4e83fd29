import { messageOf } from '../errors.js';
import type { ChatAdapter, DeliveryOutcome } from '../ports/chat-adapter.js';
import type { Clock } from '../ports/clock.js';
import type { DeliveredLedger } from './dedupe.js';
import type { DispatchEvent } from './dispatch-events.js';
import type { Outbox, OutboxEntry } from './outbox.js';
import type { Pacer } from './pacer.js';
import { backoff } from './retry-backoff.js';
import { sendEntry } from './send-entry.js';
import { settleOutcome } from './settle-outcome.js';
import type { SubscriptionRepository } from './subscriptions.js';
import type { ThreadDelivery } from './thread-delivery.js';

export interface AttemptDeps {
  outbox: Outbox;
  ledger: DeliveredLedger;
  subscriptions: SubscriptionRepository;
  clock: Clock;
  pacer: Pacer;
  threads: ThreadDelivery;
  maxAttempts: number;
  onEvent?: ((event: DispatchEvent) => void) | undefined;
}

/**
 * One try at one outbox entry: never post what the ledger says was posted, send, then settle
 * what the platform answered. A store failure around the post keeps the entry in memory.
 */
export class DeliveryAttempts {
  readonly #deps: AttemptDeps;

  constructor(deps: AttemptDeps) {
    this.#deps = deps;
  }

  /** `answered` is told when the platform answered. */
  async run(
    adapter: ChatAdapter,
    entry: OutboxEntry,
    answered: (at: number) => void,
    startedAt: number,
  ): Promise<void> {
    const { outbox, ledger, clock, onEvent, pacer } = this.#deps;
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
      outcome = await sendEntry(adapter, entry, this.#deps.threads);
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
    if (outcome.status === 'delivered') pacer.stated(entry.destinationKey, outcome.bucket, clock.now());
    try {
      await settleOutcome(adapter, entry, outcome, startedAt, {
        ...this.#deps,
        recordDelivered: (e, at) => this.#recordDelivered(e, at),
      });
    } catch (error) {
      this.#backOffInMemory(entry, error);
    }
  }

  /** Mark delivered only after the platform confirmed the post, then forget the entry. */
  async #recordDelivered(entry: OutboxEntry, startedAt: number): Promise<void> {
    const { outbox, ledger, clock, onEvent } = this.#deps;
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
    entry.notBefore = this.#deps.clock.now() + backoff(entry.attempts);
    this.#deps.onEvent?.({ type: 'error', entry, error });
  }
}
