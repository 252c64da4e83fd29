import Keyv from 'keyv';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DeliveryLog,
  type DeliveryRecord,
  LOG_LIMIT,
  LOG_PAGE_SIZE,
} from '../../src/delivery/delivery-log.js';
import { createStore } from '../../src/store/create-store.js';
import { storeBackends } from '../support/backends.js';
import { makeTempDir } from '../support/temp-dir.js';

const DAY = 86_400_000;
const TTL = 30 * DAY;
const START = Date.UTC(2025, 0, 15, 12);

function record(n: number, at: number, over: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return {
    at,
    destinationKey: 'slack:C1',
    itemKey: `posts:new:${n}`,
    outcome: 'delivered',
    messageId: `17000000${n}.0001`,
    title: `Post ${n}`,
    subscriptionIds: ['s1'],
    ...over,
  };
}

/** A log of directory `d` on `keyv`, at the time `now` says. */
function logAt(now: () => number, keyv = new Keyv(), directoryId = 'd'): DeliveryLog {
  return new DeliveryLog({ keyv, directoryId, ttlMs: TTL, clock: { now } });
}

/** The item keys of a channel's records, newest first. */
async function itemKeysOf(log: DeliveryLog, destination = 'slack:C1'): Promise<string[]> {
  return (await log.recent(destination)).map((r) => r.itemKey);
}

/** A keyv that counts the calls made to it (not those it makes itself: setMany may call set) and can be made to fail. */
function countingKeyv() {
  const keyv = new Keyv();
  const calls = { get: 0, getMany: 0, set: 0, setMany: 0 };
  let failing = false;
  let inside = false;
  for (const name of Object.keys(calls) as (keyof typeof calls)[]) {
    const original = (keyv[name] as (...args: unknown[]) => Promise<unknown>).bind(keyv);
    (keyv as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      if (inside) return original(...args);
      calls[name] += 1;
      if (failing) throw new Error('store unavailable');
      inside = true;
      try {
        return await original(...args);
      } finally {
        inside = false;
      }
    };
  }
  return { keyv, calls, fail: (on: boolean) => (failing = on) };
}

