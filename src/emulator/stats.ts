import type { Quotas } from './quotas.js';

export interface EmulatorStats {
  requests: { total: number; byRoute: Record<string, number>; byStatus: Record<string, number> };
  /** Quota charged since the last reset, summed over tokens. */
  quotaUsed: { v1: number; v2Requests: number; complexity: number };
}

/** Counts API requests (never admin ones) by route and status. */
export class RequestStats {
  private total = 0;
  private byRoute = new Map<string, number>();
  private byStatus = new Map<string, number>();

  record(route: string, status: number): void {
    this.total += 1;
    this.byRoute.set(route, (this.byRoute.get(route) ?? 0) + 1);
    const key = String(status);
    this.byStatus.set(key, (this.byStatus.get(key) ?? 0) + 1);
  }

  snapshot(quotas: Quotas): EmulatorStats {
    return {
      requests: {
        total: this.total,
        byRoute: Object.fromEntries(this.byRoute),
        byStatus: Object.fromEntries(this.byStatus),
      },
      quotaUsed: { ...quotas.totals },
    };
  }

  reset(): void {
    this.total = 0;
    this.byRoute.clear();
    this.byStatus.clear();
  }
}
