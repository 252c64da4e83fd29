import { randomUUID } from 'node:crypto';

/**
 * Named, time-limited leases: exactly one holder at a time across every instance sharing
 * the store. A holder renews before expiry; when it dies, another takes over once the
 * lease lapses. Keyv has no compare-and-set, so each backend does it natively.
 */
export interface LeaseBackend {
  /** Takes the lease if free or expired, or renews it if `owner` holds it. True when `owner` holds it now. */
  acquire(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up early (on shutdown) so a successor need not wait for expiry. */
  release(name: string, owner: string): Promise<void>;
  /** The current holder, or undefined when free or expired. */
  holder(name: string): Promise<string | undefined>;
  /**
   * Deletes expired leases where the backend keeps them (SQL rows; Redis expires its own): one
   * claim per Slack interaction (leaseClaims) would otherwise leave a row each. Resolves with
   * how many went.
   */
  forgetExpired?(now: number): Promise<number>;
}

/**
 * "Was this seen before?" answered atomically across instances: each claim takes the lease named
 * `key` for a one-off owner, which no later claim (another owner) can take until it expires.
 */
export function leaseClaims(leases: LeaseBackend): { claim(key: string, ttlMs: number): Promise<boolean> } {
  return { claim: (key, ttlMs) => leases.acquire(key, randomUUID(), ttlMs) };
}
