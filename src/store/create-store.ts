import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import KeyvPostgres from '@keyv/postgres';
import KeyvRedis from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import Keyv, { type KeyvStoreAdapter } from 'keyv';
import { BotError, messageOf } from '../errors.js';
import { withDeadline } from '../ports/deadline.js';
import { escapeGlob, escapeLike, likePattern } from './key-patterns.js';
import { type LeaseBackend, postgresLeases, redisLeases, sqliteLeases } from './leases.js';
import { releaseConnectTimer } from './redis-connect-timer.js';
import { useWriteAheadLog } from './sqlite-write-ahead-log.js';

export type StoreKind = 'sqlite' | 'redis' | 'postgres';

/** The bot's durable state: a keyv instance plus the few atomic operations keyv lacks. */
export interface BotStore {
  readonly kind: StoreKind;
  /** Where the store lives, with any password masked. */
  readonly description: string;
  readonly keyv: Keyv;
  readonly leases: LeaseBackend;
  /** Round-trips to the backend; throws `store_unavailable` when it does not answer. */
  ping(timeoutMs?: number): Promise<void>;
  /**
   * Deletes expired keys. keyv only drops an expired key when something reads it, and the
   * delivered ledger is never read again, so SQL backends need this to plateau. Redis
   * expires keys itself (returns 0). Resolves with the number of keys removed.
   */
  sweepExpired(now?: number): Promise<number>;
  /**
   * Deletes every key that starts with `prefix` (e.g. everything about one directory, see
   * directory-keys.ts). keyv has no such operation, so each backend does it natively.
   * Resolves with the number of keys removed.
   */
  deleteByPrefix(prefix: string): Promise<number>;
  /**
   * The keys (without the namespace) made of `parts` in order, each followed by any text:
   * `['dir:', ':sent:slack:C1:']` finds every directory's ledger entries for one channel. Parts
   * are literal (no wildcards of their own). Expired keys not yet swept are included: they are
   * still on disk. For finding everything about one workspace (src/workspaces/).
   */
  keysMatching(parts: readonly string[]): Promise<string[]>;
  close(): Promise<void>;
}

export interface CreateStoreOptions {
  url: string;
  /** Key prefix, so several bots (or tests) can share one server. */
  namespace?: string;
  /** Called for backend errors keyv reports as events (connection loss, …). */
  onError?: (error: unknown) => void;
}

/** Opens the store the URL names: `sqlite://path`, `redis://`/`rediss://`, or `postgres://`. */
export function createStore(options: CreateStoreOptions): BotStore {
  const url = new URL(options.url);
  const namespace = options.namespace ?? 'directory-bot';
  const onError = options.onError ?? (() => {});
  switch (url.protocol) {
    case 'sqlite:':
      return sqliteStore(options.url, namespace, onError);
    case 'redis:':
    case 'rediss:':
      return redisStore(url, namespace, onError);
    case 'postgres:':
    case 'postgresql:':
      return postgresStore(url, namespace, onError);
    default:
      throw new BotError('config_invalid', `Unsupported store URL protocol "${url.protocol}"`);
  }
}

function wrap(
  kind: StoreKind,
  description: string,
  adapter: unknown,
  namespace: string,
  onError: (error: unknown) => void,
  leases: LeaseBackend,
  closeAdapter: () => Promise<void>,
  sweep: (namespace: string, now: number) => Promise<number>,
  deleteByPrefix: (namespacedPrefix: string) => Promise<number>,
  keysMatching: (namespacedParts: readonly string[]) => Promise<string[]>,
): BotStore {
  // throwOnErrors: a failed write must reach the caller (the outbox decides what to do),
  // never be swallowed into an `undefined` that looks like "not found".
  const keyv = new Keyv({
    store: adapter as KeyvStoreAdapter,
    namespace,
    throwOnErrors: true,
    useKeyPrefix: true,
  });
  keyv.on('error', onError);
  let closed = false;
  return {
    kind,
    description,
    keyv,
    leases,
    async ping(timeoutMs = 2000) {
      try {
        await withDeadline(keyv.get('__ping__'), timeoutMs);
      } catch (error) {
        throw new BotError('store_unavailable', `The ${kind} store is unreachable: ${messageOf(error)}`, {
          cause: error,
        });
      }
    },
    async sweepExpired(now = Date.now()) {
      const swept = await sweep(namespace, now);
      // Expired leases too (every namespace's: an expired lease is free to all of them), by the
      // wall clock their expiry is written in: `now` may be a test's clock, hours ahead, and would
      // take a lease its holder still renews (two pollers at once).
      await leases.forgetExpired?.(Date.now());
      return swept;
    },
    deleteByPrefix(prefix) {
      // The same `namespace:` prefix keyv puts in front of every key (useKeyPrefix).
      return deleteByPrefix(`${namespace}:${prefix}`);
    },
    async keysMatching([first = '', ...rest]) {
      const keys = await keysMatching([`${namespace}:${first}`, ...rest]);
      return keys.map((key) => key.slice(namespace.length + 1)).sort();
    },
    async close() {
      if (closed) return;
      closed = true;
      await closeAdapter();
    },
  };
}

