import type { Clock } from './clock.js';

/** The three budgets of spec section 8. */
export type QuotaClass = 'v1' | 'v2Requests' | 'complexity';

export interface QuotaLimits {
  windowSeconds: number;
  v1: number;
  v2Requests: number;
  complexity: number;
}

/** What the X-Rate-Limit-* headers say. `remaining` may be negative (complexity overdraft). */
export interface QuotaSnapshot {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

interface Window {
  startedAt: number;
  used: Record<QuotaClass, number>;
}

const emptyUse = (): Record<QuotaClass, number> => ({ v1: 0, v2Requests: 0, complexity: 0 });

/**
 * Per-application (per-token) budgets over fixed windows. A token's window opens with its
 * first request and lasts `windowSeconds`; when it ends every budget is whole again.
 */
export class Quotas {
  private readonly windows = new Map<string, Window>();
  /** Everything ever charged, summed over tokens, for benchmarks' quota efficiency. */
  readonly totals = emptyUse();

  constructor(
    private readonly limits: QuotaLimits,
    private readonly clock: Clock,
  ) {}

  limit(cls: QuotaClass): number {
    return this.limits[cls];
  }

  private current(token: string): Window {
    const now = this.clock.now();
    const existing = this.windows.get(token);
    if (existing && now < existing.startedAt + this.limits.windowSeconds * 1000) return existing;
    const fresh: Window = { startedAt: now, used: emptyUse() };
    this.windows.set(token, fresh);
    return fresh;
  }

  /** The header values for a token (or an anonymous caller) in a class. */
  snapshot(token: string | undefined, cls: QuotaClass): QuotaSnapshot {
    const limit = this.limits[cls];
    if (token === undefined) return { limit, remaining: limit, resetSeconds: this.limits.windowSeconds };
    const window = this.current(token);
    const endsAt = window.startedAt + this.limits.windowSeconds * 1000;
    return {
      limit,
      remaining: limit - window.used[cls],
      resetSeconds: Math.max(0, Math.ceil((endsAt - this.clock.now()) / 1000)),
    };
  }

  /** True once the budget is used up: every request of the class is refused until reset. */
  exhausted(token: string, cls: QuotaClass): boolean {
    return this.current(token).used[cls] >= this.limits[cls];
  }

  /** Charges an amount (1 request, or a query's complexity). */
  charge(token: string, cls: QuotaClass, amount: number): void {
    this.current(token).used[cls] += amount;
    this.totals[cls] += amount;
  }

  /** Makes every budget whole again (admin). */
  reset(): void {
    this.windows.clear();
  }

  resetTotals(): void {
    this.totals.v1 = 0;
    this.totals.v2Requests = 0;
    this.totals.complexity = 0;
  }
}
