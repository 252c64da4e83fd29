import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type Keyv from 'keyv';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Outbox, type OutboxEntry } from '../../src/delivery/outbox.js';
import type { BotStore } from '../../src/store/bot-store.js';
import { createStore } from '../../src/store/create-store.js';
import { directoryKeys } from '../../src/store/directory-keys.js';
import { storeBackends } from '../support/backends.js';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * The outbox's index names every destination with a queue. Draining a fan-out must not rewrite
 * it once per delivery (that made each delivery's cost grow with the number of channels
 * queued), and whatever the outbox has acknowledged must still come back after a SIGKILL.
 */

const temp = makeTempDir();
afterAll(() => temp.cleanup());
const backends = await storeBackends(join(temp.path, 'outbox-index.sqlite'));

const DIRECTORY = 'dirindex';
const INDEX = directoryKeys(DIRECTORY).outboxIndex;
const WRITES = new Set(['set', 'setMany', 'delete', 'deleteMany']);

function entry(channel: number, item: number): OutboxEntry {
  return {
    destination: { platform: 'console', channelId: `C${channel}` },
    destinationKey: `console:C${channel}`,
    itemKey: `posts:new:${item}`,
    message: { kind: 'post', title: `Post ${item}`, fallback: `Post ${item}` },
    subscriptionIds: [],
    enqueuedAt: 1,
    attempts: 0,
    notBefore: 0,
  };
}

const fanOut = (channels: number, item: number) =>
  Array.from({ length: channels }, (_, channel) => entry(channel, item));

/** The real store's keyv, counting how many names each write of the index carried. */
function countingIndexWrites(keyv: Keyv) {
  const indexWrites: number[] = [];
  const proxy = new Proxy(keyv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property === 'set')
        return (key: string, names: unknown, ttl?: number) => {
          if (key === INDEX) indexWrites.push((names as string[]).length);
          return target.set(key, names, ttl);
        };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { keyv: proxy, indexWrites };
}

/**
 * The real store's keyv in a process that is SIGKILLed after `budget` writes: every write after
 * that never happens and never answers, like one in flight when the process died.
 */
function dyingAfter(keyv: Keyv, budget: number) {
  let left = budget;
  let dead = false;
  let kill = () => {};
  const died = new Promise<'died'>((resolve) => {
    kill = () => {
      dead = true;
      resolve('died');
    };
  });
  const proxy = new Proxy(keyv, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      if (!WRITES.has(String(property))) return value.bind(target);
      return (...args: unknown[]) => {
        if (left <= 0) {
          kill();
          return new Promise(() => {});
        }
        left -= 1;
        return value.apply(target, args);
      };
    },
  });
  return { keyv: proxy, died, isDead: () => dead };
}

const pairs = (entries: readonly OutboxEntry[]) =>
  entries.map((e) => `${e.destinationKey} ${e.itemKey}`).sort();

/** Everything a new poller would load from the store, as `destination item` pairs. */
async function recovered(keyv: Keyv): Promise<string[]> {
  const outbox = new Outbox({ keyv, directoryId: DIRECTORY });
  await outbox.load();
  const found: OutboxEntry[] = [];
  while (outbox.size() > 0) {
    const heads = outbox.heads();
    found.push(...heads);
    for (const head of heads) await outbox.remove(head);
  }
  return found.map((e) => `${e.destinationKey} ${e.itemKey}`).sort();
}

