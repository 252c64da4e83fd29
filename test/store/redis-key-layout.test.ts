import { randomUUID } from 'node:crypto';
import { createClient } from '@keyv/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBotError } from '../../src/errors.js';
import { createStore } from '../../src/store/index.js';
import { storeBackends } from '../support/backends.js';

/**
 * Redis keys: once under the namespace (`ns:subscriptions`) on a store this version starts; a
 * store earlier versions wrote (`ns::ns:subscriptions`) is read and written in place, so an old
 * instance of a rolling deploy loses nothing, until `store migrate-keys` renames its keys.
 */
const redis = (await storeBackends('unused.sqlite')).find((backend) => backend.name === 'redis');
const url = redis?.url ?? 'redis://127.0.0.1:6379';
const raw = createClient({ url });

describe.skipIf(redis?.unavailable !== undefined)('Redis keys', () => {
  beforeAll(async () => {
    await raw.connect();
  });
  afterAll(async () => {
    await raw.quit();
  });

  /** Every raw key of `namespace`, sorted, with its value. */
  async function rawKeys(namespace: string): Promise<Record<string, string | null>> {
    const keys = (await raw.keys(`${namespace}:*`)).sort();
    const values = await Promise.all(keys.map((key) => raw.get(key)));
    return Object.fromEntries(keys.map((key, i) => [key, values[i] ?? null]));
  }

  /** What an earlier version left: a subscriptions document, a queued message with a TTL, a ledger entry. */
  async function writeAsEarlierVersion(namespace: string) {
    const doc = (value: unknown, expires?: number) =>
      JSON.stringify({ value, ...(expires ? { expires } : {}) });
    await raw.set(`${namespace}::${namespace}:subscriptions`, doc([{ id: 's1', feed: 'comments' }]));
    await raw.set(`${namespace}::${namespace}:dir:d1:outbox:queue:slack:C1`, doc([{ itemKey: 'c:1' }]), {
      PX: 600_000,
    });
    await raw.set(`${namespace}::${namespace}:dir:d1:sent:slack:C1:c:0`, doc(1, Date.now() + 600_000), {
      PX: 600_000,
    });
  }

  it('a store this version starts keeps each key once under its namespace', async () => {
    const namespace = `layout-${randomUUID()}`;
    const store = createStore({ url, namespace });
    try {
      await store.keyv.set('subscriptions', [{ id: 's1' }]);
      expect(await store.keyLayout?.()).toBe('flat');
      expect(Object.keys(await rawKeys(namespace))).toEqual([
        `${namespace}:key-layout`,
        `${namespace}:subscriptions`,
      ]);
      expect(await raw.keys(`${namespace}::*`)).toEqual([]);
      // The store's own raw keys are not keyv's: listing the namespace leaves them out.
      await store.leases.acquire('poller:d1', 'me', 5000);
      expect(await store.keysMatching([''])).toEqual(['subscriptions']);
    } finally {
      await raw.del(Object.keys(await rawKeys(namespace)));
      await store.close();
    }
  });

  it('a store earlier versions wrote is read and written where they put it: an old instance sees every change', async () => {
    const namespace = `layout-${randomUUID()}`;
    await writeAsEarlierVersion(namespace);
    const store = createStore({ url, namespace });
    try {
      expect(await store.keyLayout?.()).toBe('legacy');
      expect(await store.keyv.get('subscriptions')).toEqual([{ id: 's1', feed: 'comments' }]);
      await store.keyv.set('subscriptions', [{ id: 's2', feed: 'posts' }]);
      // Where an earlier version reads it, and nowhere else.
      expect(JSON.parse((await raw.get(`${namespace}::${namespace}:subscriptions`)) ?? '{}').value).toEqual([
        { id: 's2', feed: 'posts' },
      ]);
      expect(await raw.exists(`${namespace}:subscriptions`)).toBe(0);
      expect(await store.keysMatching(['dir:', ':outbox:queue:'])).toEqual(['dir:d1:outbox:queue:slack:C1']);
    } finally {
      await raw.del([...Object.keys(await rawKeys(namespace)), ...(await raw.keys(`${namespace}::*`))]);
      await store.close();
    }
  });

  it('migrate-keys refuses while an instance holds the poller lease, then renames every key, keeping values and expiries', async () => {
    const namespace = `layout-${randomUUID()}`;
    await writeAsEarlierVersion(namespace);
    const store = createStore({ url, namespace });
    try {
      // Read once before: this store has found the legacy layout, and must find it again after.
      expect(await store.keyv.get('subscriptions')).toEqual([{ id: 's1', feed: 'comments' }]);
      await store.leases.acquire('poller:d1', 'a-running-bot', 60_000);
      await expect(store.migrateKeyLayout?.()).rejects.toThrow(
        /holds the poller lease .*stop every instance/,
      );
      expect(await raw.keys(`${namespace}::*`)).toHaveLength(3);
      await store.leases.release('poller:d1', 'a-running-bot');

      expect(await store.migrateKeyLayout?.()).toBe(3);
      expect(await raw.keys(`${namespace}::*`)).toEqual([]);
      expect(await store.keyLayout?.()).toBe('flat');
      expect(await store.keyv.get('subscriptions')).toEqual([{ id: 's1', feed: 'comments' }]);
      expect(await store.keyv.get('dir:d1:outbox:queue:slack:C1')).toEqual([{ itemKey: 'c:1' }]);
      const ttl = await raw.pTTL(`${namespace}:dir:d1:outbox:queue:slack:C1`);
      expect(ttl).toBeGreaterThan(500_000);
      expect(await raw.pTTL(`${namespace}:subscriptions`)).toBe(-1);
      // Again: nothing left to rename.
      expect(await store.migrateKeyLayout?.()).toBe(0);
    } finally {
      await raw.del([...Object.keys(await rawKeys(namespace)), ...(await raw.keys(`${namespace}::*`))]);
      await store.close();
    }
  });

  it('a store whose migration was interrupted is refused with a clear error until migrate-keys finishes it', async () => {
    const namespace = `layout-${randomUUID()}`;
    await writeAsEarlierVersion(namespace);
    await raw.set(`${namespace}:key-layout`, 'migrating');
    const bot = createStore({ url, namespace });
    const command = createStore({ url, namespace });
    try {
      const refused = await bot.keyv.get('subscriptions').catch((error: unknown) => error);
      expect(isBotError(refused, 'store_unavailable')).toBe(true);
      expect(String((refused as Error).message)).toMatch(
        /being renamed by "directory-bot store migrate-keys"/,
      );
      expect(await command.migrateKeyLayout?.()).toBe(3);
      expect(await bot.keyv.get('subscriptions')).toEqual([{ id: 's1', feed: 'comments' }]);
    } finally {
      await raw.del([...Object.keys(await rawKeys(namespace)), ...(await raw.keys(`${namespace}::*`))]);
      await bot.close();
      await command.close();
    }
  });
});
