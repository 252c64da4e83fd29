import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { createQuotaLedger, type QuotaLedger } from '../../src/directory/index.js';
import { createManualClock, type ManualClock } from '../../src/emulator/index.js';
import { PollScheduler, type PollSchedulerOptions } from '../../src/engine/poll-scheduler.js';
import type { Feed } from '../../src/feeds/feed.js';

const WINDOW_MS = 30_000;

/** A scheduler of the comments feed alone on a manual clock; `options` replace the defaults. */
function commentsScheduler(
  options: (parts: { clock: ManualClock; ledger: QuotaLedger }) => Partial<PollSchedulerOptions>,
) {
  const clock = createManualClock(Date.parse('2026-11-23T15:00:00Z'));
  const ledger = createQuotaLedger({ clock, windowMs: WINDOW_MS, reserveFraction: 0.2 });
  const scheduler = new PollScheduler({
    feeds: [{ name: 'comments', quotaClass: 'v1', costPerPoll: 1 } as Feed],
    runFeed: async () => ({ feed: 'comments', found: 0, queued: 0, held: 0, duplicates: 0 }),
    wantedFeeds: async () => new Set(['comments'] as const),
    ledger,
    connection: () => ({ state: 'ok', since: clock.now() }),
    store: new Keyv(),
    directoryId: 'd1',
    clock,
    windowMs: WINDOW_MS,
    reserveFraction: 0.2,
    minIntervalMs: 0,
    ...options({ clock, ledger }),
  });
  return { scheduler, clock };
}

describe('the feed scheduler', () => {
  it('plans the next poll from the limits the poll just learned, not the spec defaults it started with', async () => {
    // Before any response the ledger assumes the spec's 900 V1 requests; this service allows 30.
    const { scheduler, clock } = commentsScheduler(({ ledger }) => ({
      runFeed: async () => {
        ledger.update('v1', { limit: 30, remaining: 29, resetSeconds: 30 });
        return { feed: 'comments', found: 0, queued: 0, held: 0, duplicates: 0 };
      },
    }));
    await scheduler.tick();
    const [health] = scheduler.health();
    // 24 usable requests per 30 s allow one every 1,250 ms; 900 would have allowed one every 42.
    expect((health?.nextPollAt ?? 0) - clock.now()).toBeGreaterThanOrEqual(1250);
  });

  it('saves the directory as it sees it (quota left, connection) for the instances that do not poll', async () => {
    const store = new Keyv();
    const refused = { state: 'refused' as const, since: 1, detail: '401: unauthorized_oauth' };
    const { scheduler, clock } = commentsScheduler(({ ledger }) => ({
      runFeed: async () => {
        ledger.update('v1', { limit: 900, remaining: 412, resetSeconds: 30 });
        return { feed: 'comments', found: 0, queued: 0, held: 0, duplicates: 0 };
      },
      connection: () => refused,
      store,
    }));
    await scheduler.tick();
    const report = await PollScheduler.savedReport(store, 'd1');
    expect(report?.quotas.v1).toMatchObject({ limit: 900, remaining: 412 });
    expect(report?.connection).toEqual(refused);
    expect(report?.at).toBe(clock.now());
  });

  it('does not count a poll cut short by stop() as a failure', async () => {
    const events: string[] = [];
    let started: () => void = () => {};
    const polling = new Promise<void>((resolve) => {
      started = resolve;
    });
    const { scheduler } = commentsScheduler(() => ({
      runFeed: (_feed, signal) =>
        new Promise((_, reject) => {
          started();
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
      onEvent: (event) => events.push(event.type),
    }));
    scheduler.start();
    await polling;
    await scheduler.stop();
    expect(events).not.toContain('poll-failed');
    expect(scheduler.health()[0]?.consecutiveFailures).toBe(0);
  });
});
