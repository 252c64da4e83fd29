import KeyvRedis from '@keyv/redis';
import { BotError } from '../errors.js';
import { type BotStore, mask, storeOver } from './bot-store.js';
import type { LeaseBackend } from './leases.js';
import {
  detectKeyLayout,
  escapeGlob,
  isRawKey,
  type LayoutClient,
  LayoutRedisAdapter,
  migrateToFlat,
  type RedisKeyLayout,
  redisKeyOf,
} from './redis-key-layout.js';

/**
 * A store in Redis (`redis://`, `rediss://`, Heroku Redis): shared by every instance. Its keys
 * are laid out flat (`directory-bot:subscriptions`) on a store this version starts, or where
 * earlier versions put them (`directory-bot::directory-bot:…`) until `store migrate-keys` moves
 * them (redis-key-layout.ts).
 */
export function redisStore(url: URL, namespace: string, onError: (error: unknown) => void): BotStore {
  const tls = url.protocol === 'rediss:';
  // No namespace of its own: the layout adapter decides each key (keyv names it `namespace:…`).
  const redis = new KeyvRedis(
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
  redis.on('error', onError);
  releaseConnectTimer(redis);
  const client = async () => (await redis.getClient()) as unknown as RedisLike;
  let found: Promise<RedisKeyLayout> | undefined;
  const layout = () => {
    found ??= client()
      .then((c) => detectKeyLayout(c, namespace))
      .catch((error: unknown) => {
        // Unreachable now is not an answer: ask again on the next call.
        found = undefined;
        throw error;
      });
    return found;
  };
  const adapter = new LayoutRedisAdapter(redis, namespace, layout);
  return storeOver({
    kind: 'redis',
    description: mask(url),
    adapter,
    namespace,
    onError,
    leases: redisLeases(client, `${namespace}:lease:`),
    closeAdapter: async () => {
      await redis.disconnect();
    },
    // Redis expires keys itself.
    sweep: async () => 0,
    deleteByPrefix: async (prefix) => {
      const pattern = `${escapeGlob(redisKeyOf(await layout(), namespace, prefix))}*`;
      const c = await client();
      let removed = 0;
      for await (const keys of c.scanIterator({ MATCH: pattern, COUNT: 500 })) {
        const stored = keys.filter((key) => !isRawKey(namespace, key));
        if (stored.length > 0) removed += await c.unlink(stored);
      }
      return removed;
    },
    // Keys come back as keyv names them: a legacy layout's doubled prefix is taken off.
    keysMatching: async ([first = '', ...rest]) => {
      const head = redisKeyOf(await layout(), namespace, '');
      const pattern = [escapeGlob(`${head}${first}`), ...rest.map(escapeGlob)].join('*') + '*';
      const found: string[] = [];
      const c = await client();
      for await (const keys of c.scanIterator({ MATCH: pattern, COUNT: 500 })) {
        for (const key of keys) if (!isRawKey(namespace, key)) found.push(key.slice(head.length));
      }
      return found;
    },
    keyLayout: layout,
    migrateKeyLayout: async () => {
      const c = await client();
      // A running instance would go on writing where it read: stop them all first.
      for await (const keys of c.scanIterator({
        MATCH: `${escapeGlob(`${namespace}:lease:poller`)}*`,
        COUNT: 500,
      }))
        if (keys.length > 0)
          throw new BotError(
            'store_unavailable',
            `an instance holds the poller lease ${keys[0]} (a bot is running on this store): stop every instance, then run this again`,
          );
      const renamed = await migrateToFlat(c, namespace);
      found = undefined;
      adapter.forgetLayout();
      return renamed;
    },
  });
}

/** The parts of the node-redis client the store uses. */
export interface RedisLike extends LayoutClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
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
