import { TokenBucket } from '../delivery/index.js';
import type { Clock } from '../ports/index.js';

export interface UserRateLimiter {
  /** Takes one lookup for this person; 0 when allowed, else ms until the next one is. */
  take(platform: string, userId: string): number;
}

/** Buckets idle this long are full again and can be forgotten. */
const IDLE_FORGET_MS = 10 * 60_000;

/**
 * A token bucket per platform and person: `perMinute` lookups in a burst, refilled evenly
 * over a minute, so one person cannot drain the quota the whole team shares.
 */
export function createUserRateLimiter(options: { clock: Clock; perMinute: number }): UserRateLimiter {
  const perMinute = Math.max(1, options.perMinute);
  const buckets = new Map<string, { bucket: TokenBucket; lastUsed: number }>();
  const limit = { burst: perMinute, ratePerSecond: perMinute / 60 };
  return {
    take(platform, userId) {
      const now = options.clock.now();
      for (const [key, entry] of buckets) if (now - entry.lastUsed > IDLE_FORGET_MS) buckets.delete(key);
      const key = `${platform}:${userId}`;
      const entry = buckets.get(key) ?? { bucket: new TokenBucket(limit, now), lastUsed: now };
      buckets.set(key, entry);
      entry.lastUsed = now;
      const wait = entry.bucket.waitMs(now);
      if (wait > 0) return wait;
      entry.bucket.take(now);
      return 0;
    },
  };
}
