import KeyvRedis from '@keyv/redis';
import { type BotStore, mask, storeOver } from './bot-store.js';
import type { LeaseBackend } from './leases.js';

/** A store in Redis (`redis://`, `rediss://`, Heroku Redis): shared by every instance. */
export function redisStore(url: URL, namespace: string, onError: (error: unknown) => void): BotStore {
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
  return storeOver({
    kind: 'redis',
    description: mask(url),
    adapter,
    namespace,
    onError,
    leases: redisLeases(
      async () => (await adapter.getClient()) as unknown as RedisLike,
      `${namespace}:lease:`,
    ),
    closeAdapter: async () => {
      await adapter.disconnect();
    },
    // Redis expires keys itself.
    sweep: async () => 0,
    // @keyv/redis puts its own `namespace::` in front of keyv's key; ask it rather than guess.
    deleteByPrefix: async (prefix) => {
      const client = (await adapter.getClient()) as unknown as RedisLike;
      const pattern = `${escapeGlob(adapter.createKeyPrefix(prefix, adapter.namespace))}*`;
      let removed = 0;
      for await (const keys of client.scanIterator({ MATCH: pattern, COUNT: 500 })) {
        if (keys.length > 0) removed += await client.unlink(keys);
      }
      return removed;
    },
    // Keys come back with @keyv/redis's own prefix in front of keyv's; strip it.
    keysMatching: async ([first = '', ...rest]) => {
      const client = (await adapter.getClient()) as unknown as RedisLike;
      const head = adapter.createKeyPrefix('', adapter.namespace);
      const pattern = [escapeGlob(`${head}${first}`), ...rest.map(escapeGlob)].join('*') + '*';
      const found: string[] = [];
      for await (const keys of client.scanIterator({ MATCH: pattern, COUNT: 500 })) {
        for (const key of keys) found.push(key.slice(head.length));
      }
      return found;
    },
  });
}

/** The parts of the node-redis client the lease needs. */
export interface RedisLike {
  get(key: string): Promise<string | null>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  scanIterator(options: { MATCH: string; COUNT: number }): AsyncIterable<string[]>;
  unlink(keys: string[]): Promise<number>;
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

/**
 * @keyv/redis 5.1 races its first connect against a `connectionTimeout` timer it never clears
 * (keyv issue #2070, fixed after the last 5.x release our registry carries), so every one-shot
 * command on a Redis store stayed alive for that timeout after closing the store. This keeps
 * the same deadline on a timer that cannot hold the process open by itself; an open socket
 * still does, so a connect in progress is waited for as before.
 */
export function releaseConnectTimer(adapter: KeyvRedis<unknown>): void {
  (adapter as unknown as { createTimeoutPromise(ms: number): Promise<never> }).createTimeoutPromise = (ms) =>
    new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error(`Redis timed out after ${ms}ms`)), ms).unref();
    });
}

/** A literal prefix for a Redis MATCH pattern. */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]^]/g, (c) => `\\${c}`);
}
