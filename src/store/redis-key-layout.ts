import { EventEmitter } from 'node:events';
import type KeyvRedis from '@keyv/redis';
import { BotError } from '../errors.js';

/**
 * Where keyv's keys live in Redis. keyv puts the namespace in front of every key
 * (`directory-bot:subscriptions`), and @keyv/redis, given the same namespace, put it in front
 * again: versions before this one wrote `directory-bot::directory-bot:subscriptions` (`legacy`).
 * A store first used by this version writes the key as keyv names it (`flat`), as SQLite and
 * PostgreSQL do. A legacy store stays legacy, read and written in place, so old and new instances
 * of a rolling deploy share every document, queue and ledger entry, until
 * `directory-bot store migrate-keys` renames its keys with every instance stopped (see README,
 * "State and the store"). Leases were never doubled (`directory-bot:lease:…`) and do not move.
 */
export type RedisKeyLayout = 'flat' | 'legacy';

/** The parts of the node-redis client the layout needs. */
export interface LayoutClient {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options?: { NX?: boolean }): Promise<string | null>;
  rename(key: string, newKey: string): Promise<string>;
  scanIterator(options: { MATCH: string; COUNT: number }): AsyncIterable<string[]>;
}

/** The raw key that records a namespace's layout (`flat`, `legacy`, or `migrating` while renamed). */
export const layoutMarkerKey = (namespace: string) => `${namespace}:key-layout`;

/** Where, under the namespace, the panel's sign-in limit keeps its counts on Redis (src/app/panel-wiring.ts). */
export const SIGN_IN_LIMIT_KEYS = 'panel:signin-limit:';

/**
 * Whether `key` is one of the store's own raw keys, not keyv's: the leases (`namespace:lease:…`,
 * where every version kept them), the delivery workers' keys (`namespace:workers:…`), the
 * panel's sign-in limit counts (`namespace:panel:signin-limit:…`, rate-limit-redis's) and the
 * layout marker. In the flat layout they share keyv's `namespace:` prefix, so a scan for keyv's
 * keys leaves them out; no keyv key is named so.
 */
export function isRawKey(namespace: string, key: string): boolean {
  // `workers:` holds the delivery workers' lists, hashes and BullMQ's keys (delivery/workers/drain-jobs.ts).
  return (
    key.startsWith(`${namespace}:lease:`) ||
    key.startsWith(`${namespace}:workers:`) ||
    key.startsWith(`${namespace}:${SIGN_IN_LIMIT_KEYS}`) ||
    key === layoutMarkerKey(namespace)
  );
}

/** The Redis key of keyv's key `key` (which already starts `namespace:`). */
export function redisKeyOf(layout: RedisKeyLayout, namespace: string, key: string): string {
  return layout === 'legacy' ? `${namespace}::${key}` : key;
}

/** A literal prefix for a Redis MATCH pattern. */
export function escapeGlob(text: string): string {
  return text.replace(/[\\*?[\]^]/g, (c) => `\\${c}`);
}

/**
 * The namespace's layout: as its marker says, else `legacy` when a doubled key exists, else
 * `flat` (a store this version starts). Either way the answer is marked, so later starts need
 * no scan. A migration under way (or interrupted) is an error: its keys are half moved.
 */
export async function detectKeyLayout(client: LayoutClient, namespace: string): Promise<RedisKeyLayout> {
  const marker = await client.get(layoutMarkerKey(namespace));
  if (marker === 'flat' || marker === 'legacy') return marker;
  if (marker === 'migrating') {
    throw new BotError(
      'store_unavailable',
      `the Redis keys of "${namespace}" are being renamed by "directory-bot store migrate-keys", or that was interrupted (run it again); the bot cannot use them until it has finished`,
    );
  }
  let layout: RedisKeyLayout = 'flat';
  for await (const keys of client.scanIterator({ MATCH: `${escapeGlob(namespace)}::*`, COUNT: 1000 })) {
    if (keys.length > 0) {
      layout = 'legacy';
      break;
    }
  }
  // NX: a migration or another instance may have marked it meanwhile; theirs stands.
  if ((await client.set(layoutMarkerKey(namespace), layout, { NX: true })) === null)
    return detectKeyLayout(client, namespace);
  return layout;
}

/**
 * Renames every doubled key of `namespace` to its flat name, keeping its value and its TTL, then
 * marks the namespace flat. Marked `migrating` meanwhile, so a bot started half-way stops with a
 * clear error instead of reading half the keys. Safe to run again (after an interruption too).
 * Resolves with the number of keys renamed.
 */
