import { describe, expect, it } from 'vitest';
import { Pacer } from '../../../src/delivery/dispatch/pacer.js';
import type { ChatAdapter } from '../../../src/ports/index.js';

/** A platform paced only per destination, by every limit Teams documents for one webhook. */
const teamsLike = {
  platform: 'teams-webhook',
  pacing: {
    perDestination: [
      { limit: 4, windowMs: 1_000 },
      { limit: 60, windowMs: 30_000 },
    ],
  },
} as unknown as ChatAdapter;

const send = { destinationKey: 'teams-webhook:news', destination: { platform: 'teams-webhook' } };

/** Sends as early as the pacer allows, answered at once; returns the send times (a simulated clock). */
function sendTimes(pacer: Pacer, count: number): number[] {
  const times: number[] = [];
  let now = 0;
  while (times.length < count) {
    const wait = pacer.waits(send, teamsLike, now).destination;
    if (wait > 0) {
      now += wait;
      continue;
    }
    pacer.take(send, teamsLike, now)(now);
    times.push(now);
  }
  return times;
}

describe('the pacer with several limits on one destination', () => {
  it('keeps every one of them: 4 in any second and 60 in any 30 seconds', () => {
    const times = sendTimes(new Pacer(), 90);
    for (const [limit, windowMs] of [
      [4, 1_000],
      [60, 30_000],
    ] as const) {
      for (const start of times) {
        const inside = times.filter((t) => t >= start && t < start + windowMs).length;
        expect(inside, `${limit} per ${windowMs} ms from ${start}`).toBeLessThanOrEqual(limit);
      }
    }
    // The 30-second limit binds: the 61st waits for the first one's window to pass.
    expect(times[60]).toBeGreaterThanOrEqual(30_000);
    // Until then the one-second limit paces it: the first 60 take 14 seconds and some.
    expect(times[59]).toBeLessThan(16_000);
  });
});