describe('the delivery log', () => {
  it("answers the newest record of an item, and a channel's records newest first", async () => {
    let now = START;
    const log = logAt(() => now);
    await log.record(record(1, now));
    now += 1000;
    await log.record(record(2, now));
    now += 1000;
    await log.record(record(1, now, { outcome: 'edited' }));
    await log.record({ ...record(9, now), destinationKey: 'slack:C2' });

    expect((await log.forItem('slack:C1', 'posts:new:1'))?.outcome).toBe('edited');
    expect(await log.forItem('slack:C1', 'posts:new:9')).toBeUndefined();
    expect(await itemKeysOf(log)).toEqual(['posts:new:1', 'posts:new:2', 'posts:new:1']);
    expect(await log.recent('slack:C1', 1)).toHaveLength(1);
  });

  it('keeps the newest 200 records of a busy channel and lets the older go', async () => {
    let now = START;
    const log = logAt(() => now);
    for (let n = 1; n <= 260; n += 1) {
      now += 1000;
      await log.record(record(n, now));
    }
    const kept = await log.recent('slack:C1');
    expect(kept.length).toBeGreaterThanOrEqual(LOG_LIMIT - LOG_PAGE_SIZE);
    expect(kept.length).toBeLessThanOrEqual(LOG_LIMIT);
    expect(kept[0]?.itemKey).toBe('posts:new:260');
    // Newest first, none missing from the newest down to the oldest kept.
    const numbers = kept.map((r) => Number(r.itemKey.split(':')[2]));
    expect(numbers).toEqual(numbers.map((_, i) => 260 - i));
    expect(await log.forItem('slack:C1', 'posts:new:1')).toBeUndefined();
    expect(await log.forItem('slack:C1', 'posts:new:100')).toBeDefined();
  });

  it('shows no record older than the TTL, and a quiet channel keeps what is younger', async () => {
    let now = START;
    const log = logAt(() => now);
    // One message every 5 days for 60 days.
    for (let n = 1; n <= 12; n += 1) {
      await log.record(record(n, now));
      now += 5 * DAY;
    }
    now -= 5 * DAY;
    const kept = await itemKeysOf(log);
    expect(kept[0]).toBe('posts:new:12');
    for (const r of await log.recent('slack:C1')) expect(now - r.at).toBeLessThan(TTL);
    // Everything of the last 25 days is still there.
    expect(kept).toEqual([
      'posts:new:12',
      'posts:new:11',
      'posts:new:10',
      'posts:new:9',
      'posts:new:8',
      'posts:new:7',
    ]);
  });

  it('costs one store call per record while it writes a channel, and a read of the page before', async () => {
    let now = START;
    const { keyv, calls } = countingKeyv();
    const log = logAt(() => now, keyv);
    for (let n = 1; n <= 100; n += 1) {
      now += 500;
      await log.record(record(n, now));
    }
    // One read (the first), then one write per record, plus one combined write per page closed.
    expect(calls.get + calls.getMany).toBe(1);
    expect(calls.set + calls.setMany).toBe(100);
    expect(calls.setMany).toBe(Math.floor((100 - 1) / LOG_PAGE_SIZE));
  });

  it('writes records settled together in one read and one write, however many channels they are for', async () => {
    const { keyv, calls } = countingKeyv();
    const log = logAt(() => START, keyv);
    // A fan-out: one item delivered to 100 channels at once.
    await Promise.all(
      Array.from({ length: 100 }, (_, n) =>
        log.record({ ...record(1, START), destinationKey: `slack:C${n}` }),
      ),
    );
    expect(calls).toEqual({ get: 0, getMany: 1, set: 0, setMany: 1 });
    expect(await itemKeysOf(log, 'slack:C99')).toEqual(['posts:new:1']);
  });

  it('shows a record at once, before its batch is written', async () => {
    const log = logAt(() => START);
    const written = log.record(record(7, START));
    expect(await log.forItem('slack:C1', 'posts:new:7')).toMatchObject({ outcome: 'delivered' });
    await written;
  });

  it('shows a record while its batch is being written, and once when the write lands during the read', async () => {
    const keyv = new Keyv();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const set = keyv.set.bind(keyv);
    // The store takes its time with the write, as a busy Redis does.
    keyv.set = (async (...args: Parameters<typeof keyv.set>) => {
      await gate;
      return set(...args);
    }) as typeof keyv.set;
    const log = logAt(() => START, keyv);
    const written = log.record(record(8, START));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve)); // the batch is out of the buffer now
    expect(await itemKeysOf(log)).toEqual(['posts:new:8']);
    const reading = itemKeysOf(log);
    release();
    await written;
    expect(await reading).toEqual(['posts:new:8']);
    expect(await itemKeysOf(log)).toEqual(['posts:new:8']);
  });

  it('reads the page again after a failed write, so records written meanwhile elsewhere survive', async () => {
    let now = START;
    const { keyv, fail } = countingKeyv();
    const log = logAt(() => now, keyv);
    const other = logAt(() => now, keyv);
    await log.record(record(1, now));
    fail(true);
    now += 1000;
    await expect(log.record(record(2, now))).rejects.toThrow('store unavailable');
    fail(false);
    now += 1000;
    await other.record(record(3, now));
    now += 1000;
    await log.record(record(4, now));
    expect(await itemKeysOf(log)).toEqual(['posts:new:4', 'posts:new:3', 'posts:new:1']);
  });

  it('trusts its memory of a page for a minute only: after that it reads what another process wrote', async () => {
    let now = START;
    const keyv = new Keyv();
    const clock = { now: () => now };
    const one = logAt(clock.now, keyv);
    const two = logAt(clock.now, keyv);
    await one.record(record(1, now));
    now += 1000;
    await two.record(record(2, now));
    now += 61_000;
    await one.record(record(3, now));
    expect(await itemKeysOf(one)).toEqual(['posts:new:3', 'posts:new:2', 'posts:new:1']);
  });

  it("keeps each directory's records apart", async () => {
    const keyv = new Keyv();
    const clock = { now: () => START };
    await new DeliveryLog({ keyv, directoryId: 'a', ttlMs: TTL, clock }).record(record(1, START));
    expect(await new DeliveryLog({ keyv, directoryId: 'b', ttlMs: TTL, clock }).recent('slack:C1')).toEqual(
      [],
    );
  });
});

const dir = makeTempDir('delivery-log');
const backends = await storeBackends(`${dir.path}/log.sqlite`);
afterAll(() => dir.cleanup());

describe.each(backends)('the delivery log on $name', (backend) => {
  it.skipIf(backend.unavailable !== undefined)(
    'pages, expires and reads back through the real store',
    async () => {
      const store = await createStore({
        url: backend.url,
        namespace: `log-test-${process.pid}-${Date.now()}`,
      });
      try {
        const now = Date.now();
        const log = new DeliveryLog({
          keyv: store.keyv,
          directoryId: 'd',
          ttlMs: 2_000,
          clock: { now: () => now },
        });
        for (let n = 1; n <= 30; n += 1) await log.record(record(n, now - 30 + n));
        const fresh = new DeliveryLog({
          keyv: store.keyv,
          directoryId: 'd',
          ttlMs: 2_000,
          clock: { now: () => now },
        });
        expect((await fresh.recent('slack:C1')).length).toBe(30);
        expect((await fresh.forItem('slack:C1', 'posts:new:3'))?.title).toBe('Post 3');
        expect(await store.deleteByPrefix('dir:d:log:')).toBe(2);
      } finally {
        await store.close();
      }
    },
  );
});
