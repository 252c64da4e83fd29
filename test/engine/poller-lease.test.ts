import { describe, expect, it } from 'vitest';
import { type LeaderOptions, PollerLease } from '../../src/engine/poller-lease.js';
import type { LeaseBackend } from '../../src/store/leases.js';
import { eventually } from '../support/polling.js';

/** An in-memory lease store with the same contract as the real backends. */
class MemoryLeases implements LeaseBackend {
  holderOf = new Map<string, { owner: string; until: number }>();
  hang = false;
  async acquire(name: string, owner: string, ttlMs: number): Promise<boolean> {
    if (this.hang) return new Promise(() => {});
    const current = this.holderOf.get(name);
    if (current && current.owner !== owner && current.until > Date.now()) return false;
    this.holderOf.set(name, { owner, until: Date.now() + ttlMs });
    return true;
  }
  async release(name: string, owner: string): Promise<void> {
    if (this.holderOf.get(name)?.owner === owner) this.holderOf.delete(name);
  }
  async holder(name: string): Promise<string | undefined> {
    const current = this.holderOf.get(name);
    return current && current.until > Date.now() ? current.owner : undefined;
  }
}

/** An election for the poller on leases in memory, renewed every 30 ms for 300 ms, started. */
function startElection(work: Pick<LeaderOptions, 'onLead' | 'onFollow'>) {
  const leases = new MemoryLeases();
  const leader = new PollerLease({ leases, ttlMs: 300, renewEveryMs: 30, ...work });
  leader.start();
  return { leases, leader };
}

describe('leader election', () => {
  it('retries when starting to poll fails, instead of holding the lease idle forever', async () => {
    let attempts = 0;
    const { leases, leader } = startElection({
      onLead: async () => {
        attempts += 1;
        if (attempts === 1) throw new Error('store blip while loading the outbox');
      },
      onFollow: async () => {},
    });
    await eventually(() => leader.isLeader && attempts === 2, 3000, 'second attempt to lead');
    await expect(leader.stop()).resolves.toBeUndefined();
    expect(await leases.holder('poller')).toBeUndefined();
  });

  it('stops working when the store hangs, before its lease can lapse', async () => {
    let following = 0;
    const { leases, leader } = startElection({
      onLead: async () => {},
      onFollow: async () => {
        following += 1;
      },
    });
    await eventually(() => leader.isLeader, 2000, 'leadership');
    leases.hang = true;
    await eventually(() => !leader.isLeader, 2000, 'giving up after the store stopped answering');
    expect(following).toBe(1);
    await leader.stop();
  });

  it('never throws from stop, even when stopping the work fails', async () => {
    const { leases, leader } = startElection({
      onLead: async () => {},
      onFollow: async () => {
        throw new Error('dispatcher would not stop');
      },
    });
    await eventually(() => leader.isLeader, 2000, 'leadership');
    await expect(leader.stop()).resolves.toBeUndefined();
    expect(await leases.holder('poller')).toBeUndefined();
  });
});
