import { describe, expect, it } from 'vitest';
import { WindowLimiter } from '../../../src/delivery/dispatch/window-limiter.js';

/**
 * Sends `count` requests as early as the limiter allows, each answered `latencyMs` later, and
 * returns when each was sent and answered (a simulated clock: no waiting).
 */
function sendAsSoonAsAllowed(limiter: WindowLimiter, count: number, latencyMs: number) {
  const requests: { sentAt: number; answeredAt: number }[] = [];
  const pending: { at: number; answer: (at: number) => void }[] = [];
  let now = 0;
  while (requests.length < count) {
    for (const p of pending.filter((p) => p.at <= now)) p.answer(p.at);
    const wait = limiter.waitMs(now);
    if (wait > 0) {
      now += Math.min(wait, 1);
      continue;
    }
    pending.push({ at: now + latencyMs, answer: limiter.take(now) });
    requests.push({ sentAt: now, answeredAt: now + latencyMs });
  }
  return requests;
}

describe('WindowLimiter', () => {
  it('lets the whole limit go at once', () => {
    const requests = sendAsSoonAsAllowed(new WindowLimiter({ limit: 50, windowMs: 1000 }), 50, 5);
    expect(new Set(requests.map((r) => r.sentAt))).toEqual(new Set([0]));
  });

  it('never lets more than the limit into any window, wherever it arrives within its round trip', () => {
    const requests = sendAsSoonAsAllowed(new WindowLimiter({ limit: 50, windowMs: 1000 }), 500, 40);
    // The platform counts a request at some moment between sending and answering. Worst case: the
    // earlier ones as late as possible, the later ones as early as possible.
    for (const first of requests) {
      const inWindow = requests.filter((r) => r.sentAt >= first.sentAt && r.sentAt < first.answeredAt + 1000);
      expect(inWindow.length).toBeLessThanOrEqual(50);
    }
    // …and still sends the limit every window and a round trip: the last ten windows later.
    expect(requests.at(-1)?.sentAt).toBe(9 * 1040);
  });

  it('holds everything for a platform-wide Retry-After', () => {
    const limiter = new WindowLimiter({ limit: 50, windowMs: 1000 });
    limiter.drainFor(700, 100);
    expect(limiter.waitMs(100)).toBe(700);
    expect(limiter.waitMs(800)).toBe(0);
  });
});
