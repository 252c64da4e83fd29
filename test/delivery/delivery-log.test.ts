import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Keyv from 'keyv';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryLog, type DeliveryRecord } from '../../src/delivery/delivery-log.js';
import { createManualClock } from '../../src/emulator/clock.js';
import { type BotStore, createStore } from '../../src/store/index.js';
import { storeBackends } from '../support/backends.js';
import { makeTempDir } from '../support/temp-dir.js';

const DAY = 86_400_000;
const CHANNEL = 'slack:C1';

function record(itemKey: string, at: number, extra: Partial<DeliveryRecord> = {}): DeliveryRecord {
  return { at, destinationKey: CHANNEL, itemKey, outcome: 'delivered', subscriptionIds: ['s1'], ...extra };
}

/**
 * Counts the store calls a log makes, leaving what they do alone; a call made inside another (an
 * in-memory Keyv's setMany sets each key) is not one more round trip.
 */
function counted(keyv: Keyv) {
  const calls: string[] = [];
  let inside = 0;
  for (const name of ['get', 'getMany', 'set', 'setMany', 'delete', 'deleteMany'] as const) {
    const original = keyv[name].bind(keyv) as (...args: unknown[]) => Promise<unknown>;
    (keyv as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      if (inside === 0) calls.push(name);
      inside += 1;
      try {
        return await original(...args);
      } finally {
        inside -= 1;
      }
    };
  }
  return calls;
}

describe('the delivery log', () => {
  const setup = (options: { limit?: number; keyv?: Keyv } = {}) => {
    const clock = createManualClock(10 * DAY);
    const keyv = options.keyv ?? new Keyv();
    const errors: unknown[] = [];
    const log = new DeliveryLog({
      keyv,
      directoryId: 'd1',
      ttlMs: 30 * DAY,
      clock,
      onError: (error) => errors.push(error),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
    });
    return { clock, keyv, log, errors };
  };

  it('answers newest first, and finds the newest record of an item', async () => {
    const { clock, log } = setup();
    await log.record(record('comments:new:1', clock.now(), { link: 'https://chat.test/m1' }));
    clock.advance(1000);
    await log.record(record('comments:new:2', clock.now()));
    expect((await log.recent(CHANNEL)).map((r) => r.itemKey)).toEqual(['comments:new:2', 'comments:new:1']);
    expect(await log.forItem(CHANNEL, 'comments:new:1')).toMatchObject({ link: 'https://chat.test/m1' });
    expect(await log.forItem(CHANNEL, 'comments:new:3')).toBeUndefined();
    expect(await log.recent('slack:C2')).toEqual([]);
  });

  it('keeps only the newest records of a channel', async () => {
    const { clock, log } = setup({ limit: 3 });
    for (let i = 1; i <= 5; i += 1) {
      clock.advance(1000);
      await log.record(record(`comments:new:${i}`, clock.now()));
    }
    expect((await log.recent(CHANNEL)).map((r) => r.itemKey)).toEqual([
      'comments:new:5',
      'comments:new:4',
      'comments:new:3',
    ]);
  });

  it('forgets records older than its TTL', async () => {
    const { clock, log } = setup();
    await log.record(record('comments:new:1', clock.now()));
    clock.advance(29 * DAY);
    await log.record(record('comments:new:2', clock.now()));
    expect((await log.recent(CHANNEL)).map((r) => r.itemKey)).toEqual(['comments:new:2', 'comments:new:1']);
    clock.advance(2 * DAY);
    expect((await log.recent(CHANNEL)).map((r) => r.itemKey)).toEqual(['comments:new:2']);
  });

  it("lets a retry's outcome replace the failure, and keeps one edit per item beside its post", async () => {
    const { clock, log } = setup();
    const later = () => {
      clock.advance(1);
      return clock.now();
    };
    await log.record(record('posts:new:1', clock.now(), { outcome: 'failed', code: 'rate_limited' }));
    await log.record(record('posts:new:1', later(), { outcome: 'failed', code: 'fatal_error' }));
    await log.record(record('posts:new:1', later(), { messageId: 'm1' }));
    for (let i = 0; i < 5; i += 1) await log.record(record('posts:new:1', later(), { outcome: 'edited' }));
    const kept = await log.recent(CHANNEL);
    expect(kept.map((r) => r.outcome)).toEqual(['edited', 'delivered']);
    expect(await log.forItem(CHANNEL, 'posts:new:1')).toMatchObject({ outcome: 'edited' });
  });

  it('cuts a long title and reason to size', async () => {
    const { clock, log } = setup();
    await log.record(
      record('comments:new:1', clock.now(), { title: 'T'.repeat(1000), reason: 'R'.repeat(1000) }),
    );
    const [kept] = await log.recent(CHANNEL);
    expect(kept?.title).toHaveLength(150);
    expect(kept?.reason).toHaveLength(300);
  });

  it('writes the records that arrive during a write together, in one read and one write for all their channels', async () => {
    const keyv = new Keyv();
    // The first write's read waits until the test lets it go.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const getMany = keyv.getMany.bind(keyv);
    let reads = 0;
    keyv.getMany = (async (keys: string[]) => {
      reads += 1;
      if (reads === 1) await held;
      return getMany(keys);
    }) as typeof keyv.getMany;
    const calls = counted(keyv);
    const { clock, log } = setup({ keyv });
    const first = log.record(record('comments:new:0', clock.now()));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const rest = Array.from({ length: 50 }, (_, i) =>
      log.record(record(`comments:new:${i + 1}`, clock.now(), { destinationKey: `slack:C${i % 5}` })),
    );
    release();
    await Promise.all([first, ...rest]);
    expect(calls).toEqual(['getMany', 'set', 'getMany', 'setMany']);
    expect(await log.recent('slack:C3')).toHaveLength(10);
    expect(await log.recent(CHANNEL)).toHaveLength(11);
  });

  it('shows what this process has not written yet', async () => {
    const { clock, log } = setup();
    const writing = log.record(record('comments:new:1', clock.now()));
    expect((await log.recent(CHANNEL)).map((r) => r.itemKey)).toEqual(['comments:new:1']);
    await writing;
  });

  it('never rejects when the store fails: the records are lost, reported, and the next ones are written', async () => {
    const keyv = new Keyv();
    const { clock, log, errors } = setup({ keyv });
    const getMany = keyv.getMany.bind(keyv);
    keyv.getMany = (async () => {
      throw new Error('store down');
    }) as typeof keyv.getMany;
    await expect(log.record(record('comments:new:1', clock.now()))).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    keyv.getMany = getMany;
    await log.record(record('comments:new:2', clock.now()));
    expect((await log.recent(CHANNEL)).map((r) => r.itemKey)).toEqual(['comments:new:2']);
  });

  it("forgets a removed workspace's channels, records not yet written included", async () => {
    const { clock, log } = setup();
    await log.record(record('comments:new:1', clock.now()));
    void log.record(record('comments:new:2', clock.now()));
    await log.forget([CHANNEL]);
    expect(await log.recent(CHANNEL)).toEqual([]);
  });
});

