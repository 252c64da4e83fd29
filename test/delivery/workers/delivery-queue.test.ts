import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import Keyv from 'keyv';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { workersFor } from '../../../src/app/worker-wiring.js';
import type { Config } from '../../../src/config/config.js';
import { Outbox, type OutboxEntry } from '../../../src/delivery/outbox.js';
import { DeliveryQueue } from '../../../src/delivery/workers/delivery-queue.js';
import { checkRedisForWorkers, workerNames } from '../../../src/delivery/workers/drain-jobs.js';
import { HandOff } from '../../../src/delivery/workers/hand-off.js';
import { SharedPacer } from '../../../src/delivery/workers/shared-pacer.js';
import { isBotError } from '../../../src/errors.js';
import type { ChatAdapter } from '../../../src/ports/index.js';
import { storeBackends } from '../../support/backends.js';
import { makeTempDir } from '../../support/temp-dir.js';

/** The workers' shared state in Redis (ADR 005): FIFOs, pacing, the hand-off and the start-up checks. */

const temp = makeTempDir();
const redisBackend = (await storeBackends(join(temp.path, 'unused.sqlite'))).find((b) => b.name === 'redis')!;
const connections: Redis[] = [];
const connect = () => {
  const redis = new Redis(redisBackend.url, { maxRetriesPerRequest: null });
  connections.push(redis);
  return redis;
};
const prefixes: string[] = [];
afterAll(async () => {
  // Every key this file wrote (each test has its own prefix).
  if (redisBackend.unavailable === undefined) {
    const redis = connect();
    for (const prefix of prefixes)
      for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 }) as AsyncIterable<
        string[]
      >)
        if (keys.length > 0) await redis.unlink(...keys);
  }
  for (const redis of connections) redis.disconnect();
  temp.cleanup();
});

function entry(channel: number, item: number, edit?: { revision: number }): OutboxEntry {
  return {
    destination: { platform: 'console', channelId: `C${channel}` },
    destinationKey: `console:C${channel}`,
    itemKey: edit ? `posts:new:${item}#edit` : `posts:new:${item}`,
    message: { kind: 'post', title: `Post ${item} r${edit?.revision ?? 0}`, fallback: `Post ${item}` },
    subscriptionIds: [],
    enqueuedAt: 1,
    attempts: 0,
    notBefore: 0,
    ...(edit ? { edit: { messageId: `m${item}`, revision: edit.revision } } : {}),
  };
}

