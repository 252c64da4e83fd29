import type Keyv from 'keyv';
import { type DirectoryKeys, directoryKeys } from '../store/directory-keys.js';

/**
 * Remembers what each destination already received, one key per (destination, item, event
 * kind), with a TTL longer than any feed window so the store plateaus instead of growing.
 * Item ids are the directory's, so the ledger is kept per directory: "live event 111 was
 * posted here" says nothing about another directory's event 111.
 */
export class DeliveredLedger {
  readonly #keyv: Keyv;
  readonly #ttlMs: number;
  readonly #keys: DirectoryKeys;

  constructor(options: { keyv: Keyv; ttlMs: number; directoryId: string }) {
    this.#keyv = options.keyv;
    this.#ttlMs = options.ttlMs;
    this.#keys = directoryKeys(options.directoryId);
  }

  /** Marks delivered; call only after the platform confirmed the post. */
  async markDelivered(destination: string, itemKey: string): Promise<void> {
    await this.#keyv.set(this.#keys.delivered(destination, itemKey), 1, this.#ttlMs);
  }

  /** Which of the (destination, item) pairs were already delivered. */
  async delivered(pairs: readonly { destination: string; itemKey: string }[]): Promise<boolean[]> {
    if (pairs.length === 0) return [];
    const values = await this.#keyv.getMany(pairs.map((p) => this.#keys.delivered(p.destination, p.itemKey)));
    return values.map((value) => value !== undefined && value !== null);
  }
}
