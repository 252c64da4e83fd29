import { setTimeout as delay } from 'node:timers/promises';
import { BotError } from '../errors.js';
import type { Priority, QuotaClass } from './types.js';

/**
 * The directory's quotas as a budget (spec section 8): per class, the last limit, remaining
 * and reset the service reported, debited locally before each call so that concurrent calls
 * cannot overspend between two responses. Background work keeps a reserve for interactive
 * lookups; a 429 pauses the class until its reset.
 */

export const QUOTA_CLASSES: readonly QuotaClass[] = ['v1', 'v2-requests', 'v2-complexity'];

/** Spec section 8 values, used only until the first response headers arrive. */
export const SPEC_DEFAULT_LIMITS: Readonly<Record<QuotaClass, number>> = {
  v1: 900,
  'v2-requests': 450,
  'v2-complexity': 6250,
};

/** The spec's rate-limit period. */
export const SPEC_WINDOW_MS = 15 * 60 * 1000;

export interface QuotaSnapshot {
  limit: number;
  remaining: number;
  /** Epoch ms of the next reset; null until the service or a local debit started a window. */
  resetAt: number | null;
  /** True while a 429 pause is in force. */
  paused: boolean;
  /** Whether `limit`/`remaining` came from the service's headers (false: spec defaults). */
  fromHeaders: boolean;
}

export type QuotaCheck = { ok: true } | { ok: false; waitMs: number };

export interface RateLimitHeaders {
  limit: number | undefined;
  remaining: number | undefined;
  /** Seconds until the reset (not a timestamp). */
  resetSeconds: number | undefined;
}

export interface QuotaLedgerOptions {
  /** Share of each limit kept for interactive lookups (0–1). Default 0.2. */
  reserveFraction?: number;
  clock?: { now(): number };
  /** Injectable for tests; receives the caller's AbortSignal. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Limits to assume before the first headers; default the spec's. */
  defaults?: Partial<Record<QuotaClass, number>>;
  /** Length of a period when the service has not told us the reset yet. Default 15 min. */
  windowMs?: number;
  /**
   * Longest a call waits for budget before failing with `quota_exhausted`. Defaults:
   * background 16 minutes (one full period), interactive 5 seconds (a person is waiting).
   */
  maxWaitMs?: Partial<Record<Priority, number>>;
}

export interface QuotaLedger {
  /** Whether a call of `cost` units may go now, or how long until it may. Pure. */
  check(quotaClass: QuotaClass, cost: number, priority: Priority): QuotaCheck;
  /**
   * Waits (with the injected sleep) until `cost` units are available, then debits them.
   * Throws BotError `quota_exhausted` with `retryAfterMs` when the wait would exceed maxWaitMs.
   */
  waitFor(
    quotaClass: QuotaClass,
    cost: number,
    priority: Priority,
    options?: { signal?: AbortSignal; onWait?: (waitMs: number) => void },
  ): Promise<void>;
  /** Records the service's X-Rate-Limit-* values from a response of this class. */
  update(quotaClass: QuotaClass, headers: RateLimitHeaders): void;
  /** After a 429: nothing of this class is sent until `retryAfterMs` has passed. */
  pause(quotaClass: QuotaClass, retryAfterMs: number | undefined): void;
  snapshot(): Record<QuotaClass, QuotaSnapshot>;
}

interface ClassState {
  limit: number;
  remaining: number;
  resetAt: number | null;
  pausedUntil: number | null;
  fromHeaders: boolean;
}

