/**
 * The three stores the footprint benchmark measures, each on a place of its own: a temporary
 * SQLite file, a key namespace on the Redis server, a database of its own on the PostgreSQL
 * server (created and dropped here, so the table's size is the benchmark's alone). Also the
 * bench-only bulk writer for delivered-ledger entries: the bot writes them one at a time as
 * messages go out, which would make seeding a million of them the slowest part of the run.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import KeyvRedis from '@keyv/redis';
import type { BotStore, StoreKind } from '../../src/store/bot-store.js';
import { createStore } from '../../src/store/create-store.js';
import { directoryKeys } from '../../src/store/directory-keys.js';
import { makeTempDir } from '../support/temp-dir.js';

export interface BenchStore {
  kind: StoreKind;
  store: BotStore;
  /** What the store holds for the benchmark, bytes (file, table, or Redis memory of its keys). */
  sizeBytes(): Promise<number>;
  /** Keys of the benchmark's namespace, expired ones not yet removed included. */
  countKeys(): Promise<number>;
  /** What reclaims the space of swept keys: nothing on SQLite (pages are reused), VACUUM on PostgreSQL. */
  afterSweep(): Promise<void>;
  /** Writes ledger entries with one statement (SQLite, PostgreSQL) or pipeline (Redis) per chunk. */
  writeLedger(entries: readonly { destination: string; itemKey: string }[], expiresAt: number): Promise<void>;
  close(): Promise<void>;
}

export const BENCH_DIRECTORY = 'bench';
const NAMESPACE = `bench-footprint-${process.pid}`;
const CHUNK = 5_000;

/** Where each store kind lives for the benchmark; undefined when no server is configured. */
export function storeUrl(kind: StoreKind): string | undefined {
  if (kind === 'sqlite') return 'sqlite://';
  if (kind === 'redis') return process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
  return process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
}

export async function openBenchStore(kind: StoreKind, url: string): Promise<BenchStore> {
  if (kind === 'sqlite') return sqlite();
  if (kind === 'redis') return redis(url);
  return postgres(url);
}

const ledgerKey = (e: { destination: string; itemKey: string }) =>
  `${NAMESPACE}:${directoryKeys(BENCH_DIRECTORY).delivered(e.destination, e.itemKey)}`;
/** keyv's own serialisation of a value with an expiry (the bench checks the bot reads these back). */
const ledgerValue = (expiresAt: number) => JSON.stringify({ value: 1, expires: expiresAt });

function chunks<T>(all: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < all.length; i += CHUNK) out.push(all.slice(i, i + CHUNK));
  return out;
}

type Query = (sql: string, params?: unknown[]) => Promise<unknown[]>;
const queryOf = (store: BotStore) => (store.keyv.store as { query: Query }).query;