describe.skipIf(redisBackend.unavailable !== undefined)('the delivery workers’ state in Redis', () => {
  let prefix: string;
  beforeEach(() => {
    prefix = `test-workers-${randomUUID()}`;
    prefixes.push(prefix);
  });

  it('queues an item once however often it is handed over, and keeps each channel’s order', async () => {
    const queue = new DeliveryQueue(connect(), prefix);
    expect(await queue.append('console:C1', [entry(1, 1), entry(1, 2)])).toBe(2);
    expect(await queue.append('console:C1', [entry(1, 1), entry(1, 3)])).toBe(1);
    expect(await queue.size()).toBe(3);
    // What `/directory why` reads: the channel's queue, in order.
    expect((await queue.entries('console:C1')).map((e) => e.itemKey)).toEqual([
      'posts:new:1',
      'posts:new:2',
      'posts:new:3',
    ]);
    const order: string[] = [];
    for (let head = await queue.peek('console:C1'); head; head = await queue.peek('console:C1')) {
      order.push(head.entry.itemKey);
      await queue.remove(head.entry);
    }
    expect(order).toEqual(['posts:new:1', 'posts:new:2', 'posts:new:3']);
    expect(await queue.size()).toBe(0);
  });

  it('coalesces a queued edit, and keeps a newer one that arrived while the older was in flight', async () => {
    const queue = new DeliveryQueue(connect(), prefix);
    await queue.append('console:C1', [entry(1, 1, { revision: 1 })]);
    await queue.append('console:C1', [entry(1, 1, { revision: 3 })]);
    await queue.append('console:C1', [entry(1, 1, { revision: 2 })]);
    const head = await queue.peek('console:C1');
    expect(head?.entry.edit?.revision).toBe(3);
    await queue.claim(head!.entry, 1);
    await queue.append('console:C1', [entry(1, 1, { revision: 4 })]);
    await queue.remove(head!.entry);
    expect((await queue.peek('console:C1'))?.entry.edit?.revision).toBe(4);
    expect(await queue.depth('console:C1')).toBe(1);
  });

  it('tells the next worker that a claimed entry’s outcome is unknown, until it is settled', async () => {
    const queue = new DeliveryQueue(connect(), prefix);
    await queue.append('console:C1', [entry(1, 1)]);
    const head = await queue.peek('console:C1');
    expect(head?.claimedBefore).toBe(false);
    await queue.claim(head!.entry, 1);
    expect((await queue.peek('console:C1'))?.claimedBefore).toBe(true);
    await queue.update({ ...head!.entry, attempts: 1, notBefore: 5 });
    const after = await queue.peek('console:C1');
    expect(after?.claimedBefore).toBe(false);
    expect(after?.entry.notBefore).toBe(5);
  });

  it('drops a channel’s queue, and keeps dead deliveries for a replay that checks the ledger', async () => {
    const queue = new DeliveryQueue(connect(), prefix, { now: () => 10 });
    await queue.append('console:C1', [entry(1, 1), entry(1, 2)]);
    expect((await queue.drop('console:C1')).map((e) => e.itemKey)).toEqual(['posts:new:1', 'posts:new:2']);
    expect(await queue.size()).toBe(0);
    await queue.bury({ ...entry(2, 7), attempts: 20 }, 'failed: boom (after 20 attempts)', 5);
    expect(await queue.deadCount()).toBe(1);
    const [dead] = await queue.dead();
    expect(dead?.id).toBe('console:C2|posts:new:7');
    expect(await queue.replay(new Set([dead!.id]))).toEqual(['console:C2']);
    expect(await queue.deadCount()).toBe(0);
    const replayed = await queue.peek('console:C2');
    expect(replayed?.entry).toMatchObject({ attempts: 0, recovered: true });
    // A sandbox started afresh forgets it all.
    expect(await queue.clear()).toBeGreaterThan(0);
    expect(await queue.size()).toBe(0);
    expect(await queue.peek('console:C2')).toBeUndefined();
  });

  it('keeps a dead delivery for the retention and not a moment longer: listed, counted and replayable until then', async () => {
    const DAY = 86_400_000;
    const died = Date.UTC(2026, 2, 29, 1, 30); // the night Europe's clocks go forward: UTC is unmoved
    let now = died;
    const queue = new DeliveryQueue(connect(), prefix, { deadRetentionMs: 3 * DAY, now: () => now });
    await queue.bury(entry(1, 1), 'failed: boom', died);
    await queue.bury(entry(2, 2), 'failed: boom', died + DAY);
    now = died + 3 * DAY - 1;
    expect((await queue.dead()).map((d) => d.id)).toEqual([
      'console:C1|posts:new:1',
      'console:C2|posts:new:2',
    ]);
    // Three days after it died, the first goes; the second, a day younger, stays.
    now = died + 3 * DAY;
    expect((await queue.dead()).map((d) => d.id)).toEqual(['console:C2|posts:new:2']);
    expect(await queue.deadCount()).toBe(1);
    // A replay only finds what is still kept.
    expect(await queue.replay('all')).toEqual(['console:C2']);
    expect(await queue.peek('console:C1')).toBeUndefined();
    // Redis itself drops the set once its newest entry is past the retention, read or not.
    await queue.bury(entry(3, 3), 'failed: boom', now - 3 * DAY + 60_000);
    const ttl = await connect().pttl(`${prefix}:dead`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('reads the dead deliveries an earlier version kept in a list, ages and all', async () => {
    const redis = connect();
    const now = Date.UTC(2026, 5, 1);
    const old = (item: number, at: number) =>
      JSON.stringify({ id: `console:C1|posts:new:${item}`, at, reason: 'failed', entry: entry(1, item) });
    await redis.rpush(`${prefix}:dead`, old(1, now - 40 * 86_400_000), old(2, now - 86_400_000));
    const queue = new DeliveryQueue(redis, prefix, { now: () => now });
    expect((await queue.dead()).map((d) => d.id)).toEqual(['console:C1|posts:new:2']);
    await queue.bury(entry(1, 3), 'failed', now);
    expect(await queue.deadCount()).toBe(2);
  });

  it('spends one budget for every worker: a limit taken by one pacer holds the other', async () => {
    const adapter = {
      platform: 'console',
      pacing: { perDestination: { ratePerSecond: 1, burst: 1 }, global: { limit: 50, windowMs: 1000 } },
    } as unknown as ChatAdapter;
    const send = { destinationKey: 'console:C1', destination: { platform: 'console' } };
    const one = new SharedPacer(connect(), `${prefix}:pace`);
    const two = new SharedPacer(connect(), `${prefix}:pace`);
    expect(await one.take(send, adapter)).toBe(0);
    const wait = await two.take(send, adapter);
    expect(wait).toBeGreaterThan(800);
    expect(wait).toBeLessThanOrEqual(1000);
    // A 429 for the whole bot, seen by one worker, holds every worker's sends to any channel.
    one.rateLimited(send, adapter, 5000, true);
    await one.flushed();
    expect(await two.take({ ...send, destinationKey: 'console:C2' }, adapter)).toBeGreaterThan(4000);
  });

  it('books each destination waiting for a shared pace its own next slot, so they do not all wake for one', async () => {
    const adapter = {
      platform: 'console',
      pacing: { perDestination: { ratePerSecond: 1, burst: 1 }, global: { ratePerSecond: 10, burst: 1 } },
    } as unknown as ChatAdapter;
    const send = (n: number) => ({ destinationKey: `console:C${n}`, destination: { platform: 'console' } });
    const one = new SharedPacer(connect(), `${prefix}:pace`);
    const two = new SharedPacer(connect(), `${prefix}:pace`);
    expect(await one.take(send(1), adapter)).toBe(0);
    // The bot's pace (one per 100 ms) binds: C2, C3, C4 get successive slots, whichever worker asks.
    const waits = [
      await two.take(send(2), adapter),
      await one.take(send(3), adapter),
      await two.take(send(4), adapter),
    ];
    for (const [i, wait] of waits.entries()) {
      expect(wait).toBeGreaterThan(100 * (i + 1) - 30);
      expect(wait).toBeLessThanOrEqual(100 * (i + 1));
    }
    // Asking again before its slot does not book another: C5 still comes after C4.
    expect(await one.take(send(2), adapter)).toBeGreaterThan(0);
    expect(await one.take(send(5), adapter)).toBeGreaterThan(400 - 60);
    // Once its slot comes, the booked send goes without being charged again.
    await new Promise((resolve) => setTimeout(resolve, waits[0]! + 5));
    expect(await two.take(send(2), adapter)).toBe(0);
    // A destination's own limit binding is not booked on the bot's pace: C1 waits about a second
    // for its own 1/s, and C6 is not pushed behind that second.
    expect(await one.take(send(1), adapter)).toBeGreaterThan(500);
    expect(await one.take(send(6), adapter)).toBeLessThan(500);
  });

  it('holds booked sends that start late to the window they start in, so late sends do not bunch', async () => {
    const adapter = {
      platform: 'console',
      pacing: { global: { limit: 3, windowMs: 1000 } },
    } as unknown as ChatAdapter;
    const send = (n: number) => ({ destinationKey: `console:C${n}`, destination: { platform: 'console' } });
    const one = new SharedPacer(connect(), `${prefix}:pace`);
    const two = new SharedPacer(connect(), `${prefix}:pace`);
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    expect(await one.take(send(1), adapter)).toBe(0);
    // Evenly spaced slots, 500 ms apart (3 per second, one spare).
    const waits = [
      await one.take(send(2), adapter),
      await two.take(send(3), adapter),
      await one.take(send(4), adapter),
    ];
    expect(waits[2]).toBeGreaterThan(1400);
    // C2 and C3 start late, together: both fit (C1 has left the window)...
    await sleep(1010);
    expect(await two.take(send(2), adapter)).toBe(0);
    expect(await one.take(send(3), adapter)).toBe(0);
    // ... and C4, on time for its slot, waits for them to leave the window instead of making three.
    await sleep(Math.max(0, waits[2]! - 1010) + 5);
    const late = await two.take(send(4), adapter);
    expect(late).toBeGreaterThan(300);
    expect(late).toBeLessThanOrEqual(1000);
    await sleep(late + 5);
    expect(await two.take(send(4), adapter)).toBe(0);
  });

  it('hands the outbox over once: entries left by an earlier version, and again after a crash', async () => {
    const keyv = new Keyv();
    const outbox = new Outbox({ keyv, directoryId: 'd1' });
    await outbox.enqueue([entry(1, 1), entry(2, 1)]);
    const names = { ...workerNames(prefix, 'd1') };
    const handOff = new HandOff({ outbox, redisUrl: redisBackend.url, names });
    handOff.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const queue = new DeliveryQueue(connect(), names.queuePrefix);
    await handOff.close();
    expect(outbox.size()).toBe(0);
    expect(await queue.size()).toBe(2);
    // Routing sees them as queued while the workers have them.
    expect(outbox.has('console:C1', 'posts:new:1')).toBe(true);
    // A poller that died before emptying its outbox: the same entries are handed over again.
    const again = new Outbox({ keyv: new Keyv(), directoryId: 'd1' });
    await again.enqueue([entry(1, 1), entry(2, 1), entry(2, 2)]);
    const second = new HandOff({ outbox: again, redisUrl: redisBackend.url, names });
    second.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await second.close();
    expect(await queue.size()).toBe(3);
    const drains = new Redis(redisBackend.url);
    connections.push(drains);
    expect(await drains.exists(`${names.bullPrefix}:${names.queueName}:meta`)).toBe(1);
  });

  it('refuses at start a Redis that would evict, or is too old, with the fix in one line', async () => {
    const info = (text: string) => ({ info: async () => text }) as unknown as Redis;
    await expect(
      checkRedisForWorkers(info('redis_version:7.2.4\r\nmaxmemory_policy:noeviction\r\n')),
    ).resolves.toBe(undefined);
    const evicting = checkRedisForWorkers(info('redis_version:7.2.4\r\nmaxmemory_policy:allkeys-lru\r\n'));
    await expect(evicting).rejects.toThrow(/maxmemory-policy is allkeys-lru.*noeviction/);
    await expect(checkRedisForWorkers(info('redis_version:4.0.9\r\n'))).rejects.toThrow(
      /Redis 4\.0\.9.*5\.0/,
    );
    await evicting.catch((error: unknown) => expect(isBotError(error, 'config_invalid')).toBe(true));
  });

  it('refuses a worker on a store that cannot share, naming REDIS_URL', async () => {
    const config = {
      workers: { mode: 'auto', inWeb: true, concurrency: 16 },
      store: {},
    } as unknown as Config;
    const refused = workersFor(config, { kind: 'sqlite' }, 'directory-bot', 'd1', 'worker');
    await expect(refused).rejects.toThrow(/REDIS_URL/);
    expect(await workersFor(config, { kind: 'postgres' }, 'directory-bot', 'd1', 'start')).toBeUndefined();
  });
});