function sqliteStore(rawUrl: string, namespace: string, onError: (error: unknown) => void): BotStore {
  const path = rawUrl.replace(/^sqlite:\/\//, '');
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  // busyTimeout: a restarted process may briefly overlap the old one on the same file.
  const adapter = new KeyvSqlite({ uri: `sqlite://${path}`, busyTimeout: 5000 });
  useWriteAheadLog(adapter);
  return wrap(
    'sqlite',
    `sqlite://${path}`,
    adapter,
    namespace,
    onError,
    sqliteLeases(adapter.query),
    async () => {
      await adapter.close();
    },
    async (ns, now) => {
      const condition = `key LIKE ? AND json_extract(value, '$.expires') IS NOT NULL AND json_extract(value, '$.expires') < ?`;
      const [row] = (await adapter.query(`SELECT COUNT(*) AS n FROM keyv WHERE ${condition}`, [
        `${ns}:%`,
        now,
      ])) as {
        n: number;
      }[];
      await adapter.query(`DELETE FROM keyv WHERE ${condition}`, [`${ns}:%`, now]);
      return Number(row?.n ?? 0);
    },
    async (prefix) => {
      const pattern = `${escapeLike(prefix)}%`;
      const [row] = (await adapter.query(`SELECT COUNT(*) AS n FROM keyv WHERE key LIKE ? ESCAPE '\\'`, [
        pattern,
      ])) as { n: number }[];
      await adapter.query(`DELETE FROM keyv WHERE key LIKE ? ESCAPE '\\'`, [pattern]);
      return Number(row?.n ?? 0);
    },
    async (parts) => {
      const rows = (await adapter.query(`SELECT key FROM keyv WHERE key LIKE ? ESCAPE '\\'`, [
        likePattern(parts),
      ])) as { key: string }[];
      return rows.map((row) => row.key);
    },
  );
}

function redisStore(url: URL, namespace: string, onError: (error: unknown) => void): BotStore {
  const tls = url.protocol === 'rediss:';
  const adapter = new KeyvRedis(
    {
      url: url.toString(),
      socket: {
        // Heroku Redis presents self-signed certificates on rediss:// URLs.
        ...(tls ? { tls: true as const, rejectUnauthorized: false } : {}),
        connectTimeout: 5000,
        reconnectStrategy: (retries: number) => Math.min(200 * 2 ** retries, 5000),
      },
    },
    { throwOnConnectError: true, connectionTimeout: 5000 },
  );
  adapter.on('error', onError);
  releaseConnectTimer(adapter);
  return wrap(
    'redis',
    mask(url),
    adapter,
    namespace,
    onError,
    redisLeases(async () => (await adapter.getClient()) as unknown as RedisLike, `${namespace}:lease:`),
    async () => {
      await adapter.disconnect();
    },
    // Redis expires keys itself.
    async () => 0,
    async (prefix) => {
      const client = (await adapter.getClient()) as unknown as RedisLike;
      // @keyv/redis puts its own `namespace::` in front of keyv's key; ask it rather than guess.
      const pattern = `${escapeGlob(adapter.createKeyPrefix(prefix, adapter.namespace))}*`;
      let removed = 0;
      for await (const keys of client.scanIterator({ MATCH: pattern, COUNT: 500 })) {
        if (keys.length > 0) removed += await client.unlink(keys);
      }
      return removed;
    },
    async ([first = '', ...rest]) => {
      const client = (await adapter.getClient()) as unknown as RedisLike;
      // Keys come back with @keyv/redis's own prefix in front of keyv's; strip it.
      const head = adapter.createKeyPrefix('', adapter.namespace);
      const pattern = [escapeGlob(`${head}${first}`), ...rest.map(escapeGlob)].join('*') + '*';
      const found: string[] = [];
      for await (const keys of client.scanIterator({ MATCH: pattern, COUNT: 500 })) {
        for (const key of keys) found.push(key.slice(head.length));
      }
      return found;
    },
  );
}

function postgresStore(url: URL, namespace: string, onError: (error: unknown) => void): BotStore {
  const sslMode = url.searchParams.get('sslmode');
  // Heroku Postgres requires SSL with a certificate that does not chain to a public CA.
  const ssl =
    sslMode && sslMode !== 'disable' ? { rejectUnauthorized: sslMode === 'verify-full' } : undefined;
  const connectionUrl = new URL(url);
  connectionUrl.searchParams.delete('sslmode');
  const adapter = new KeyvPostgres({
    uri: connectionUrl.toString(),
    ...(ssl ? { ssl } : {}),
    table: 'directory_bot_kv',
    keySize: 512,
    connectionTimeoutMillis: 5000,
  });
  openPostgresStores += 1;
  return wrap(
    'postgres',
    mask(url),
    adapter,
    namespace,
    onError,
    postgresLeases(adapter.query),
    async () => {
      openPostgresStores -= 1;
      // @keyv/postgres keeps one connection pool per process; end it only with the last store.
      if (openPostgresStores === 0) await adapter.disconnect();
    },
    async (ns, now) => {
      const rows = (await adapter.query(
        `DELETE FROM directory_bot_kv WHERE key LIKE $1 AND value LIKE '%"expires":%' AND (value::jsonb->>'expires')::bigint < $2 RETURNING key`,
        [`${ns}:%`, now],
      )) as unknown[];
      return rows.length;
    },
    async (prefix) => {
      const rows = (await adapter.query(
        `DELETE FROM directory_bot_kv WHERE key LIKE $1 ESCAPE '\\' RETURNING key`,
        [`${escapeLike(prefix)}%`],
      )) as unknown[];
      return rows.length;
    },
    async (parts) => {
      const rows = (await adapter.query(`SELECT key FROM directory_bot_kv WHERE key LIKE $1 ESCAPE '\\'`, [
        likePattern(parts),
      ])) as { key: string }[];
      return rows.map((row) => row.key);
    },
  );
}

let openPostgresStores = 0;

/** The parts of the node-redis client the lease needs. */
export interface RedisLike {
  get(key: string): Promise<string | null>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  scanIterator(options: { MATCH: string; COUNT: number }): AsyncIterable<string[]>;
  unlink(keys: string[]): Promise<number>;
}

function mask(url: URL): string {
  const copy = new URL(url);
  if (copy.password) copy.password = '****';
  return copy.toString();
}
