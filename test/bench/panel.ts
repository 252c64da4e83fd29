import { PanelClient } from '../support/panel-client.js';
import { startPanelHarness, TEAM } from '../support/panel-harness.js';
import { percentile, round, type Violation } from './support.js';
import type { Row } from './table.js';

export interface PanelBenchOptions {
  subscriptions: number;
  channels: number;
  /** Requests per page kind. */
  requests: number;
  /** Changes made in the panel, each timed until the engine's own repository routes with it. */
  changes: number;
}

export interface PanelBenchResult {
  subscriptions: number;
  channels: number;
  /** Server time per page kind, ms. */
  pages: Record<string, { p50: number; p95: number; max: number; bytes: number }>;
  /** From the panel's POST to the engine's repository (over the same store) routing with the change, ms. */
  changeToEngineMs: { p50: number; p95: number; max: number };
  violations: Violation[];
}

const ADMIN = { userId: 'UBENCHADM1', teamId: TEAM, teamName: 'Bench', name: 'Bench Admin' };

/**
 * "Page response p95 with 10k subscriptions over 1k channels" and "a change made in the panel
 * reaching the running engine" (issue 28). The real panel over HTTP with the real command handler
 * and SQLite store; a Slack admin who sees every channel of the one workspace. Pages are timed on
 * the server (request in → last byte out); the change is timed from the POST until the harness's
 * engine's SubscriptionRepository over the same store — what it routes with — has it.
 */
export async function benchPanel(options: PanelBenchOptions): Promise<PanelBenchResult> {
  const t = await startPanelHarness();
  const violations: Violation[] = [];
  try {
    t.slack.addUser(ADMIN.userId, { is_admin: true });
    t.slack.oidc.signedIn = ADMIN;
    await t.h.subscriptions.seed(
      Array.from({ length: options.subscriptions }, (_, i) => ({
        platform: 'slack',
        channelId: `C${String(i % options.channels).padStart(8, '0')}`,
        feed: 'posts' as const,
        filters: { minVotes: i + 1 },
      })),
    );
    // The harness's engine's own repository: what it routes with, over the same store.
    const engine = t.engine.subscriptions;
    await engine.index();
    const client = new PanelClient();
    await client.follow(`${t.url}/signin/slack`);
    const channel = (i: number) => `C${String((i * 37) % options.channels).padStart(8, '0')}`;
    const kinds: Record<string, (i: number) => string> = {
      overview: () => '/',
      channel: (i) => `/channels/slack/${channel(i)}`,
      history: (i) => `/channels/slack/${channel(i)}/history`,
      'subscribe form': (i) => `/channels/slack/${channel(i)}/subscribe`,
    };
    const pages: PanelBenchResult['pages'] = {};
    for (const [kind, path] of Object.entries(kinds)) {
      // A few first: compiled templates and warm caches, as a running panel has them.
      for (let i = 0; i < 3; i += 1) await client.get(`${t.url}${path(i)}`);
      t.served.length = 0;
      let bytes = 0;
      for (let i = 0; i < options.requests; i += 1) {
        const answer = await client.get(`${t.url}${path(i)}`);
        if (answer.status !== 200)
          violations.push({ benchmark: 'panel', problem: `${kind} answered ${answer.status}` });
        bytes = Math.max(bytes, answer.body.length);
      }
      const ms = t.served.map((s) => s.ms);
      pages[kind] = {
        p50: round(percentile(ms, 50), 1),
        p95: round(percentile(ms, 95), 1),
        max: round(Math.max(...ms), 1),
        bytes,
      };
    }
    const delays: number[] = [];
    for (let i = 0; i < options.changes; i += 1) {
      const where = channel(i + 1000);
      const page = await client.get(`${t.url}/channels/slack/${where}`);
      const target = (await engine.forChannel('slack', where)).find((s) => s.paused === undefined);
      if (target === undefined) continue;
      const started = performance.now();
      const answer = await client.post(`${t.url}/channels/slack/${where}/subscriptions/${target.id}/pause`, {
        _csrf: PanelClient.csrf(page),
      });
      if (answer.status !== 303)
        violations.push({ benchmark: 'panel', problem: `pause answered ${answer.status}` });
      for (;;) {
        const seen = (await engine.index()).forChannel('slack', where).find((s) => s.id === target.id);
        if (seen?.paused !== undefined) break;
        if (performance.now() - started > 10_000) {
          violations.push({ benchmark: 'panel', problem: 'a change did not reach the engine within 10 s' });
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      delays.push(performance.now() - started);
    }
    return {
      subscriptions: options.subscriptions,
      channels: options.channels,
      pages,
      changeToEngineMs: {
        p50: round(percentile(delays, 50), 1),
        p95: round(percentile(delays, 95), 1),
        max: round(Math.max(...delays), 1),
      },
      violations,
    };
  } finally {
    await t.close();
  }
}

export function panelRows(r: PanelBenchResult): Row[] {
  const size = `${r.subscriptions / 1000}k subs / ${r.channels} channels`;
  return [
    ...Object.entries(r.pages).map(([kind, p]) => ({
      figure: `panel ${kind}: server p95 ms (${size})`,
      value: p.p95,
      goal: '≤ 100',
      detail: `p50 ${p.p50}, max ${p.max}; ${Math.round(p.bytes / 1024)} KiB`,
    })),
    {
      figure: 'panel change → engine routes with it, p95 ms',
      value: r.changeToEngineMs.p95,
      goal: '≤ 1000',
      detail: `p50 ${r.changeToEngineMs.p50}, max ${r.changeToEngineMs.max}: POST through the command to the engine's repository over the store`,
    },
  ];
}
