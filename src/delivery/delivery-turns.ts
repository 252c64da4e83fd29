import type { OutboxEntry } from './outbox.js';

/**
 * Which destination the outbox serves next: the one that has waited longest for its turn. A
 * destination's turn starts when its entry may go (`notBefore`) or, once it has had one, when its
 * previous delivery finished. So a burst goes round the channels, each channel's first message
 * before any channel's second. Served in queue order instead, one channel after another would
 * empty its own bucket (Discord: 5 per 5 s) while others had sent nothing, and at the end of the
 * burst the last channels' final messages would wait out their buckets with the global limit idle.
 */
export class DeliveryTurns {
  /** Destinations with more queued: when their last delivery finished, and in which order (same-ms ties). */
  readonly #since = new Map<string, { at: number; order: number }>();
  #finished = 0;

  /** `heads` (one per destination), sorted in the order they should go. */
  order(heads: OutboxEntry[]): OutboxEntry[] {
    const turn = (entry: OutboxEntry) => {
      const since = this.#since.get(entry.destinationKey);
      return since !== undefined && since.at >= entry.notBefore ? since : { at: entry.notBefore, order: 0 };
    };
    const keyed = heads.map((entry) => ({ entry, turn: turn(entry) }));
    keyed.sort(
      (a, b) =>
        a.turn.at - b.turn.at || a.turn.order - b.turn.order || a.entry.enqueuedAt - b.entry.enqueuedAt,
    );
    return keyed.map((k) => k.entry);
  }

  /** A delivery to `destinationKey` finished at `now`; `more`: the destination has entries left. */
  finished(destinationKey: string, more: boolean, now: number): void {
    this.#finished += 1;
    if (more) this.#since.set(destinationKey, { at: now, order: this.#finished });
    else this.#since.delete(destinationKey);
  }
}
