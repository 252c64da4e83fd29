import type { OutboxEntry } from '../outbox.js';

/** When a destination's turn started; `order` breaks same-ms ties, then `enqueuedAt`. */
export interface Turn {
  at: number;
  order: number;
  enqueuedAt: number;
}

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

  /** The turn of a destination whose next entry is `head`; it only changes with `head` or `finished`. */
  turn(head: OutboxEntry): Turn {
    const since = this.#since.get(head.destinationKey);
    const { at, order } =
      since !== undefined && since.at >= head.notBefore ? since : { at: head.notBefore, order: 0 };
    return { at, order, enqueuedAt: head.enqueuedAt };
  }

  /** < 0 when the turn `a` comes before `b`. */
  compare(a: Turn, b: Turn): number {
    return a.at - b.at || a.order - b.order || a.enqueuedAt - b.enqueuedAt;
  }

  /** A delivery to `destinationKey` finished at `now`; `more`: the destination has entries left. */
  finished(destinationKey: string, more: boolean, now: number): void {
    this.#finished += 1;
    if (more) this.#since.set(destinationKey, { at: now, order: this.#finished });
    else this.#since.delete(destinationKey);
  }
}