const temp = makeTempDir();
afterAll(() => temp.cleanup());
const backends = await storeBackends(join(temp.path, 'delivery-log.sqlite'));

describe.each(backends)('the delivery log on $name', (backend) => {
  let store: BotStore;
  beforeEach((context) => {
    if (backend.unavailable) context.skip(backend.unavailable);
    store = createStore({ url: backend.url, namespace: `delivery-log-${randomUUID()}` });
  });
  afterEach(async () => {
    await store?.keyv.clear().catch(() => {});
    await store?.close();
  });

  it('keeps every channel of one write, under the directory', async () => {
    const clock = createManualClock(Date.now());
    const log = new DeliveryLog({ keyv: store.keyv, directoryId: 'd1', ttlMs: DAY, clock });
    await Promise.all([
      log.record(record('comments:new:1', clock.now(), { destinationKey: 'slack:C1' })),
      log.record(record('comments:new:2', clock.now(), { destinationKey: 'discord:42' })),
      log.record(record('comments:new:3', clock.now(), { destinationKey: 'slack:C1' })),
    ]);
    const reread = new DeliveryLog({ keyv: store.keyv, directoryId: 'd1', ttlMs: DAY, clock });
    expect((await reread.recent('slack:C1')).map((r) => r.itemKey)).toEqual([
      'comments:new:3',
      'comments:new:1',
    ]);
    expect((await reread.recent('discord:42')).map((r) => r.itemKey)).toEqual(['comments:new:2']);
    expect(await store.keysMatching(['dir:d1:log:'])).toEqual([
      'dir:d1:log:discord:42',
      'dir:d1:log:slack:C1',
    ]);
  });
});
