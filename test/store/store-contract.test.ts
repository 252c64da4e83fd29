import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isBotError } from '../../src/errors.js';
import type { BotStore } from '../../src/store/bot-store.js';
import { createStore } from '../../src/store/create-store.js';
import { leaseClaims } from '../../src/store/leases.js';
import { storeBackends } from '../support/backends.js';
import { makeTempDir } from '../support/temp-dir.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());
const backends = await storeBackends(join(temp.path, 'contract.sqlite'));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(backends)('the $name store', (backend) => {
  let store: BotStore;
  beforeEach((context) => {
    if (backend.unavailable) context.skip(backend.unavailable);
    store = createStore({ url: backend.url, namespace: `contract-${randomUUID()}` });
  });
  afterEach(async () => {
    await store?.keyv.clear().catch(() => {});
    await store?.close();
  });

  it('answers a ping', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('reads back what it stored, including nested JSON and unicode', async () => {
    const value = { cursor: 42, seen: ['a', 'b'], note: 'مرحبا 👋 <!channel>' };
    await store.keyv.set('feed:comments', value);
    expect(await store.keyv.get('feed:comments')).toEqual(value);
  });

  it('forgets a key once its TTL has passed', async () => {
    // The TTL runs from the set call; a store's first query also connects (and PostgreSQL
    // creates its table), which on a busy machine took longer than a short TTL. Connect first
    // and give the key a TTL no round trip comes near.
    await store.ping();
    await store.keyv.set('dedupe:short', true, 1_000);
    expect(await store.keyv.get('dedupe:short')).toBe(true);
    await sleep(1_300);
    expect(await store.keyv.get('dedupe:short')).toBeUndefined();
  });

  it('keeps a key without TTL', async () => {
    await store.keyv.set('subscriptions', [1, 2, 3]);
    await sleep(50);
    expect(await store.keyv.get('subscriptions')).toEqual([1, 2, 3]);
  });

  it('sweeps expired keys that nothing reads again, so the store plateaus', async () => {
    await store.keyv.set('sent:old', 1, 50);
    await store.keyv.set('sent:fresh', 1, 60_000);
    await store.keyv.set('subscriptions', []);
    await sleep(200);
    const removed = await store.sweepExpired();
    // Redis expires keys by itself; the SQL backends delete them here.
    expect(removed).toBe(backend.name === 'redis' ? 0 : 1);
    expect(await store.sweepExpired()).toBe(0);
    expect(await store.keyv.get('sent:fresh')).toBe(1);
    expect(await store.keyv.get('subscriptions')).toEqual([]);
  });

  it('deletes every key under a prefix and nothing else, taking the prefix literally', async () => {
    await store.keyv.set('dir:a:feed-state:comments', { newestId: '349' });
    await store.keyv.set('dir:a:sent:console:sandbox:live:new:111', 1, 60_000);
    await store.keyv.set('dir:ab:feed-state:comments', { newestId: '12' });
    // `_` and `%` are wildcards in SQL LIKE, `*` and `?` in Redis MATCH: none may widen the match.
    await store.keyv.set('dir:a_x:feed-state:posts', 1);
    await store.keyv.set('dir:%:feed-state:posts', 1);
    await store.keyv.set('subscriptions', [1]);
    const other = createStore({ url: backend.url, namespace: `contract-other-${randomUUID()}` });
    try {
      await other.keyv.set('dir:a:feed-state:comments', 'other namespace');
      expect(await store.deleteByPrefix('dir:a:')).toBe(2);
      expect(await store.deleteByPrefix('dir:_:')).toBe(0);
      expect(await store.deleteByPrefix('dir:*')).toBe(0);
      expect(await store.keyv.get('dir:a:feed-state:comments')).toBeUndefined();
      expect(await store.keyv.get('dir:a:sent:console:sandbox:live:new:111')).toBeUndefined();
      expect(await store.keyv.get('dir:ab:feed-state:comments')).toEqual({ newestId: '12' });
      expect(await store.keyv.get('dir:a_x:feed-state:posts')).toBe(1);
      expect(await store.keyv.get('dir:%:feed-state:posts')).toBe(1);
      expect(await store.keyv.get('subscriptions')).toEqual([1]);
      expect(await other.keyv.get('dir:a:feed-state:comments')).toBe('other namespace');
      expect(await store.deleteByPrefix('dir:%:')).toBe(1);
    } finally {
      await other.keyv.clear().catch(() => {});
      await other.close();
    }
  });

  it('lists the keys made of literal parts in order, in its own namespace only', async () => {
    await store.keyv.set('dir:a:sent:slack:C1:live:new:1', 1, 60_000);
    await store.keyv.set('dir:b:sent:slack:C1:post:9', 1, 60_000);
    await store.keyv.set('dir:a:sent:slack:C12:post:9', 1, 60_000);
    await store.keyv.set('dir:a:sent:slack:C_1:post:9', 1, 60_000);
    await store.keyv.set('sent:slack:C1:post:9', 1);
    const other = createStore({ url: backend.url, namespace: `contract-other-${randomUUID()}` });
    try {
      await other.keyv.set('dir:a:sent:slack:C1:post:1', 1);
      expect(await store.keysMatching(['dir:', ':sent:slack:C1:'])).toEqual([
        'dir:a:sent:slack:C1:live:new:1',
        'dir:b:sent:slack:C1:post:9',
      ]);
      // `_`, `%` and `*` match only themselves.
      expect(await store.keysMatching(['dir:', ':sent:slack:C_'])).toEqual(['dir:a:sent:slack:C_1:post:9']);
      expect(await store.keysMatching(['dir:*'])).toEqual([]);
      expect(await store.keysMatching(['sent:'])).toEqual(['sent:slack:C1:post:9']);
    } finally {
      await other.keyv.clear().catch(() => {});
      await other.close();
    }
  });

  it('deletes a key and reports whether it existed', async () => {
    await store.keyv.set('gone', 1);
    expect(await store.keyv.delete('gone')).toBe(true);
    expect(await store.keyv.get('gone')).toBeUndefined();
  });

  it('keeps two namespaces apart', async () => {
    const other = createStore({ url: backend.url, namespace: `contract-other-${randomUUID()}` });
    try {
      await store.keyv.set('shared-key', 'mine');
      expect(await other.keyv.get('shared-key')).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('grants a lease to one owner at a time and lets the holder renew it', async () => {
    const name = `poller-${randomUUID()}`;
    expect(await store.leases.acquire(name, 'instance-a', 2000)).toBe(true);
    expect(await store.leases.acquire(name, 'instance-b', 2000)).toBe(false);
    expect(await store.leases.acquire(name, 'instance-a', 2000)).toBe(true);
    expect(await store.leases.holder(name)).toBe('instance-a');
  });

  it('hands an expired lease to the next instance', async () => {
    const name = `poller-${randomUUID()}`;
    expect(await store.leases.acquire(name, 'instance-a', 150)).toBe(true);
    await sleep(300);
    expect(await store.leases.acquire(name, 'instance-b', 2000)).toBe(true);
    expect(await store.leases.holder(name)).toBe('instance-b');
  });

  it('deletes expired leases on the sweep where it keeps them (one per Slack interaction claimed)', async () => {
    const claims = leaseClaims(store.leases);
    const name = `slack:replay:contract-${randomUUID()}`;
    // A second long enough that the copy's claim lands inside it on a starved machine too.
    expect(await claims.claim(name, 1_000)).toBe(true);
    expect(await claims.claim(name, 1_000)).toBe(false);
    await sleep(1_200);
    if (backend.name === 'redis') expect(store.leases.forgetExpired).toBeUndefined();
    else if (backend.name === 'sqlite') {
      // This file's own database: the hourly sweep took the row, so none is left to forget.
      await store.sweepExpired();
      expect(await store.leases.forgetExpired?.(Date.now())).toBe(0);
    } else expect(await store.leases.forgetExpired?.(Date.now())).toBeGreaterThanOrEqual(1);
    // Expired, so free: a copy arriving after the window is a new request.
    expect(await claims.claim(name, 50)).toBe(true);
  });

  it('keeps a live lease through a sweep run on a clock ahead of the wall clock (a test clock)', async () => {
    const name = `poller:contract-${randomUUID()}`;
    expect(await store.leases.acquire(name, 'instance-a', 60_000)).toBe(true);
    await store.sweepExpired(Date.now() + 24 * 3_600_000);
    expect(await store.leases.acquire(name, 'instance-b', 60_000)).toBe(false);
    expect(await store.leases.holder(name)).toBe('instance-a');
  });

  it('frees a released lease at once', async () => {
    const name = `poller-${randomUUID()}`;
    await store.leases.acquire(name, 'instance-a', 60_000);
    await store.leases.release(name, 'instance-a');
    expect(await store.leases.holder(name)).toBeUndefined();
    expect(await store.leases.acquire(name, 'instance-b', 2000)).toBe(true);
  });
});

describe('a SQLite store file', () => {
  it('writes through a write-ahead log beside the file, and a clean close folds it back in', async () => {
    const file = join(temp.path, `wal-${randomUUID()}.sqlite`);
    const store = createStore({ url: `sqlite://${file}` });
    await store.keyv.set('outbox:queue:slack:C1', ['item-1']);
    const query = (store.keyv.store as { query: (sql: string) => Promise<unknown[]> }).query;
    expect(await query('PRAGMA journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    // NORMAL (1): a commit survives the process being killed; see useWriteAheadLog.
    expect(await query('PRAGMA synchronous')).toEqual([{ synchronous: 1 }]);
    expect(existsSync(`${file}-wal`)).toBe(true);
    await store.close();

    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = createStore({ url: `sqlite://${file}` });
    expect(await reopened.keyv.get('outbox:queue:slack:C1')).toEqual(['item-1']);
    await reopened.close();
  });
});

describe('an unreachable store', () => {
  it('surfaces a store_unavailable error instead of hanging or answering empty', async () => {
    const store = createStore({ url: 'redis://127.0.0.1:1', namespace: 'unreachable', onError: () => {} });
    try {
      const error = await store.ping(1500).catch((e: unknown) => e);
      expect(isBotError(error, 'store_unavailable')).toBe(true);
      expect(String(error)).toContain('redis');
    } finally {
      await store.close().catch(() => {});
    }
  });
});
