import type { FreshnessResult } from './freshness.js';
import type { Row } from './table.js';

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;

/**
 * The freshness and quota rows of the table: p50 and p95 per feed, each against its own
 * floor (an aggregate let the busy comments feed hide a slow posts feed), then the quota.
 */
export function freshnessRows(f: FreshnessResult): Row[] {
  const rows: Row[] = [];
  for (const [feed, s] of Object.entries(f.freshness.byFeed)) {
    rows.push(
      {
        figure: `freshness ${feed} p50: delay ÷ floor`,
        value: s.p50,
        goal: '≤ 1',
        detail: `floor ${ms(f.floorMs[feed] ?? Number.NaN)}; ${s.items} items; delay ${ms(s.p50DelayMs)}`,
      },
      {
        figure: `freshness ${feed} p95: delay ÷ floor`,
        value: s.p95,
        goal: '≤ 1.2',
        detail: `delay ${ms(s.p95DelayMs)}; ${s.polls} polls, ${s.requests} requests; gap p50 ${s.gapP50} / p95 ${s.gapP95} of the floor`,
      },
    );
  }
  const e = f.efficiency;
  rows.push(
    {
      figure: 'quota: V1 requests ÷ minimum',
      value: e.v1Ratio,
      goal: '≤ 1.05',
      detail: `${e.spent.v1Requests} spent, ${e.minimum.v1Requests} at the floor over ${Math.round(e.spanMs / 1000)} s`,
    },
    {
      figure: 'quota: complexity ÷ minimum',
      value: e.complexityRatio,
      goal: '≤ 1.05',
      detail: `${e.spent.complexity} points spent, ${e.minimum.complexity} at the floor`,
    },
    {
      figure: 'quota: directory 429s received',
      value: e.status429,
      goal: '0',
      detail: `${e.quotaWaits} quota waits (${Math.round(e.quotaWaitMs)} ms), ${e.retries} retries, ${e.pollFailures} failed polls`,
    },
  );
  return rows;
}
