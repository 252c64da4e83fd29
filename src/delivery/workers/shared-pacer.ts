import type { Redis } from 'ioredis';
import type { BucketState, ChatAdapter, RateLimit, WindowLimit } from '../../ports/index.js';
import { type PacedSend, workspaceKey } from '../dispatch/pacer.js';

/**
 * Takes one send from every limit it counts against, or none: a GCRA per limit (the theoretical
 * arrival time in a key), plus "blocked until" keys that a 429's Retry-After or an empty stated
 * bucket set. Redis's own clock, so workers on different machines share one timeline. Returns
 * the milliseconds to wait (0: taken).
 *
 * When what binds is a pace the destination shares with others (its workspace's, the bot's), the
 * send is booked at the first moment every limit allows it: each limit is charged for that
 * moment and the destination's reservation key holds it, so the send goes without asking again
 * once its wait is over (its destination's next take finds the reservation). Without it, every
 * destination waiting for a shared pace would wake for the same free slot, one would win and the
 * rest would wait again: a herd that cost 35 takes and job moves per message in a Discord
 * fan-out through two workers. A wait for the destination's own limit or for a block is not
 * booked (a 5 s wait booked on the bot's pace would hold every other destination behind it).
 *
 * A booked send can start late (its job woke late on a busy worker), and late sends bunch up. So
 * a window limit (Discord's 50 per second) is also checked against the sends actually started: a
 * log of their times per window, at most `limit` − 1 in any window (one spare, as the GCRA's
 * spacing keeps), and a send that would exceed it waits for the oldest to leave the window,
 * keeping its booking.
 *
 * KEYS: the limits (the destination's first, ARGV[2] of them), then each limit's log of sends,
 * the destination's block, the bot's block, the destination's reservation. ARGV: the number of
 * limits, how many of them are the destination's own, then per limit its interval, tolerance,
 * window cap (0: not a window) and window.
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local n = tonumber(ARGV[1])
local own = tonumber(ARGV[2])
local reservation = KEYS[2 * n + 3]
local function arg(i, field) return tonumber(ARGV[4 * i - 1 + field]) end
-- Whether the sends started in the last window leave room for one more (0), else the wait; records it.
local function admit()
  local wait = 0
  for i = 1, n do
    local cap, window = arg(i, 2), arg(i, 3)
    if cap > 0 then
      local log = KEYS[n + i]
      redis.call('ZREMRANGEBYSCORE', log, '-inf', now - window)
      if redis.call('ZCARD', log) >= cap then
        local oldest = tonumber(redis.call('ZRANGE', log, 0, 0, 'WITHSCORES')[2])
        local w = oldest + window - now
        if w < 1 then w = 1 end
        if w > wait then wait = w end
      end
    end
  end
  if wait > 0 then return wait end
  for i = 1, n do
    local cap, window = arg(i, 2), arg(i, 3)
    if cap > 0 then
      local log = KEYS[n + i]
      redis.call('ZADD', log, now, now .. ':' .. reservation .. ':' .. redis.call('ZCARD', log))
      redis.call('PEXPIRE', log, window + 1000)
    end
  end
  return 0
end
local booked = redis.call('GET', reservation)
if booked then
  local at = tonumber(booked)
  if at > now then return math.ceil(at - now) end
  local late = admit()
  if late > 0 then return math.ceil(late) end
  redis.call('DEL', reservation)
  return 0
end
local blocked = 0
for i = 2 * n + 1, 2 * n + 2 do
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl > blocked then blocked = ttl end
end
local tats = {}
local ownWait = 0
local sharedWait = 0
for i = 1, n do
  local tat = tonumber(redis.call('GET', KEYS[i]) or now)
  if tat < now then tat = now end
  tats[i] = tat
  local w = tat - arg(i, 1) - now
  if i <= own then
    if w > ownWait then ownWait = w end
  elseif w > sharedWait then
    sharedWait = w
  end
end
local wait = math.max(blocked, ownWait, sharedWait)
if wait > 0 and (sharedWait <= ownWait or sharedWait < blocked) then return math.ceil(wait) end
if wait <= 0 then
  local full = admit()
  if full > 0 then return math.ceil(full) end
end
local at = now + wait
for i = 1, n do
  local interval = arg(i, 0)
  local tat = tats[i]
  if tat < at then tat = at end
  redis.call('SET', KEYS[i], tat + interval, 'PX', math.ceil(tat + interval - now) + 1000)
end
if wait <= 0 then return 0 end
redis.call('SET', reservation, at, 'PX', math.ceil(wait) + 60000)
return math.ceil(wait)`;

type Limit = RateLimit | WindowLimit;

/** A limit as GCRA parameters: ms between sends, and how far ahead a burst may run. */
function gcra(limit: Limit): { interval: number; tolerance: number } {
  if ('windowMs' in limit) {
    // A sliding window of `limit` per `windowMs`: evenly spaced, never more than `limit` in any window.
    return { interval: limit.windowMs / Math.max(1, limit.limit - 1), tolerance: 0 };
  }
  const interval = 1000 / limit.ratePerSecond;
  return { interval, tolerance: interval * Math.max(0, limit.burst - 1) };
}