describe.each(backends)('the outbox index on $name', (backend) => {
  let store: BotStore;
  beforeEach((context) => {
    if (backend.unavailable) context.skip(backend.unavailable);
    store = createStore({ url: backend.url, namespace: `outbox-index-${randomUUID()}` });
  });
  afterEach(async () => {
    await store?.keyv.clear().catch(() => {});
    await store?.close();
  });

  it('is rewritten a handful of times, not once per delivery, while a fan-out drains', async () => {
    for (const channels of [100, 1000]) {
      await store.keyv.clear();
      const { keyv, indexWrites } = countingIndexWrites(store.keyv);
      const outbox = new Outbox({ keyv, directoryId: DIRECTORY });
      await outbox.enqueue(fanOut(channels, 1));
      indexWrites.length = 0;

      // Like the dispatcher: 16 channels' deliveries at a time.
      const heads = outbox.heads();
      for (let start = 0; start < heads.length; start += 16)
        await Promise.all(heads.slice(start, start + 16).map((head) => outbox.remove(head)));

      expect(outbox.size()).toBe(0);
      // Before: one rewrite per delivery, of every channel still queued (1,000 writes and
      // 499,500 names for 1,000 channels). Now each name written follows a delivery.
      expect(indexWrites.length).toBeLessThanOrEqual(2 * Math.log2(channels));
      expect(indexWrites.reduce((sum, names) => sum + names, 0)).toBeLessThanOrEqual(2 * channels);
      // Drained, the index names nothing, so a restart reads nothing.
      expect(await store.keyv.get(INDEX)).toEqual([]);
    }
  });

  it('gives a new poller exactly what is left after a partial drain', async () => {
    const outbox = new Outbox({ keyv: store.keyv, directoryId: DIRECTORY });
    await outbox.enqueue([...fanOut(200, 1), ...fanOut(50, 2)]);
    // Empty 150 channels' queues; channels 0–49 keep item 2 and 150–199 keep item 1.
    for (const head of outbox.heads().filter((e) => Number(e.destination.channelId.slice(1)) < 150))
      await outbox.remove(head);
    // A destination whose queue emptied queues again while its name may still be in the index.
    await outbox.enqueue([entry(120, 3), entry(300, 3)]);

    const left = [...fanOut(50, 2), ...fanOut(200, 1).slice(150), entry(120, 3), entry(300, 3)];
    expect(await recovered(store.keyv)).toEqual(pairs(left));
    // What the new poller drained is gone for the next one.
    expect(await recovered(store.keyv)).toEqual([]);
  });

  it("forgets a dropped destination (a removed workspace's channel) at once", async () => {
    const outbox = new Outbox({ keyv: store.keyv, directoryId: DIRECTORY });
    await outbox.enqueue(fanOut(10, 1));
    await outbox.remove(entry(0, 1));
    await outbox.dropDestination('console:C5');

    expect(await store.keyv.get(INDEX)).not.toContain('console:C5');
    expect(await recovered(store.keyv)).toEqual(
      pairs(fanOut(10, 1).filter((_, channel) => ![0, 5].includes(channel))),
    );
  });

  it('loses nothing acknowledged when the process dies after any number of store writes', async () => {
    // Enqueue 24 channels, drain with 4 in flight, enqueue 8 more mid-drain (some channels new,
    // some just emptied), and die after a different number of writes each time.
    for (const budget of [0, 1, 3, 6, 10, 15, 21, 28, 1000]) {
      await store.keyv.clear();
      const { keyv, died, isDead } = dyingAfter(store.keyv, budget);
      const outbox = new Outbox({ keyv, directoryId: DIRECTORY });
      const owed = new Set<string>();
      const alive = async (operation: Promise<unknown>) => (await Promise.race([operation, died])) !== 'died';

      const first = fanOut(24, 1);
      if (await alive(outbox.enqueue(first))) {
        for (const pair of pairs(first)) owed.add(pair);
        let more = false;
        for (let round = 0; ; round += 1) {
          const heads = outbox.heads().slice(0, 4);
          if (heads.length === 0) break;
          // Delivered: owed no more, whether or not its removal lands before the process dies.
          for (const pair of pairs(heads)) owed.delete(pair);
          await Promise.race([Promise.all(heads.map((head) => outbox.remove(head))), died]);
          if (isDead()) break;
          if (round === 2 && !more) {
            more = true;
            const second = [0, 1, 2, 3, 24, 25, 26, 27].map((channel) => entry(channel, 2));
            if (!(await alive(outbox.enqueue(second)))) break;
            for (const pair of pairs(second)) owed.add(pair);
          }
        }
      }

      const found = await recovered(store.keyv);
      for (const pair of owed) expect(found, `budget ${budget}`).toContain(pair);
      if (budget === 1000) expect(found).toEqual([]);
    }
  });
});
