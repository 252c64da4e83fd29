import { randomUUID } from 'node:crypto';
import type { RedisLike } from './create-store.js';

/**
 * Named, time-limited leases: exactly one holder at a time across every instance sharing
 * the store. A holder renews before expiry; when it dies, another takes over once the
 * lease lapses. Keyv has no compare-and-set, so each backend does it natively.
 */
export interface LeaseBackend {
  /** Takes the lease if free or expired, or renews it if `owner` holds it. True when `owner` holds it now. */
  acquire(name: string, owner: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up early (on shutdown) so a successor need not wait for expiry. */
  release(name: string, owner: string): Promise<void>;
  /** The current holder, or undefined when free or expired. */
  holder(name: string): Promise<string | undefined>;
  /**
   * Deletes expired leases where the backend keeps them (SQL rows; Redis expires its own): one
   * claim per Slack interaction (leaseClaims) would otherwise leave a row each. Resolves with
   * how many went.
   */
  forgetExpired?(now: number): Promise<number>;
}

type Query = (sql: string, ...params: unknown[]) => Promise<unknown[]>;

/**
 * "Was this seen before?" answered atomically across instances: each claim takes the lease named
 * `key` for a one-off owner, which no later claim (another owner) can take until it expires.
 */
export function leaseClaims(leases: LeaseBackend): { claim(key: string, ttlMs: number): Promise<boolean> } {
  return { claim: (key, ttlMs) => leases.acquire(key, randomUUID(), ttlMs) };
}

const RENEW_OR_TAKE = `
local current = redis.call('GET', KEYS[1])
if current == false or current == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

export function redisLeases(client: () => Promise<RedisLike>, prefix: string): LeaseBackend {
  return {
    async acquire(name, owner, ttlMs) {
      const result = await (await client()).eval(RENEW_OR_TAKE, {
        keys: [prefix + name],
        arguments: [owner, String(ttlMs)],
      });
      return Number(result) === 1;
    },
    async release(name, owner) {
      await (await client()).eval(RELEASE, { keys: [prefix + name], arguments: [owner] });
    },
    async holder(name) {
      const value = await (await client()).get(prefix + name);
      return value ?? undefined;
    },
  };
}

/** SQLite and PostgreSQL share the upsert; only the placeholder style differs. */
function sqlLeases(query: Query, placeholder: (index: number) => string): LeaseBackend {
  const p = placeholder;
  let ready: Promise<unknown> | undefined;
  const ensureTable = () => {
    ready ??= query(
      `CREATE TABLE IF NOT EXISTS directory_bot_leases (name VARCHAR(255) PRIMARY KEY, owner VARCHAR(255) NOT NULL, expires_at BIGINT NOT NULL)`,
    ).catch((error) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
  const run = (sql: string, params: unknown[]) => query(sql, params);
  return {
    async acquire(name, owner, ttlMs) {
      await ensureTable();
      const now = Date.now();
      await run(
        `INSERT INTO directory_bot_leases (name, owner, expires_at) VALUES (${p(1)}, ${p(2)}, ${p(3)})
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE directory_bot_leases.owner = excluded.owner OR directory_bot_leases.expires_at < ${p(4)}`,
        [name, owner, now + ttlMs, now],
      );
      const rows = (await run(`SELECT owner FROM directory_bot_leases WHERE name = ${p(1)}`, [name])) as {
        owner: string;
      }[];
      return rows[0]?.owner === owner;
    },
    async release(name, owner) {
      await ensureTable();
      await run(`DELETE FROM directory_bot_leases WHERE name = ${p(1)} AND owner = ${p(2)}`, [name, owner]);
    },
    async holder(name) {
      await ensureTable();
      const rows = (await run(`SELECT owner, expires_at FROM directory_bot_leases WHERE name = ${p(1)}`, [
        name,
      ])) as {
        owner: string;
        expires_at: number | string;
      }[];
      const row = rows[0];
      return row && Number(row.expires_at) > Date.now() ? row.owner : undefined;
    },
    async forgetExpired(now) {
      await ensureTable();
      const [row] = (await run(`SELECT COUNT(*) AS n FROM directory_bot_leases WHERE expires_at < ${p(1)}`, [
        now,
      ])) as { n: number | string }[];
      await run(`DELETE FROM directory_bot_leases WHERE expires_at < ${p(1)}`, [now]);
      return Number(row?.n ?? 0);
    },
  };
}

export function sqliteLeases(query: Query): LeaseBackend {
  return sqlLeases(query, () => '?');
}

export function postgresLeases(query: Query): LeaseBackend {
  return sqlLeases(query, (index) => `$${index}`);
}
