import type { Redis } from 'ioredis';
import type { OutboxEntry } from '../outbox.js';

/**
 * Per-destination FIFOs in Redis, shared by every delivery worker (ADR 005). Each destination has
 * a list of item keys (the order), a hash of their entries (opaque JSON), a hash of revisions (an
 * edit's, -1 for anything else) and a hash of claims: an entry claimed and not settled was being
 * sent when its worker went away, so its outcome is unknown and the delivered ledger is checked
 * before it is sent again. Every change is one Lua script, so two workers never interleave.
 */
const APPEND = `
local added = 0
for i = 2, #ARGV, 3 do
  local key, rev, json = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2]
  local old = redis.call('HGET', KEYS[3], key)
  if old == false then
    redis.call('RPUSH', KEYS[1], key)
    redis.call('HSET', KEYS[2], key, json)
    redis.call('HSET', KEYS[3], key, rev)
    added = added + 1
  elseif rev >= 0 and rev >= tonumber(old) then
    -- A newer state of a queued edit replaces it where it waits (coalesced).
    redis.call('HSET', KEYS[2], key, json)
    redis.call('HSET', KEYS[3], key, rev)
    redis.call('HDEL', KEYS[4], key)
  end
end
if added > 0 then
  redis.call('SADD', KEYS[5], ARGV[1])
  redis.call('INCRBY', KEYS[6], added)
end
return added`;

const PEEK = `
local key = redis.call('LINDEX', KEYS[1], 0)
if key == false then
  redis.call('SREM', KEYS[4], ARGV[1])
  return false
end
return {key, redis.call('HGET', KEYS[2], key) or '', redis.call('HGET', KEYS[3], key) or ''}`;

const REMOVE = `
local current = redis.call('HGET', KEYS[3], ARGV[1])
if current == false then return 0 end
if tonumber(current) ~= tonumber(ARGV[2]) then
  -- Replaced by a newer edit while in flight: that one is still owed.
  redis.call('HDEL', KEYS[4], ARGV[1])
  return 0
end
redis.call('LREM', KEYS[1], 1, ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[4], ARGV[1])
redis.call('DECRBY', KEYS[5], 1)
return 1`;

const UPDATE = `
local current = redis.call('HGET', KEYS[2], ARGV[1])
if current == false or tonumber(current) ~= tonumber(ARGV[2]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1`;

const DROP = `
local keys = redis.call('LRANGE', KEYS[1], 0, -1)
local values = {}
if #keys > 0 then values = redis.call('HMGET', KEYS[2], unpack(keys)) end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
redis.call('SREM', KEYS[5], ARGV[1])
if #keys > 0 then redis.call('DECRBY', KEYS[6], #keys) end
return values`;

/**
 * Brings the dead deliveries up to date before any read or write: a list an earlier version
 * wrote becomes the sorted set (scored by when each died), and those older than the retention
 * (ARGV[1], the cut-off) go. Redis also expires the whole set once its newest entry is past the
 * retention (ARGV[2], now; ARGV[3], the retention), so a directory nobody reads any more does
 * not keep its dead deliveries either.
 */
const FROM_LIST = `
local kind = redis.call('TYPE', KEYS[1])
if kind.ok == 'list' then
  local old = redis.call('LRANGE', KEYS[1], 0, -1)
  redis.call('DEL', KEYS[1])
  for _, value in ipairs(old) do redis.call('ZADD', KEYS[1], cjson.decode(value).at, value) end
end`;

const TRIM = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local newest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if newest[2] ~= nil then
  local left = tonumber(newest[2]) + tonumber(ARGV[3]) - tonumber(ARGV[2])
  if left > 0 then redis.call('PEXPIRE', KEYS[1], math.ceil(left)) else redis.call('DEL', KEYS[1]) end
