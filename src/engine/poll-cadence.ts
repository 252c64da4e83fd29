import type { QuotaClass, QuotaSnapshot } from '../directory/index.js';

/**
 * Share of the usable budget the plan spends: the plan is the quota floor ÷ this, so a poll
 * jittered up to (1 − margin) sooner than planned still never comes before the floor.
 */
export const PLANNING_MARGIN = 0.95;

export interface CadenceInput {
  /** Enabled feeds: which quota class each spends and how much per poll. */
  feeds: readonly { name: string; quotaClass: QuotaClass; costPerPoll: number }[];
  quotas: Record<QuotaClass, Pick<QuotaSnapshot, 'limit'>>;
  windowMs: number;
  /** Share of each quota kept for interactive lookups. */
  reserveFraction: number;
  minIntervalMs: number;
}

/**
 * The shortest poll interval per feed that the quota allows: all feeds of one class share
 * that class's budget after the lookup reserve, polling at one common interval, never
 * more often than `minIntervalMs`. Recomputed from the latest headers, so it adapts when
 * the operator changes the limits.
 */
export function planCadence(input: CadenceInput): Map<string, number> {
  const plan = new Map<string, number>();
  const costByClass = new Map<QuotaClass, number>();
  for (const feed of input.feeds) {
    costByClass.set(feed.quotaClass, (costByClass.get(feed.quotaClass) ?? 0) + feed.costPerPoll);
  }
  for (const feed of input.feeds) {
    // Plan a little under the budget: polls are jittered both ways (see `jitteredInterval`),
    // and a window planned at exactly 100 % would make the last poll wait for the reset.
    const budget = Math.max(
      1,
      input.quotas[feed.quotaClass].limit * (1 - input.reserveFraction) * PLANNING_MARGIN,
    );
    const costPerRound = costByClass.get(feed.quotaClass) ?? feed.costPerPoll;
    const quotaFloor = Math.ceil((input.windowMs * costPerRound) / budget);
    plan.set(feed.name, Math.max(input.minIntervalMs, quotaFloor));
  }
  return plan;
}

/**
 * The time until a feed's next poll: the planned interval spread by up to ±(1 − margin) so
 * feeds and instances do not poll in lock-step. On average polls come at the plan, and never
 * sooner than the quota floor (plan × margin) or `minIntervalMs`. Jittering only later would
 * make the average interval 5 % longer than the plan, and the plan is already 5 % above the floor.
 */
export function jitteredInterval(plannedMs: number, minIntervalMs: number, random: () => number): number {
  const spread = 1 - PLANNING_MARGIN;
  return Math.max(minIntervalMs, Math.ceil(plannedMs * (1 + (2 * random() - 1) * spread)));
}