export async function migrateToFlat(client: LayoutClient, namespace: string): Promise<number> {
  if ((await client.get(layoutMarkerKey(namespace))) === 'flat') return 0;
  await client.set(layoutMarkerKey(namespace), 'migrating');
  const doubled = `${namespace}::`;
  let renamed = 0;
  for await (const keys of client.scanIterator({ MATCH: `${escapeGlob(doubled)}*`, COUNT: 1000 })) {
    for (const key of keys) {
      await client.rename(key, key.slice(doubled.length));
      renamed += 1;
    }
  }
  await client.set(layoutMarkerKey(namespace), 'flat');
  return renamed;
}

/**
 * A keyv store adapter over @keyv/redis (given no namespace of its own, so it adds no prefix) that
 * puts each key where the namespace's layout says, found on first use.
 */
export class LayoutRedisAdapter extends EventEmitter {
  /** Set by keyv; the layout decides the Redis keys, not this. */
  namespace: string | undefined;
  readonly #inner: KeyvRedis<unknown>;
  readonly #namespace: string;
  readonly #layout: () => Promise<RedisKeyLayout>;

  constructor(inner: KeyvRedis<unknown>, namespace: string, layout: () => Promise<RedisKeyLayout>) {
    super();
    this.#inner = inner;
    this.#namespace = namespace;
    this.#layout = layout;
    inner.on('error', (error: unknown) => this.emit('error', error));
  }

  /** The layout once found: every call after the first maps its keys without waiting. */
  #known: RedisKeyLayout | undefined;

  async #found(): Promise<RedisKeyLayout> {
    this.#known ??= await this.#layout();
    return this.#known;
  }

  /** After a migration in this process: find the layout again on the next call. */
  forgetLayout(): void {
    this.#known = undefined;
  }

  #key(layout: RedisKeyLayout, key: string): string {
    return redisKeyOf(layout, this.#namespace, key);
  }

  async get(key: string) {
    return this.#inner.get(this.#key(this.#known ?? (await this.#found()), key));
  }

  async getMany(keys: string[]) {
    const layout = this.#known ?? (await this.#found());
    return this.#inner.getMany(keys.map((key) => this.#key(layout, key)));
  }

  async set(key: string, value: string, ttl?: number) {
    return this.#inner.set(this.#key(this.#known ?? (await this.#found()), key), value, ttl);
  }

  async setMany(entries: { key: string; value: string; ttl?: number }[]) {
    const layout = this.#known ?? (await this.#found());
    return this.#inner.setMany(entries.map((entry) => ({ ...entry, key: this.#key(layout, entry.key) })));
  }

  async delete(key: string) {
    return this.#inner.delete(this.#key(this.#known ?? (await this.#found()), key));
  }

  async deleteMany(keys: string[]) {
    const layout = this.#known ?? (await this.#found());
    return this.#inner.deleteMany(keys.map((key) => this.#key(layout, key)));
  }

  async has(key: string) {
    return this.#inner.has(this.#key(this.#known ?? (await this.#found()), key));
  }

  async hasMany(keys: string[]) {
    const layout = this.#known ?? (await this.#found());
    return this.#inner.hasMany(keys.map((key) => this.#key(layout, key)));
  }

  /** keyv asks for the dialect (`redis`) to offer `iterator`. */
  get opts() {
    return this.#inner.opts;
  }

  /** The node-redis client (for tests that dump the raw store). */
  getClient() {
    return this.#inner.getClient();
  }

  /**
   * keyv's `iterator`: every key of the namespace (as keyv names it, `namespace:…`) with its
   * stored value, the store's own raw keys left out.
   */
  async *iterator(): AsyncGenerator<[string, string | undefined]> {
    const layout = await this.#layout();
    const head = redisKeyOf(layout, this.#namespace, '');
    const client = (await this.#inner.getClient()) as unknown as LayoutClient;
    const pattern = `${escapeGlob(redisKeyOf(layout, this.#namespace, `${this.#namespace}:`))}*`;
    for await (const keys of client.scanIterator({ MATCH: pattern, COUNT: 500 })) {
      for (const key of keys) {
        if (isRawKey(this.#namespace, key)) continue;
        const value = await client.get(key);
        if (value !== null) yield [key.slice(head.length), value];
      }
    }
  }

  /**
   * Deletes every keyv key of the namespace (its leases and layout marker stay). @keyv/redis's own
   * clear, without a namespace, would delete other programs' keys too.
   */
  async clear(): Promise<void> {
    const layout = await this.#layout();
    const client = (await this.#inner.getClient()) as unknown as LayoutClient & {
      unlink(keys: string[]): Promise<number>;
    };
    const pattern = `${escapeGlob(redisKeyOf(layout, this.#namespace, `${this.#namespace}:`))}*`;
    for await (const keys of client.scanIterator({ MATCH: pattern, COUNT: 500 })) {
      const stored = keys.filter((key) => !isRawKey(this.#namespace, key));
      if (stored.length > 0) await client.unlink(stored);
    }
  }

  async disconnect() {
    await this.#inner.disconnect();
  }
}