end
return redis.call('ZRANGE', KEYS[1], 0, -1)`;

const TIDY_DEAD = `${FROM_LIST}${TRIM}`;

const BURY = `${FROM_LIST}
redis.call('ZADD', KEYS[1], ARGV[4], ARGV[5])
${TRIM}`;

/** Dead deliveries are kept this long unless told otherwise: DEDUPE_TTL_DAYS's default. */
export const DEFAULT_DEAD_RETENTION_MS = 30 * 86_400_000;

export interface DeliveryQueueOptions {
  /** How long a dead delivery is kept after it died; default DEFAULT_DEAD_RETENTION_MS. */
  deadRetentionMs?: number;
  /** The clock dead deliveries are aged by; default Date.now. */
  now?: () => number;
}

/** A message that used up its attempts, kept for an operator to see and replay. */
export interface DeadDelivery {
  /** Stable while it is dead: `${destinationKey}|${itemKey}`. */
  id: string;
  at: number;
  reason: string;
  entry: OutboxEntry;
}

/** What a worker reads at the head of a destination's FIFO. */
export interface QueueHead {
  entry: OutboxEntry;
  /** A worker claimed it before and never settled it: whether it was posted is unknown. */
  claimedBefore: boolean;
}

const revisionOf = (entry: Pick<OutboxEntry, 'edit'>): number => entry.edit?.revision ?? -1;

/** The per-destination FIFOs of one directory's deliveries, under `prefix` in Redis. */
export class DeliveryQueue {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #deadRetentionMs: number;
  readonly #now: () => number;

  /**
   * `prefix`: e.g. `directory-bot:workers:q:<directory id>`. `deadRetentionMs`: how long a dead
   * delivery is kept (DEDUPE_TTL_DAYS: a replay checks the delivered ledger, which remembers a
   * post that long, so a later replay could not tell a message that did reach its channel);
   * `now`: the clock dead deliveries are aged by.
   */
  constructor(redis: Redis, prefix: string, options: DeliveryQueueOptions = {}) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#deadRetentionMs = options.deadRetentionMs ?? DEFAULT_DEAD_RETENTION_MS;
    this.#now = options.now ?? Date.now;
  }

  /** How long a dead delivery is kept after it died. */
  get deadRetentionMs(): number {
    return this.#deadRetentionMs;
  }

  #keys(destination: string) {
    const p = this.#prefix;
    return {
      list: `${p}:q:${destination}`,
      entries: `${p}:e:${destination}`,
      revisions: `${p}:v:${destination}`,
      claims: `${p}:c:${destination}`,
    };
  }

  get #destinations(): string {
    return `${this.#prefix}:destinations`;
  }

  get #count(): string {
    return `${this.#prefix}:count`;
  }

  get #dead(): string {
    return `${this.#prefix}:dead`;
  }

  /**
   * Appends one destination's entries in order, idempotently: an item already queued there is not
   * queued again (the hand-off may repeat after a crash), and a newer state of a queued edit
   * replaces the older one. Resolves with how many were new.
   */
  async append(destination: string, entries: readonly OutboxEntry[]): Promise<number> {
    const k = this.#keys(destination);
    const args = entries.flatMap((e) => [e.itemKey, String(revisionOf(e)), JSON.stringify(e)]);
    const keys = [k.list, k.entries, k.revisions, k.claims, this.#destinations, this.#count];
    return Number(await this.#redis.eval(APPEND, keys.length, ...keys, destination, ...args));
  }

  /** The entry to send next for a destination, or undefined when its FIFO is empty. */
  async peek(destination: string): Promise<QueueHead | undefined> {
    const k = this.#keys(destination);
    const keys = [k.list, k.entries, k.claims, this.#destinations];
    const head = (await this.#redis.eval(PEEK, keys.length, ...keys, destination)) as string[] | null;
    if (!head || head[1] === '') return undefined;
    return { entry: JSON.parse(head[1]!) as OutboxEntry, claimedBefore: head[2] !== '' };
  }

  /** Marks the head as being sent: until it is settled, another worker treats its outcome as unknown. */
  async claim(entry: OutboxEntry, at: number): Promise<void> {
    await this.#redis.hset(this.#keys(entry.destinationKey).claims, entry.itemKey, String(at));
  }

  /** Removes a settled entry (unless a newer edit replaced it meanwhile). */
  async remove(entry: OutboxEntry): Promise<void> {
    const k = this.#keys(entry.destinationKey);
    const keys = [k.list, k.entries, k.revisions, k.claims, this.#count];
    await this.#redis.eval(REMOVE, keys.length, ...keys, entry.itemKey, String(revisionOf(entry)));
  }

  /** Writes back an entry's changed state (attempts, when to retry, posted) and settles its claim. */
  async update(entry: OutboxEntry): Promise<void> {
    const k = this.#keys(entry.destinationKey);
    const keys = [k.entries, k.revisions, k.claims];
    await this.#redis.eval(
      UPDATE,
      keys.length,
      ...keys,
      entry.itemKey,
      String(revisionOf(entry)),
      JSON.stringify(entry),
    );
  }

  /** Drops everything queued for a destination; returns what was dropped. */
  async drop(destination: string): Promise<OutboxEntry[]> {
    const k = this.#keys(destination);
    const keys = [k.list, k.entries, k.revisions, k.claims, this.#destinations, this.#count];
    const values = (await this.#redis.eval(DROP, keys.length, ...keys, destination)) as (string | null)[];
    return values.filter((v): v is string => typeof v === 'string').map((v) => JSON.parse(v) as OutboxEntry);
  }

  /** What is queued for one destination, in order (for `/directory why`; reading only). */
  async entries(destination: string): Promise<OutboxEntry[]> {
    const k = this.#keys(destination);
    const keys = await this.#redis.lrange(k.list, 0, -1);
    if (keys.length === 0) return [];
    const values = await this.#redis.hmget(k.entries, ...keys);
    return values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as OutboxEntry);
  }

  /** How many entries are queued for one destination. */
  async depth(destination: string): Promise<number> {
    return this.#redis.llen(this.#keys(destination).list);
  }

  /** Entries queued across every destination. */
  async size(): Promise<number> {
    return Number((await this.#redis.get(this.#count)) ?? 0);
  }

  /** Destinations with a FIFO (some may have emptied since), for re-adding lost drain jobs. */
  async destinations(): Promise<string[]> {
    return this.#redis.smembers(this.#destinations);
  }

  /**
   * Forgets everything queued for this directory, dead deliveries included (a sandbox started
   * afresh, like `deleteByPrefix` of its other state); drain jobs left find their FIFOs empty.
   */
  async clear(): Promise<number> {
    let removed = 0;
    const stream = this.#redis.scanStream({ match: `${this.#prefix}:*`, count: 500 });
    for await (const keys of stream as AsyncIterable<string[]>)
      if (keys.length > 0) removed += await this.#redis.unlink(...keys);
    return removed;
  }

  /**
   * Keeps an entry that used up its attempts, for `directory-bot deliveries dead` and `replay`,
   * until it is replayed, forgotten or older than the retention.
   */
  async bury(entry: OutboxEntry, reason: string, at: number): Promise<void> {
    const dead: DeadDelivery = { id: `${entry.destinationKey}|${entry.itemKey}`, at, reason, entry };
    await this.#redis.eval(BURY, 1, this.#dead, ...this.#tidyArgs(), String(at), JSON.stringify(dead));
  }

  /** The dead deliveries still within the retention, oldest first. */
  async dead(): Promise<DeadDelivery[]> {
    return (await this.#deadValues()).map((v) => JSON.parse(v) as DeadDelivery);
  }

  async deadCount(): Promise<number> {
    return (await this.#deadValues()).length;
  }

  /** Deletes the dead deliveries of `destinations` (a forgotten workspace's); resolves with how many. */
  async forgetDead(destinations: ReadonlySet<string>): Promise<number> {
    const doomed = (await this.#deadValues()).filter((value) =>
      destinations.has((JSON.parse(value) as DeadDelivery).entry.destinationKey),
    );
    return doomed.length === 0 ? 0 : this.#redis.zrem(this.#dead, ...doomed);
  }

  /** The stored dead deliveries, tidied first (see TIDY_DEAD), as stored. */
  async #deadValues(): Promise<string[]> {
    return (await this.#redis.eval(TIDY_DEAD, 1, this.#dead, ...this.#tidyArgs())) as string[];
  }

  #tidyArgs(): string[] {
    const now = this.#now();
    return [String(now - this.#deadRetentionMs), String(now), String(this.#deadRetentionMs)];
  }

  /**
   * Queues dead deliveries again (those whose id is in `ids`, or all), as fresh attempts that
   * check the ledger first; resolves with the destinations that got entries back.
   */
  async replay(ids: ReadonlySet<string> | 'all'): Promise<string[]> {
    const raw = await this.#deadValues();
    const destinations = new Set<string>();
    for (const value of raw) {
      const dead = JSON.parse(value) as DeadDelivery;
      if (ids !== 'all' && !ids.has(dead.id)) continue;
      const entry = { ...dead.entry, attempts: 0, notBefore: 0, recovered: true };
      await this.append(entry.destinationKey, [entry]);
      await this.#redis.zrem(this.#dead, value);
      destinations.add(entry.destinationKey);
    }
    return [...destinations];
  }
}
