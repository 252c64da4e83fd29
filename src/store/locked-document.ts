import { randomBytes } from 'node:crypto';
import type Keyv from 'keyv';
import { sleep } from '../ports/index.js';
import type { LeaseBackend } from './leases.js';

/**
 * One store document that any instance may change: each change reads the document, applies a
 * pure function and writes the result under a short lease, so two instances' edits never
 * overwrite each other. Changes of this instance also run one after another: the lease is
 * re-entrant for its owner, so two at once would read the same list and the later write would
 * undo the earlier.
 */
export class LockedDocument<T> {
  readonly #keyv: Keyv;
  readonly #leases: LeaseBackend;
  readonly #key: string;
  readonly #lockName: string;
  readonly #empty: () => T;
  readonly #ttlMs: number | undefined;
  readonly #owner = randomBytes(6).toString('hex');
  #writes: Promise<unknown> = Promise.resolve();

  /** `ttlMs`: each write keeps the document this long (absent: forever). */
  constructor(options: {
    keyv: Keyv;
    leases: LeaseBackend;
    key: string;
    lockName: string;
    empty: () => T;
    ttlMs?: number;
  }) {
    this.#keyv = options.keyv;
    this.#ttlMs = options.ttlMs;
    this.#leases = options.leases;
    this.#key = options.key;
    this.#lockName = options.lockName;
    this.#empty = options.empty;
  }

  /** The stored value (the empty value when none was ever written). */
  async read(): Promise<T> {
    return (await this.#keyv.get<T>(this.#key)) ?? this.#empty();
  }

  /** Applies `change` to the stored value under the lease; writes only when it returns `next`. */
  update<R>(change: (current: T) => { next?: T; result: R }): Promise<R> {
    const run = this.#writes.then(() => this.#updateLocked(change));
    this.#writes = run.catch(() => {});
    return run;
  }

  async #updateLocked<R>(change: (current: T) => { next?: T; result: R }): Promise<R> {
    await this.#lock();
    try {
      const { next, result } = change(await this.read());
      if (next !== undefined) await this.#keyv.set(this.#key, next, this.#ttlMs);
      return result;
    } finally {
      await this.#leases.release(this.#lockName, this.#owner).catch(() => {});
    }
  }

  async #lock(): Promise<void> {
    for (let attempt = 0; attempt < 100; attempt += 1) {
      if (await this.#leases.acquire(this.#lockName, this.#owner, 5000)) return;
      await sleep(20 + Math.random() * 30);
    }
    throw new Error(`could not lock ${this.#key} for writing within 3 seconds`);
  }
}
