import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { createQuotaLedger } from '../../src/directory/index.js';
import { createManualClock } from '../../src/emulator/index.js';
import { PollScheduler } from '../../src/engine/poll-scheduler.js';
import type { Feed } from '../../src/feeds/feed.js';

const WINDOW_MS = 30_000;

describe('the feed scheduler', () => {
  it('plans the next poll from the limits the poll just learned, not the spec defaults it started with', async () => {
    const clock = createManualClock(Date.parse('2026-11-23T15:00:00Z'));
    // Before any response the ledger assumes the spec's 900 V1 requests; this service allows 30.
    const ledger = createQuotaLedger({ clock, windowMs: WINDOW_MS, reserveFraction: 0.2 });
    const feed = { name: 'comments', quotaClass: 'v1', costPerPoll: 1 } as Feed;
    const scheduler = new PollScheduler({
      feeds: [feed],
      runFeed: async () => {
        ledger.update('v1', { limit: 30, remaining: 29, resetSeconds: 30 });
        return { feed: 'comments', found: 0, queued: 0, held: 0, duplicates: 0 };
      },
      wantedFeeds: async () => new Set(['comments'] as const),
      ledger,
      store: new Keyv(),
      directoryId: 'd1',
      clock,
      windowMs: WINDOW_MS,
      reserveFraction: 0.2,
      minIntervalMs: 0,
    });
    await scheduler.tick();
    const [health] = scheduler.health();
    // 24 usable requests per 30 s allow one every 1,250 ms; 900 would have allowed one every 42.
    expect((health?.nextPollAt ?? 0) - clock.now()).toBeGreaterThanOrEqual(1250);
  });
});
