import type { SubscriptionSeed } from '../../src/subscriptions/subscription-spec.js';
import { homeButtons } from '../fakes/slack/home-events.js';
import { startHomeTab, TEAM } from '../support/home-tab-harness.js';
import { round, type Violation } from './support.js';
import type { Row } from './table.js';

export interface HomeTabOptions {
  subscriptions: number;
  viewers: number;
  /** Changes made one at a time, each once every viewer has its home again. */
  changes: number;
  /** Changes made at once, to see them merge. */
  burst: number;
}

export interface HomeTabResult {
  subscriptions: number;
  viewers: number;
  changes: number;
  /** views.publish calls after the changes ÷ (changes × viewers): goal exactly 1 one at a time. */
  publishesPerChangePerViewer: number;
  /** The same for the burst: at most 1, less when changes merge. */
  burstPublishesPerChangePerViewer: number;
  status429: number;
  maxBlocks: number;
  /** Subscriptions with buttons in the view (the rest summarised). */
  shownSubscriptions: number;
  violations: Violation[];
}

/**
 * "Home tab publish under 1,000 subscriptions in one workspace" (issue 15): the real Slack adapter
 * and home service against the fake Slack, whose views.publish tier limiter answers 429 past 100 in
 * a window. Time is compressed tenfold on both sides (100 per 6 s at the fake, the bot's 90 per
 * 6 s), which keeps the ratio of the pace to the tier that 90 of 100 a minute has.
 */
export async function benchHomeTab(options: HomeTabOptions): Promise<HomeTabResult> {
  const t = await startHomeTab({
    fake: { viewsPublishTier: { limit: 100, windowMs: 6_000 } },
    publishLimit: { limit: 90, windowMs: 6_000 },
  });
  const violations: Violation[] = [];
  try {
    // Routes that name no workspace belong to the one a single-token bot serves: one write for all.
    const seeds: SubscriptionSeed[] = Array.from({ length: options.subscriptions }, (_, i) => ({
      platform: 'slack',
      channelId: `C${String(i % 100).padStart(8, '0')}`,
      feed: 'posts',
      filters: { minVotes: i + 1 },
    }));
    await t.h.subscriptions.seed(seeds);
    const all = await t.h.subscriptions.list();
    const viewers = Array.from({ length: options.viewers }, (_, i) => `UV${String(i).padStart(4, '0')}`);
    for (const id of viewers) {
      t.slack.addUser(id, { is_admin: true });
      await t.open(id);
    }
    let expected = 1;
    for (const id of viewers) await t.waitForPublishes(id, expected);
    const total = () => t.slack.callsTo('views.publish').filter((c) => c.status === 200).length;

    const before = total();
    for (let i = 0; i < options.changes; i += 1) {
      const s = all[i] ?? all[0];
      if (s) await t.h.subscriptions.pause(s.platform, s.channelId, s.id, 'UBENCH');
      expected += 1;
      for (const id of viewers) await t.waitForPublishes(id, expected);
    }
    const oneAtATime = total() - before;

    const burstStart = total();
    const burst = all.slice(options.changes, options.changes + options.burst);
    await Promise.all(burst.map((s) => t.h.subscriptions.pause(s.platform, s.channelId, s.id, 'UBENCH')));
    expected += 1;
    for (const id of viewers) await t.waitForPublishes(id, expected);
    // The burst's last republish may still be queued behind the first: a fresh open waits behind all of it.
    t.slack.addUser('ULAST', { is_admin: true });
    await t.open('ULAST');
    await t.waitForPublishes('ULAST', 1);
    const burstPublishes = total() - burstStart - 1;

    const views = [...t.slack.views.published.values()];
    const maxBlocks = Math.max(...views.map((v) => v.blocks.length));
    const shown = homeButtons(t.slack.views.homeOf(TEAM, viewers[0] ?? '')).filter(
      (b) => b.action_id === 'home:v1:remove',
    ).length;
    const perChange = oneAtATime / (options.changes * options.viewers);
    const perBurst = burstPublishes / (options.burst * options.viewers);
    if (t.slack.violations.length > 0)
      violations.push({ benchmark: 'home', problem: `fake Slack violations: ${t.slack.violations[0]}` });
    if (perChange > 1)
      violations.push({ benchmark: 'home', problem: `${perChange} publishes per change per viewer` });
    return {
      subscriptions: all.length,
      viewers: options.viewers,
      changes: options.changes,
      publishesPerChangePerViewer: round(perChange, 3),
      burstPublishesPerChangePerViewer: round(perBurst, 3),
      status429: t.slack.views.rateLimited,
      maxBlocks,
      shownSubscriptions: shown,
      violations,
    };
  } finally {
    await t.close();
  }
}

export function homeTabRows(r: HomeTabResult): Row[] {
  return [
    {
      figure: `home tab: views.publish per change per viewer (${r.subscriptions} subs)`,
      value: r.publishesPerChangePerViewer,
      goal: '1',
      detail: `${r.changes} changes one at a time × ${r.viewers} viewers; a burst merges to ${r.burstPublishesPerChangePerViewer}; view ≤ ${r.maxBlocks} blocks, ${r.shownSubscriptions} subs with buttons`,
    },
    {
      figure: 'home tab: 429s from views.publish',
      value: r.status429,
      goal: '0',
      detail: 'the fake holds Tier 4 (100 per window) per workspace; the bot paces 90',
    },
  ];
}