const listOf = (limit: Limit | readonly Limit[] | undefined): readonly Limit[] =>
  limit === undefined ? [] : Array.isArray(limit) ? (limit as readonly Limit[]) : [limit as Limit];

/**
 * The pacer every delivery worker shares (ADR 005): per destination, per workspace and per bot,
 * kept in Redis so that N workers spend each budget once, not N times; a platform's 429 or empty
 * bucket holds every worker alike.
 */
export class SharedPacer {
  readonly #redis: Redis;
  readonly #prefix: string;
  /** Platform-stated waits still being written, so a test or a stop can wait for them. */
  #writes: Promise<unknown> = Promise.resolve();

  /** `prefix`: e.g. `directory-bot:pace` (per bot, not per directory: the limits are the platform's). */
  constructor(redis: Redis, prefix: string) {
    this.#redis = redis;
    this.#prefix = prefix;
  }

  /**
   * Takes a send now if every limit allows it; otherwise resolves with how long to wait (and, when
   * a shared pace binds, has booked the send for then: see TAKE).
   */
  async take(send: PacedSend, adapter: ChatAdapter): Promise<number> {
    const { pacing, platform } = adapter;
    const own = listOf(pacing.perDestination);
    const limits: [string, Limit][] = [
      ...own.map((l, i): [string, Limit] => [`d${i}:${send.destinationKey}`, l]),
      ...listOf(pacing.perWorkspace).map((l): [string, Limit] => [`w:${workspaceKey(send)}`, l]),
      ...listOf(pacing.global).map((l): [string, Limit] => [`g:${platform}`, l]),
    ];
    const keys = [
      ...limits.map(([key]) => `${this.#prefix}:${key}`),
      ...limits.map(([key]) => `${this.#prefix}:log:${key}`),
      this.#blockKey('d', send.destinationKey),
      this.#blockKey('g', platform),
      `${this.#prefix}:booked:${send.destinationKey}`,
    ];
    const args = limits.flatMap(([, limit]) => {
      const { interval, tolerance } = gcra(limit);
      const window = 'windowMs' in limit ? [Math.max(1, limit.limit - 1), limit.windowMs] : [0, 0];
      return [String(interval), String(tolerance), ...window.map(String)];
    });
    return Number(
      await this.#redis.eval(TAKE, keys.length, ...keys, String(limits.length), String(own.length), ...args),
    );
  }

  /** The bucket the platform stated with its answer: when none remain, every worker waits for the reset. */
  stated(destinationKey: string, bucket: BucketState | undefined): void {
    if (bucket === undefined || bucket.remaining > 0) return;
    this.#block('d', destinationKey, bucket.resetAfterMs);
  }

  /** The platform answered 429: hold the destination, or the whole bot when it said global. */
  rateLimited(send: PacedSend, adapter: ChatAdapter, ms: number, global: boolean): void {
    if (global) this.#block('g', adapter.platform, ms);
    else this.#block('d', send.destinationKey, ms);
  }

  /** Resolves once the waits stated so far are written. */
  flushed(): Promise<unknown> {
    return this.#writes;
  }

  #blockKey(scope: 'd' | 'g', name: string): string {
    return `${this.#prefix}:block:${scope}:${name}`;
  }

  #block(scope: 'd' | 'g', name: string, ms: number): void {
    if (ms <= 0) return;
    // Not awaited by the attempt: a lost write costs at worst one more 429, which sets it again.
    const write = this.#redis.set(this.#blockKey(scope, name), '1', 'PX', Math.ceil(ms)).catch(() => {});
    this.#writes = Promise.all([this.#writes, write]);
  }
}