/** Creates a ledger; one per directory token (quotas are per application). */
export function createQuotaLedger(options: QuotaLedgerOptions = {}): QuotaLedger {
  const reserveFraction = options.reserveFraction ?? 0.2;
  if (!(reserveFraction >= 0 && reserveFraction < 1)) {
    throw new BotError('config_invalid', `reserveFraction must be in [0, 1), got ${reserveFraction}`);
  }
  const clock = options.clock ?? Date;
  const sleep = options.sleep ?? ((ms: number, signal?: AbortSignal) => delay(ms, undefined, { signal }));
  const windowMs = options.windowMs ?? SPEC_WINDOW_MS;
  const maxWaitMs: Record<Priority, number> = {
    background: options.maxWaitMs?.background ?? windowMs + 60_000,
    interactive: options.maxWaitMs?.interactive ?? 5_000,
  };
  const states = new Map<QuotaClass, ClassState>();
  for (const quotaClass of QUOTA_CLASSES) {
    const limit = options.defaults?.[quotaClass] ?? SPEC_DEFAULT_LIMITS[quotaClass];
    states.set(quotaClass, { limit, remaining: limit, resetAt: null, pausedUntil: null, fromHeaders: false });
  }

  const state = (quotaClass: QuotaClass): ClassState => {
    const current = states.get(quotaClass);
    if (!current) throw new BotError('internal', `unknown quota class ${quotaClass}`);
    const now = clock.now();
    // A period that has ended refills optimistically; the next response corrects it.
    if (current.resetAt !== null && now >= current.resetAt) {
      current.remaining = current.limit;
      current.resetAt = null;
    }
    if (current.pausedUntil !== null && now >= current.pausedUntil) current.pausedUntil = null;
    return current;
  };

  const check = (quotaClass: QuotaClass, cost: number, priority: Priority): QuotaCheck => {
    const current = state(quotaClass);
    const now = clock.now();
    if (current.pausedUntil !== null) return { ok: false, waitMs: current.pausedUntil - now };
    const floor = priority === 'background' ? Math.ceil(current.limit * reserveFraction) : 0;
    // A call dearer than a whole period's usable budget could never pass: let it go when the
    // budget is full and leave the verdict to the service (it may refuse the complexity).
    const effectiveCost = Math.min(cost, Math.max(current.limit - floor, 0));
    if (current.remaining - effectiveCost >= floor) return { ok: true };
    const resetAt = current.resetAt ?? now + windowMs;
    return { ok: false, waitMs: Math.max(resetAt - now, 1) };
  };

  const debit = (quotaClass: QuotaClass, cost: number) => {
    const current = state(quotaClass);
    current.remaining = Math.max(current.remaining - cost, 0);
    // Spending starts a period if the service has not told us when the current one ends.
    if (current.resetAt === null) current.resetAt = clock.now() + windowMs;
  };

  return {
    check,
    async waitFor(quotaClass, cost, priority, waitOptions = {}) {
      for (;;) {
        waitOptions.signal?.throwIfAborted();
        const verdict = check(quotaClass, cost, priority);
        if (verdict.ok) {
          debit(quotaClass, cost);
          return;
        }
        if (verdict.waitMs > maxWaitMs[priority]) {
          throw new BotError(
            'quota_exhausted',
            `${quotaClass} quota exhausted for ${priority} work: next budget in ${Math.ceil(verdict.waitMs / 1000)} s`,
            { retryAfterMs: verdict.waitMs, details: { quotaClass, cost, priority } },
          );
        }
        waitOptions.onWait?.(verdict.waitMs);
        await sleep(verdict.waitMs, waitOptions.signal);
      }
    },
    update(quotaClass, headers) {
      const current = state(quotaClass);
      if (headers.limit !== undefined && headers.limit > 0) current.limit = headers.limit;
      // The service has reported negative remaining (-50) after overspending: it means none.
      if (headers.remaining !== undefined) current.remaining = Math.max(headers.remaining, 0);
      if (headers.resetSeconds !== undefined && headers.resetSeconds >= 0) {
        current.resetAt = clock.now() + headers.resetSeconds * 1000;
      }
      if (headers.limit !== undefined || headers.remaining !== undefined) current.fromHeaders = true;
    },
    pause(quotaClass, retryAfterMs) {
      const current = state(quotaClass);
      const now = clock.now();
      const until =
        retryAfterMs !== undefined
          ? now + Math.max(retryAfterMs, 0)
          : current.resetAt !== null && current.resetAt > now
            ? current.resetAt
            : now + windowMs;
      current.pausedUntil = Math.max(until, current.pausedUntil ?? 0);
      current.remaining = 0;
      current.resetAt = current.pausedUntil;
    },
    snapshot() {
      const out = {} as Record<QuotaClass, QuotaSnapshot>;
      for (const quotaClass of QUOTA_CLASSES) {
        const current = state(quotaClass);
        out[quotaClass] = {
          limit: current.limit,
          remaining: current.remaining,
          resetAt: current.resetAt,
          paused: current.pausedUntil !== null,
          fromHeaders: current.fromHeaders,
        };
      }
      return out;
    },
  };
}

/** Reads the X-Rate-Limit-* headers; absent or non-numeric values become undefined. */
export function readRateLimitHeaders(
  headers: Record<string, string | string[] | undefined>,
): RateLimitHeaders {
  return {
    limit: numberHeader(headers['x-rate-limit-limit']),
    remaining: numberHeader(headers['x-rate-limit-remaining']),
    resetSeconds: numberHeader(headers['x-rate-limit-reset']),
  };
}

function numberHeader(value: string | string[] | undefined): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  return Number.isFinite(n) ? n : undefined;
}