function sqlite(): BenchStore {
  const temp = makeTempDir('directory-bot-bench-');
  const path = join(temp.path, 'footprint.sqlite');
  const store = createStore({ url: `sqlite://${path}`, namespace: NAMESPACE });
  const query = queryOf(store);
  return {
    kind: 'sqlite',
    store,
    // The write-ahead log holds what has not been checkpointed into the file yet.
    sizeBytes: async () =>
      statSync(path).size + (statSync(`${path}-wal`, { throwIfNoEntry: false })?.size ?? 0),
    countKeys: async () => Number(((await query('SELECT COUNT(*) AS n FROM keyv')) as { n: number }[])[0]?.n),
    afterSweep: async () => {},
    async writeLedger(entries, expiresAt) {
      const value = ledgerValue(expiresAt);
      await query('BEGIN');
      try {
        // 400 rows per statement stays under SQLite's 999 bound variables of older builds.
        for (let i = 0; i < entries.length; i += 400) {
          const rows = entries.slice(i, i + 400);
          await query(
            `INSERT INTO keyv (key, value) VALUES ${rows.map(() => '(?, ?)').join(', ')} ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
            rows.flatMap((e) => [ledgerKey(e), value]),
          );
        }
        await query('COMMIT');
      } catch (error) {
        await query('ROLLBACK');
        throw error;
      }
    },
    async close() {
      await store.close();
      temp.cleanup();
    },
  };
}

interface RedisClient {
  scanIterator(options: { MATCH: string; COUNT: number }): AsyncIterable<string[]>;
  memoryUsage(key: string): Promise<number | null>;
  del(key: string): Promise<number>;
  multi(): { set(key: string, value: string, options: { PXAT: number }): unknown; exec(): Promise<unknown> };
}

async function redis(url: string): Promise<BenchStore> {
  const store = createStore({ url, namespace: NAMESPACE });
  // A connection of the benchmark's own for the raw commands (the store's adapter maps keys to
  // the namespace's layout and hides its client). A new namespace is in the flat layout: keyv's
  // key `NAMESPACE:key` (ledgerKey's) is the Redis key itself (src/store/redis-key-layout.ts).
  const raw = new KeyvRedis(url);
  const client = (await raw.getClient()) as unknown as RedisClient;
  const keys = async () => {
    const found: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${NAMESPACE}:*`, COUNT: 1000 }))
      found.push(...batch);
    return found;
  };
  return {
    kind: 'redis',
    store,
    // MEMORY USAGE of a sample of the keys times their number: the server is shared, so its
    // used_memory says nothing about this benchmark.
    async sizeBytes() {
      const all = await keys();
      const step = Math.max(1, Math.floor(all.length / 500));
      const sample = all.filter((_, i) => i % step === 0);
      // node-redis pipelines commands issued together.
      const sizes = await Promise.all(sample.map((key) => client.memoryUsage(key)));
      const bytes = sizes.reduce<number>((sum, n) => sum + (n ?? 0), 0);
      return sample.length === 0 ? 0 : Math.round((bytes / sample.length) * all.length);
    },
    countKeys: async () => (await keys()).length,
    afterSweep: async () => {},
    async writeLedger(entries, expiresAt) {
      const value = ledgerValue(expiresAt);
      for (const chunk of chunks(entries)) {
        const multi = client.multi();
        for (const e of chunk) multi.set(ledgerKey(e), value, { PXAT: expiresAt });
        await multi.exec();
      }
    },
    async close() {
      await store.deleteByPrefix('');
      await store.close();
      // The layout marker is the store's own raw key, not keyv's: deleteByPrefix leaves it.
      await client.del(`${NAMESPACE}:key-layout`);
      await raw.disconnect();
    },
  };
}

/** A database of the benchmark's own next to the configured one, dropped on close. */
async function postgres(url: string): Promise<BenchStore> {
  const database = `directory_bot_footprint_${process.pid}`;
  const admin = createStore({ url, namespace: NAMESPACE });
  await queryOf(admin)(`CREATE DATABASE ${database}`);
  await admin.close();
  const own = new URL(url);
  own.pathname = `/${database}`;
  const store = createStore({ url: own.toString(), namespace: NAMESPACE });
  const query = queryOf(store);
  return {
    kind: 'postgres',
    store,
    sizeBytes: async () =>
      Number(
        ((await query(`SELECT pg_total_relation_size('directory_bot_kv') AS n`)) as { n: string }[])[0]?.n,
      ),
    countKeys: async () =>
      Number(((await query('SELECT COUNT(*) AS n FROM directory_bot_kv')) as { n: string }[])[0]?.n),
    // What autovacuum does within a minute of the hourly sweep: marks the swept rows' space reusable.
    afterSweep: async () => {
      await query('VACUUM directory_bot_kv');
    },
    async writeLedger(entries, expiresAt) {
      const value = ledgerValue(expiresAt);
      for (const chunk of chunks(entries)) {
        await query(
          `INSERT INTO directory_bot_kv (key, value) SELECT k, $2 FROM UNNEST($1::text[]) AS k ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
          [chunk.map(ledgerKey), value],
        );
      }
    },
    async close() {
      await store.close();
      const again = createStore({ url, namespace: NAMESPACE });
      await queryOf(again)(`DROP DATABASE IF EXISTS ${database}`);
      await again.close();
    },
  };
}
