import { describe, expect, it } from 'vitest';
import { createQuotaLedger } from '../../src/directory/quota-ledger.js';
import { isBotError } from '../../src/errors.js';

function fakeTime(start = 1_700_000_000_000) {
  let now = start;
  const sleeps: number[] = [];
  return {
    clock: { now: () => now },
    advance: (ms: number) => {
      now += ms;
    },
    sleeps,
    // Sleeping moves the fake clock, so a waiting call wakes up exactly at its deadline.
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe('quota ledger', () => {
  it('starts from the spec defaults until headers arrive', () => {
    const time = fakeTime();
    const snapshot = createQuotaLedger({ clock: time.clock }).snapshot();
    expect(snapshot.v1).toEqual({
      limit: 900,
      remaining: 900,
      resetAt: null,
      paused: false,
      fromHeaders: false,
    });
    expect(snapshot['v2-requests'].limit).toBe(450);
    expect(snapshot['v2-complexity'].limit).toBe(6250);
  });

  it('takes limit, remaining and reset (seconds from now) from the headers', () => {
    const time = fakeTime();
    const ledger = createQuotaLedger({ clock: time.clock });
    ledger.update('v1', { limit: 25, remaining: 20, resetSeconds: 300 });
    expect(ledger.snapshot().v1).toEqual({
      limit: 25,
      remaining: 20,
      resetAt: time.clock.now() + 300_000,
      paused: false,
      fromHeaders: true,
    });
  });

  it('keeps the reserve from background work but lets interactive lookups spend it', () => {
    const time = fakeTime();
    const ledger = createQuotaLedger({ clock: time.clock, reserveFraction: 0.2 });
    ledger.update('v1', { limit: 100, remaining: 21, resetSeconds: 60 });
    expect(ledger.check('v1', 1, 'background')).toEqual({ ok: true });
    ledger.update('v1', { limit: 100, remaining: 20, resetSeconds: 60 });
    expect(ledger.check('v1', 1, 'background')).toEqual({ ok: false, waitMs: 60_000 });
    expect(ledger.check('v1', 1, 'interactive')).toEqual({ ok: true });
    ledger.update('v1', { limit: 100, remaining: 0, resetSeconds: 60 });
    expect(ledger.check('v1', 1, 'interactive')).toEqual({ ok: false, waitMs: 60_000 });
  });

  it('prices a GraphQL call by its complexity', () => {
    const time = fakeTime();
    const ledger = createQuotaLedger({ clock: time.clock, reserveFraction: 0 });
    ledger.update('v2-complexity', { limit: 6250, remaining: 500, resetSeconds: 900 });
    expect(ledger.check('v2-complexity', 500, 'background').ok).toBe(true);
    expect(ledger.check('v2-complexity', 501, 'background').ok).toBe(false);
  });

  it('treats a negative remaining as none left', () => {
    const time = fakeTime();
    const ledger = createQuotaLedger({ clock: time.clock });
    ledger.update('v2-complexity', { limit: 6250, remaining: -50, resetSeconds: 120 });
    expect(ledger.snapshot()['v2-complexity'].remaining).toBe(0);
    expect(ledger.check('v2-complexity', 1, 'interactive')).toEqual({ ok: false, waitMs: 120_000 });
  });

  it('debits locally so concurrent calls cannot overspend between two responses', async () => {
    const time = fakeTime();
    const ledger = createQuotaLedger({ clock: time.clock, reserveFraction: 0 });
    ledger.update('v1', { limit: 10, remaining: 2, resetSeconds: 30 });
    await ledger.waitFor('v1', 1, 'background');
    await ledger.waitFor('v1', 1, 'background');
    expect(ledger.snapshot().v1.remaining).toBe(0);
    expect(ledger.check('v1', 1, 'background')).toEqual({ ok: false, waitMs: 30_000 });
  });

  it('makes background work wait for the reset instead of overspending', async () => {
    const time = fakeTime();
    const ledger = createQuotaLedger({ clock: time.clock, sleep: time.sleep });
    ledger.update('v1', { limit: 100, remaining: 10, resetSeconds: 90 });
    await ledger.waitFor('v1', 1, 'background');
    expect(time.sleeps).toEqual([90_000]);
    // After the reset the class refills optimistically and the call's cost is debited.
    expect(ledger.snapshot().v1.remaining).toBe(99);
  });

  it('fails with quota_exhausted and retryAfterMs when the wait would exceed maxWaitMs', async () => {
    const time = fakeTime();
    const ledger = createQuotaLedger({
      clock: time.clock,
      sleep: time.sleep,
      maxWaitMs: { interactive: 5_000 },
    });
    ledger.update('v1', { limit: 100, remaining: 0, resetSeconds: 60 });
    const error = await ledger.waitFor('v1', 1, 'interactive').catch((e: unknown) => e);
    expect(isBotError(error, 'quota_exhausted')).toBe(true);
    expect(isBotError(error) && error.retryAfterMs).toBe(60_000);
    expect(time.sleeps).toEqual([]);
  });

  it('pauses a class after a 429 until the reset, for interactive work too', async () => {
    const time = fakeTime();
    const ledger = createQuotaLedger({ clock: time.clock, sleep: time.sleep });
    ledger.update('v1', { limit: 900, remaining: 500, resetSeconds: 400 });
    ledger.pause('v1', 30_000);
    expect(ledger.snapshot().v1.paused).toBe(true);
    expect(ledger.check('v1', 1, 'interactive')).toEqual({ ok: false, waitMs: 30_000 });
    expect(ledger.check('v2-requests', 1, 'interactive')).toEqual({ ok: true });
    time.advance(30_000);
    expect(ledger.snapshot().v1.paused).toBe(false);
    expect(ledger.check('v1', 1, 'interactive')).toEqual({ ok: true });
  });

  it('pauses until the known reset when a 429 says nothing about when', () => {
    const time = fakeTime();
    const ledger = createQuotaLedger({ clock: time.clock });
    ledger.update('v2-requests', { limit: 450, remaining: 0, resetSeconds: 12 });
    ledger.pause('v2-requests', undefined);
    expect(ledger.check('v2-requests', 1, 'interactive')).toEqual({ ok: false, waitMs: 12_000 });
  });

  it('follows the operator when the headers show a new limit', () => {
    const time = fakeTime();
    const ledger = createQuotaLedger({ clock: time.clock, reserveFraction: 0.2 });
    ledger.update('v1', { limit: 3000, remaining: 700, resetSeconds: 3600 });
    expect(ledger.check('v1', 1, 'background')).toEqual({ ok: true });
    ledger.update('v1', { limit: 25, remaining: 5, resetSeconds: 900 });
    expect(ledger.check('v1', 1, 'background').ok).toBe(false);
  });

  it('lets a call dearer than a whole period through on a full budget instead of waiting forever', async () => {
    const time = fakeTime();
    const ledger = createQuotaLedger({
      clock: time.clock,
      sleep: time.sleep,
      defaults: { 'v2-complexity': 100 },
    });
    await ledger.waitFor('v2-complexity', 500, 'background');
    expect(time.sleeps).toEqual([]);
  });

  it('rejects a reserve fraction outside [0, 1)', () => {
    expect(() => createQuotaLedger({ reserveFraction: 1 })).toThrow(/reserveFraction/);
  });
});
