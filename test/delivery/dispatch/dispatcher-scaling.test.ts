import Keyv from 'keyv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeliveredLedger } from '../../../src/delivery/delivered-ledger.js';
import { DeliveryTurns } from '../../../src/delivery/dispatch/delivery-turns.js';
import { Dispatcher } from '../../../src/delivery/dispatch/dispatcher.js';
import { Outbox, type OutboxEntry } from '../../../src/delivery/outbox.js';
import { systemClock } from '../../../src/ports/clock.js';
import type { ChatAdapter, DeliveryOutcome, Destination, Message } from '../../../src/ports/index.js';
import { SubscriptionRepository } from '../../../src/subscriptions/subscription-repository.js';
import { freeLeases } from '../../support/free-leases.js';

/** An outbox that counts how often the whole list of destinations is asked for. */
class CountingOutbox extends Outbox {
  headsCalls = 0;
  override heads(): OutboxEntry[] {
    this.headsCalls += 1;
    return super.heads();
  }
}

/** A platform that answers at once and records the channel of every post, in order. */
class RecordingPlatform implements ChatAdapter {
  readonly platform = 'console';
  posts: string[] = [];
  constructor(readonly pacing: ChatAdapter['pacing']) {}
  async start() {}
  async stop() {}
  health() {
    return { ready: true };
  }
  async deliver(destination: Destination, _message: Message): Promise<DeliveryOutcome> {
    this.posts.push(destination.channelId);
    return { status: 'delivered', platformMessageId: `m-${this.posts.length}` };
  }
}

const unpaced = { global: { ratePerSecond: 1e9, burst: 1e9 } };

function entry(channelId: string, n: number, workspaceId?: string): OutboxEntry {
  return {
    destination: { platform: 'console', channelId, ...(workspaceId ? { workspaceId } : {}) },
    destinationKey: `console:${channelId}`,
    itemKey: `comments:new:${n}`,
    message: { kind: 'comment', title: `${n}`, fallback: `${n}` },
    subscriptionIds: ['s1'],
    enqueuedAt: n,
    attempts: 0,
    notBefore: 0,
  };
}

async function drain(entries: OutboxEntry[], pacing: ChatAdapter['pacing']) {
  const keyv = new Keyv();
  const outbox = new CountingOutbox({ keyv, directoryId: 'test' });
  const platform = new RecordingPlatform(pacing);
  await outbox.enqueue(entries);
  const dispatcher = new Dispatcher({
    outbox,
    ledger: new DeliveredLedger({ keyv, ttlMs: 60_000, directoryId: 'test' }),
    subscriptions: new SubscriptionRepository({ keyv, leases: freeLeases, clock: systemClock }),
    adapters: new Map([['console', platform]]),
    clock: systemClock,
  });
  dispatcher.start();
  await dispatcher.drained(5);
  await dispatcher.stop();
  return { outbox, platform };
}

/** One message to each of `n` channels. */
function fanOut(n: number): OutboxEntry[] {
  return Array.from({ length: n }, (_, i) => entry(`C${i}`, i));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the dispatcher with many destinations queued', () => {
  it('does work per delivery that grows with the log of the destinations queued, not with their number', async () => {
    const perDelivery = new Map<number, number>();
    for (const n of [100, 2_000]) {
      const compare = vi.spyOn(DeliveryTurns.prototype, 'compare');
      const { outbox, platform } = await drain(fanOut(n), unpaced);
      expect(platform.posts).toHaveLength(n);
      // Every destination's head is asked for once, when the dispatcher is made: never after a delivery.
      expect(outbox.headsCalls).toBe(1);
      perDelivery.set(n, compare.mock.calls.length / n);
      expect(compare.mock.calls.length / n).toBeLessThan(6 * Math.log2(n));
      compare.mockRestore();
    }
    // 20 times the destinations: a sort of all of them per delivery would be over 20 times the work.
    expect((perDelivery.get(2_000) ?? 0) / (perDelivery.get(100) ?? 1)).toBeLessThan(3);
  });

  it('keeps the turns when a workspace pace holds its channels: every channel its first message before any its second', async () => {
    const channels = ['A', 'B', 'C', 'D'];
    const twoEach = [...channels, ...channels].map((c, i) => entry(c, i, 'T1'));
    const { platform } = await drain(twoEach, {
      ...unpaced,
      perWorkspace: { ratePerSecond: 100, burst: 1 },
    });
    expect(platform.posts).toEqual([...channels, ...channels]);
  });
});
