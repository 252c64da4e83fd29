import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../../src/delivery/dispatch/token-bucket.js';

describe('the pacing token bucket', () => {
  it('allows a burst, then one message per interval', () => {
    const bucket = new TokenBucket({ ratePerSecond: 1, burst: 3 }, 0);
    for (let i = 0; i < 3; i += 1) {
      expect(bucket.waitMs(0)).toBe(0);
      bucket.take(0);
    }
    expect(bucket.waitMs(0)).toBe(1000);
    expect(bucket.waitMs(1000)).toBe(0);
  });

  it('honours a Retry-After by emptying itself for that long', () => {
    const bucket = new TokenBucket({ ratePerSecond: 1, burst: 3 }, 0);
    bucket.drainFor(5000, 0);
    expect(bucket.waitMs(0)).toBe(5000);
    expect(bucket.waitMs(4999)).toBeGreaterThan(0);
    expect(bucket.waitMs(5000)).toBe(0);
  });
});
