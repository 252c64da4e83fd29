import { describe, expect, it } from 'vitest';
import { jitteredInterval, planCadence } from '../../src/engine/poll-cadence.js';

const quotas = { v1: { limit: 900 }, 'v2-requests': { limit: 450 }, 'v2-complexity': { limit: 6250 } };
const base = { quotas, windowMs: 900_000, reserveFraction: 0.2, minIntervalMs: 1000 };

describe('planning poll cadence from the quota', () => {
  it('shares one class budget among its feeds after the lookup reserve', () => {
    const plan = planCadence({
      ...base,
      feeds: [
        { name: 'comments', quotaClass: 'v1', costPerPoll: 1 },
        { name: 'live', quotaClass: 'v1', costPerPoll: 1 },
      ],
    });
    // 720 usable requests per 15 minutes, planned at 95 % (684) for 2 feeds: every 2.64 s.
    expect(plan.get('comments')).toBe(2632);
    expect(plan.get('live')).toBe(2632);
  });

  it('never polls more often than the configured minimum', () => {
    const plan = planCadence({
      ...base,
      minIntervalMs: 30_000,
      feeds: [{ name: 'comments', quotaClass: 'v1', costPerPoll: 1 }],
    });
    expect(plan.get('comments')).toBe(30_000);
  });

  it('slows down when the operator lowers the limit (read from the headers)', () => {
    const feeds = [{ name: 'posts', quotaClass: 'v2-complexity' as const, costPerPoll: 250 }];
    const before = planCadence({ ...base, feeds }).get('posts') ?? 0;
    const after =
      planCadence({ ...base, feeds, quotas: { ...quotas, 'v2-complexity': { limit: 3125 } } }).get('posts') ??
      0;
    expect(before).toBe(47_369);
    expect(after).toBeGreaterThanOrEqual(2 * before - 1);
    expect(after).toBeLessThanOrEqual(2 * before + 1);
  });

  it('keeps the classes independent', () => {
    const plan = planCadence({
      ...base,
      feeds: [
        { name: 'posts', quotaClass: 'v2-complexity', costPerPoll: 250 },
        { name: 'comments', quotaClass: 'v1', costPerPoll: 1 },
      ],
    });
    expect(plan.get('comments')).toBe(1316);
    expect(plan.get('posts')).toBe(47_369);
  });

  it('spreads polls around the plan, never sooner than the quota floor or the minimum', () => {
    const plan = planCadence({ ...base, feeds: [{ name: 'comments', quotaClass: 'v1', costPerPoll: 1 }] });
    const planned = plan.get('comments') ?? 0;
    // 720 usable requests per 15 minutes allow one every 1,250 ms; the plan is 1,316.
    expect(jitteredInterval(planned, 1000, () => 0)).toBe(1251);
    expect(jitteredInterval(planned, 1000, () => 0.5)).toBe(planned);
    expect(jitteredInterval(planned, 1000, () => 0.9999)).toBe(1382);
    // Where the configured minimum binds, the spread only goes later.
    expect(jitteredInterval(30_000, 30_000, () => 0)).toBe(30_000);
    expect(jitteredInterval(30_000, 30_000, () => 0.9999)).toBe(31_500);
  });
});
