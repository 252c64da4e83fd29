import type Keyv from 'keyv';

/**
 * Remembers what each destination already received, one key per (destination, item, event
 * kind), with a TTL longer than any feed window so the store plateaus instead of growing.
 */
export class DeliveredLedger {
  readonly #keyv: Keyv;
  readonly #ttlMs: number;

  constructor(options: { keyv: Keyv; ttlMs: number }) {
    this.#keyv = options.keyv;
    this.#ttlMs = options.ttlMs;
  }

  /** Marks delivered; call only after the platform confirmed the post. */
  async markDelivered(destination: string, itemKey: string): Promise<void> {
    await this.#keyv.set(key(destination, itemKey), 1, this.#ttlMs);
  }

  /** Which of the (destination, item) pairs were already delivered. */
  async delivered(pairs: readonly { destination: string; itemKey: string }[]): Promise<boolean[]> {
    if (pairs.length === 0) return [];
    const values = await this.#keyv.getMany(pairs.map((p) => key(p.destination, p.itemKey)));
    return values.map((value) => value !== undefined && value !== null);
  }
}

function key(destination: string, itemKey: string): string {
  return `sent:${destination}:${itemKey}`;
}
