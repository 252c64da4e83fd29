/**
 * `npm run bench [-- --quick] [-- --only NAME[,NAME]]`: runs the benchmarks locally (emulator,
 * fake Slack, fake Discord, the real bot), prints one table of ratios and writes every raw
 * number to bench-results.json. Exits 1 only when something broke (an exception, an item lost
 * or posted twice), never because a number is slow. Method: docs/benchmarks.md; latest figures:
 * docs/benchmark-results.md.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { benchDigest, type DigestBenchResult, digestRows } from './digest.js';
import { benchEdits, type EditsResult, editsRows } from './edits.js';
import { benchEmulator, type EmulatorBenchResult, type EmulatorCapacity } from './emulator-bench.js';
import { benchFanOut, type FanOutResult } from './fan-out.js';
import { benchFootprint, type FootprintResult, footprintRows } from './footprint.js';
import { benchFreshness, type FreshnessResult } from './freshness.js';
import { freshnessRows } from './freshness-rows.js';
import { benchHomeTab, type HomeTabResult, homeTabRows } from './home-tab.js';
import { benchLookups, type LookupsResult } from './lookups.js';
import { benchPanel, type PanelBenchResult, panelRows } from './panel.js';
import { benchScaleOut, type ScaleOutOptions, type ScaleOutResult } from './scale-out.js';
import { type MachineInfo, machineInfo, round, type Violation } from './support.js';
import { type Row, renderTable } from './table.js';
import { benchWebhookFanOut, type WebhookFanOutResult } from './webhook-fan-out.js';
import { benchWorkers, type WorkersResult, workersRows } from './workers.js';
import {
  benchWorkersBurst,
  WORKERS_BURST_SIZES,
  type WorkersBurstResult,
  workersBurstRows,
} from './workers-burst.js';
import { benchWorkerProcesses, type WorkerProcessesResult, workerProcessesRows } from './workers-scaling.js';

const NAMES = [
  'freshness',
  'fan-out',
  'fan-out-threads',
  'webhook-fan-out',
  'lookups',
  'footprint',
  'emulator',
  'scale-out',
  'workers',
  'workers-burst',
  'home',
  'edits',
  'digest',
  'panel',
] as const;
type Name = (typeof NAMES)[number];

/** Sizes per mode. Quick: CI, under 2 minutes on 2 cores. Full: the issue's sizes. */
const MODES = {
  quick: {
    freshness: { durationMs: 30_000, comments: 20, posts: 6, windowSeconds: 30, seed: 1 },
    fanOut: { channels: 50, slackItems: 1, discordItems: 6 },
    webhookFanOut: { webhooks: 50, itemsPerWebhook: 2 },
    lookups: { requests: 200, warmup: 20 },
    footprint: { channels: 100, ledgerEntries: 10_000, ttlMs: 2_000 },
    emulator: { durationSeconds: 3 },
    // Quick mode runs it only when asked (`--only scale-out`), and small.
    scaleOut: [
      { destinations: 1_000, workspaces: 100, windowMs: 20_000 },
      { destinations: 1_000, workspaces: 100, windowMs: 20_000, pacing: 'adapter' },
    ],
    // Quick mode runs it only when asked (`--only workers`).
    workers: { destinations: 1_000, workers: [0, 1, 2, 4], windowMs: 30_000 },
    // Only when named (`--only workers-burst`): `directory-bot worker` processes SIGKILLed mid-burst.
    workersBurst: WORKERS_BURST_SIZES.quick,
    workerProcesses: {
      scaling: {
        workers: [1, 2],
        destinations: 12_000,
        workspaces: 1_000,
        coresPerWorker: 0.2,
        warmupMs: 5_000,
        windowMs: 15_000,
      },
      fanOut: { channels: 50, slackItems: 1, discordItems: 6, workers: 2 },
    },
    home: { subscriptions: 1_000, viewers: 10, changes: 5, burst: 10 },
    // Quick mode runs it only when asked (`--only edits`): two simulated runs, ~20 s.
    edits: { durationMs: 300_000, minIntervalMs: 60_000, pollMs: 10_000, posts: 8, comments: 6, seed: 1 },
    digest: { subscriptions: 200, slots: 3, itemsPerSlot: 25 },
    // Quick mode runs it only when asked (`--only panel`).
    panel: { subscriptions: 10_000, channels: 1_000, requests: 50, changes: 10 },
  },
  full: {
    freshness: { durationMs: 300_000, comments: 150, posts: 40, windowSeconds: 30, seed: 1 },
    fanOut: { channels: 500, slackItems: 1, discordItems: 6 },
    webhookFanOut: { webhooks: 500, itemsPerWebhook: 2 },
    lookups: { requests: 2_000, warmup: 50 },
    footprint: { channels: 10_000, ledgerEntries: 1_000_000, ttlMs: 60_000 },
    emulator: { durationSeconds: 10 },
    scaleOut: [
      { destinations: 10_000, workspaces: 1_000, windowMs: 60_000 },
      { destinations: 50_000, workspaces: 1_000, windowMs: 60_000 },
    ],
    workers: { destinations: 10_000, workers: [0, 1, 2, 4], windowMs: 120_000 },
    workersBurst: WORKERS_BURST_SIZES.full,
    workerProcesses: {
      scaling: {
        workers: [1, 2, 4],
        destinations: 30_000,
        workspaces: 1_000,
        coresPerWorker: 0.2,
        warmupMs: 5_000,
        windowMs: 20_000,
      },
      fanOut: { channels: 500, slackItems: 1, discordItems: 6, workers: 2 },
    },
    home: { subscriptions: 1_000, viewers: 20, changes: 10, burst: 20 },
    edits: { durationMs: 300_000, minIntervalMs: 60_000, pollMs: 10_000, posts: 8, comments: 6, seed: 1 },
    digest: { subscriptions: 2_000, slots: 4, itemsPerSlot: 25 },
    panel: { subscriptions: 10_000, channels: 1_000, requests: 200, changes: 20 },
  },
} as const;

interface Results {
  mode: 'quick' | 'full';
  machine: MachineInfo;
  startedAt: string;
  durationMs: number;
  freshness?: FreshnessResult | undefined;
  fanOut?: FanOutResult | undefined;
  /** The same burst threaded under a post, run right after `fanOut` (issue 13). */
  fanOutThreads?: FanOutResult | undefined;
  /** A burst to Discord and Teams webhooks (issue 30). */
  webhookFanOut?: WebhookFanOutResult | undefined;
  lookups?: LookupsResult | undefined;
  footprint?: FootprintResult | undefined;
  scaleOut?: ScaleOutResult[] | undefined;
  /** Delivery workers (ADR 005) against the in-process dispatcher, and a poller's failover. */
  workers?: WorkersResult | undefined;
  /** 2 worker processes, a random one SIGKILLed every 10 s (5 s quick) until the burst drains. */
  workersBurst?: WorkersBurstResult[] | undefined;
  /** Worker processes: N capped processes ÷ one, and the fan-out through them (workers-scaling.ts). */
  workerProcesses?: WorkerProcessesResult | undefined;
  home?: HomeTabResult | undefined;
  edits?: EditsResult | undefined;
  digest?: DigestBenchResult | undefined;
  panel?: PanelBenchResult | undefined;
  emulator?: EmulatorBenchResult & {
    neededRequestsPerSecond?: number;
    /** Capacity ÷ the bot's peak need, per kind of request. */
    headroom?: { v1: number; v1Heaviest: number; v2Posts: number };
  };
  errors: { benchmark: string; error: string }[];
  violations: Violation[];
}

function parseOptions(): { mode: 'quick' | 'full'; only: Set<Name>; out: string } {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      out: { type: 'string', default: 'bench-results.json' },
    },
  });
  // The scale-out bursts take minutes: quick mode (CI) leaves them out unless named.
  const all = values.quick
    ? NAMES.filter(
        (name) =>
          name !== 'scale-out' &&
          name !== 'workers' &&
          name !== 'workers-burst' &&
          name !== 'fan-out-threads' &&
          name !== 'edits' &&
          name !== 'panel',
      )
    : NAMES;
  const requested = (values.only ?? all.join(','))
    .split(',')
    .map((name) => name.trim())
    .map((name) => (name === 'efficiency' || name === 'quota' ? 'freshness' : name));
  const unknown = requested.filter((name) => !(NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    console.error(`unknown benchmark ${unknown.join(', ')}; choose from ${NAMES.join(', ')}`);
    process.exit(2);
  }
  return { mode: values.quick ? 'quick' : 'full', only: new Set(requested as Name[]), out: values.out };
}

async function attempt<T>(results: Results, name: string, run: () => Promise<T>): Promise<T | undefined> {
  const started = Date.now();
  console.error(`… ${name}`);
  try {
    const value = await run();
    console.error(`  ${name} done in ${Math.round((Date.now() - started) / 1000)} s`);
    return value;
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    console.error(`  ${name} failed: ${message}`);
    results.errors.push({ benchmark: name, error: message });
    return undefined;
  }
}

async function main(): Promise<number> {
  const { mode, only, out } = parseOptions();
  const sizes = MODES[mode];
  const started = Date.now();
  const results: Results = {
    mode,
    machine: machineInfo(),
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    errors: [],
    violations: [],
  };

  // The footprint runs in its own process, mostly waiting on fsync; freshness mostly waits for
  // its poll intervals. Overlapping them keeps quick mode inside its CI budget.
  const footprint = only.has('footprint')
    ? attempt(results, 'footprint', () => benchFootprint(sizes.footprint))
    : Promise.resolve(undefined);
  if (only.has('freshness'))
    results.freshness = await attempt(results, 'freshness', () => benchFreshness(sizes.freshness));
  results.footprint = await footprint;
  if (only.has('fan-out'))
    results.fanOut = await attempt(results, 'fan-out', () => benchFanOut(sizes.fanOut));
  if (only.has('fan-out-threads')) {
    results.fanOutThreads = await attempt(results, 'fan-out-threads', () =>
      benchFanOut({ ...sizes.fanOut, threads: true }),
    );
  }
  if (only.has('webhook-fan-out')) {
    results.webhookFanOut = await attempt(results, 'webhook-fan-out', () =>
      benchWebhookFanOut(sizes.webhookFanOut),
    );
  }
  if (only.has('lookups'))
    results.lookups = await attempt(results, 'lookups', () => benchLookups(sizes.lookups));
  if (only.has('scale-out')) {
    const storeUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    results.scaleOut = await attempt(results, 'scale-out', async () => {
      const runs: ScaleOutResult[] = [];
      for (const size of sizes.scaleOut as readonly ScaleOutOptions[]) {
        runs.push(await benchScaleOut({ ...size, storeUrl }));
      }
      return runs;
    });
  }
  if (only.has('workers')) {
    results.workers = await attempt(results, 'workers', () => benchWorkers(sizes.workers));
    if (only.has('workers-burst'))
      results.workersBurst = await attempt(results, 'workers-burst', async () => {
        const runs: WorkersBurstResult[] = [];
        for (const size of sizes.workersBurst) runs.push(await benchWorkersBurst(size));
        return runs;
      });
    results.workerProcesses = await attempt(results, 'worker processes', () =>
      benchWorkerProcesses(sizes.workerProcesses),
    );
    for (const error of results.workerProcesses?.errors ?? [])
      results.errors.push({ benchmark: 'workers', error });
  }
  if (only.has('home')) results.home = await attempt(results, 'home', () => benchHomeTab(sizes.home));
  if (only.has('edits')) results.edits = await attempt(results, 'edits', () => benchEdits(sizes.edits));
  if (only.has('digest')) results.digest = await attempt(results, 'digest', () => benchDigest(sizes.digest));
  if (only.has('panel')) results.panel = await attempt(results, 'panel', () => benchPanel(sizes.panel));
  if (only.has('emulator')) {
    const measured = await attempt(results, 'emulator', () => benchEmulator(sizes.emulator));
    if (measured) {
      const needs = [
        results.freshness?.upstreamRequestsPerSecond,
        results.lookups?.upstreamRequestsPerSecond,
      ];
      const needed = Math.max(0, ...needs.filter((n): n is number => n !== undefined));
      const headroom = (c: EmulatorCapacity) => round(c.capacityPerSecond / needed, 1);
      results.emulator = {
        ...measured,
        ...(needed > 0
          ? {
              neededRequestsPerSecond: needed,
              headroom: {
                v1: headroom(measured.v1),
                v1Heaviest: headroom(measured.v1Heaviest),
                v2Posts: headroom(measured.v2Posts),
              },
            }
          : {}),
      };
      const errors = measured.v1.errors + measured.v1Heaviest.errors + measured.v2Posts.errors;
      if (errors > 0)
        results.violations.push({ benchmark: 'emulator', problem: `${errors} failed requests` });
    }
  }

  for (const part of [
    results.freshness,
    results.fanOut,
    results.fanOutThreads,
    results.webhookFanOut,
    results.lookups,
    results.footprint,
    results.home,
    results.edits,
    results.digest,
    results.panel,
    ...(results.scaleOut ?? []),
    results.workers,
    ...(results.workersBurst ?? []),
    results.workerProcesses,
  ]) {
    if (part) results.violations.push(...part.violations);
  }
  results.durationMs = Date.now() - started;
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);

  console.log(renderTable(`directory-bot benchmarks (${mode})`, rows(results), describeMachine(results)));
  console.log(`raw numbers: ${out}`);
  for (const v of results.violations) console.log(`BROKEN ${v.benchmark}: ${v.problem}`);
  for (const e of results.errors) console.log(`FAILED ${e.benchmark}: ${e.error.split('\n')[0]}`);
  return results.violations.length > 0 || results.errors.length > 0 ? 1 : 0;
}

function describeMachine(results: Results): string {
  const m = results.machine;
  return `${m.cpuModel} × ${m.cpus}, ${m.totalMemoryMiB} MiB, Node ${m.node} ${m.platform}; ${Math.round(results.durationMs / 1000)} s`;
}

function rows(results: Results): Row[] {
  const out: Row[] = [];
  if (results.freshness) out.push(...freshnessRows(results.freshness));
  const fan = results.fanOut;
  if (fan) {
    for (const [name, p] of [
      ['Slack', fan.slack],
      ['Discord', fan.discord],
    ] as const) {
      out.push({
        figure: `fan-out ${name}: msg/s ÷ ceiling`,
        value: p.ratio,
        goal: '→ 1',
        detail: `${p.messagesPerSecond} of ${p.ceiling.messagesPerSecond} msg/s (${p.ceiling.binding} limit); ${p.channels} ch × ${p.itemsPerChannel}; ${p.retried} retried`,
      });
      if (p.window) {
        const w = p.window;
        out.push({
          figure: `fan-out ${name}: msg/s ÷ safe window pace`,
          value: w.ratioToSafe,
          goal: 'info',
          detail: `${p.messagesPerSecond} of ${w.safeMessagesPerSecond} msg/s: each window plus the mean round trip ${w.roundTripMs.mean} ms (p50 ${w.roundTripMs.p50}, p95 ${w.roundTripMs.p95})`,
        });
      }
      if (p.timing) {
        const t = p.timing;
        const writes = Object.entries(t.storeWrites)
          .map(([kind, w]) => `${kind} ${w.mean}`)
          .join(', ');
        out.push({
          figure: `fan-out ${name}: ms from a free slot to the send`,
          value: t.slotFree.lag.mean,
          goal: 'info',
          detail: `mean per post (p95 ${t.slotFree.lag.p95}): ${t.slotFree.channelWait.mean} waiting for a channel's own bucket, ${t.slotFree.slack.mean} outbox slack (p95 ${t.slotFree.slack.p95}); loop delay p99 ${t.eventLoopDelayMs.p99}, max ${t.eventLoopDelayMs.max}; first window full at ${t.firstWindow.fullMs}; per post: call ${t.perPost.adapterCall.mean}, record ${t.perPost.record.mean} (store ms: ${writes})`,
        });
      }
      out.push({
        figure: `fan-out ${name}: 429s received`,
        value: p.status429,
        goal: '0',
        detail: `${p.delivered}/${p.messages} delivered`,
      });
    }
  }
  out.push(...threadedFanOutRows(results.fanOut, results.fanOutThreads));
  out.push(...webhookFanOutRows(results.webhookFanOut));
  const l = results.lookups;
  if (l) {
    out.push(
      {
        figure: 'lookups p50: ack ÷ bare Bolt ack',
        value: l.p50Ratio,
        goal: 'info',
        detail: `${l.bot.p50Ms} vs ${l.bare.p50Ms} ms; ${l.requests} commands`,
      },
      {
        figure: 'lookups p99: ack ÷ bare Bolt ack',
        value: l.p99Ratio,
        goal: 'info',
        detail: `${l.bot.p99Ms} vs ${l.bare.p99Ms} ms; ${l.answeredInAck} answered in the ack`,
      },
      {
        figure: 'modal submit → ack p99 ÷ bare Bolt ack',
        value: l.modalSubmit.p99Ratio,
        goal: 'info',
        detail: `${l.modalSubmit.bot.p99Ms} vs ${l.modalSubmit.bare.p99Ms} ms (p50 ${l.modalSubmit.bot.p50Ms} vs ${l.modalSubmit.bare.p50Ms}); ${l.modalSubmit.closedInAck} of ${l.modalSubmit.submissions} subscribed and closed in the ack`,
      },
      {
        figure: 'button click → ack p99 ÷ bare Bolt ack',
        value: l.buttons.p99Ratio,
        goal: 'info',
        detail: `${l.buttons.bot.p99Ms} vs ${l.buttons.bare.p99Ms} ms (p50 ${l.buttons.bot.p50Ms} vs ${l.buttons.bare.p50Ms}); ${l.buttons.answered} of ${l.buttons.clicks} answered`,
      },
    );
  }
  if (results.footprint) out.push(...footprintRows(results.footprint));
  for (const s of results.scaleOut ?? []) {
    out.push({
      figure: `scale-out ${s.destinations / 1000}k${s.pacing === 'adapter' ? ' (adapter pacing)' : ''}: msg/s ÷ what Slack allows`,
      value: s.ratio,
      goal: 'info',
      detail: `${s.messagesPerSecond} of ${s.platformCeilingPerSecond} msg/s (${s.workspaces} workspaces, ${s.store}); CPU ${s.cpuShare} core, ${s.cpuMsPerMessage} ms/msg; loop delay p99 ${s.eventLoopDelayMs.p99} ms; post ${s.meanPostMs} of ${s.meanDeliveryMs} ms`,
    });
  }
  if (results.workers) out.push(...workersRows(results.workers));
  for (const burst of results.workersBurst ?? []) out.push(...workersBurstRows(burst));
  if (results.workerProcesses) out.push(...workerProcessesRows(results.workerProcesses));
  if (results.home) out.push(...homeTabRows(results.home));
  if (results.edits) out.push(...editsRows(results.edits));
  if (results.digest) out.push(...digestRows(results.digest));
  if (results.panel) out.push(...panelRows(results.panel));
  const e = results.emulator;
  if (e) {
    for (const [name, c, ratio, goal] of [
      ['V1 comments poll', e.v1, e.headroom?.v1, '≥ 20'],
      ['V1 50-comment page', e.v1Heaviest, e.headroom?.v1Heaviest, 'info'],
      ['V2 posts poll', e.v2Posts, e.headroom?.v2Posts, '≥ 20'],
    ] as const) {
      out.push({
        figure: `emulator ${name}: capacity ÷ bot's peak need`,
        value: ratio ?? Number.NaN,
        goal,
        detail: `${c.capacityPerSecond} req/s per CPU-s (achieved ${c.requestsPerSecond}, busy ${c.emulatorBusy}, p99 ${c.p99Ms} ms) vs ${e.neededRequestsPerSecond ?? 'n/a'} req/s`,
      });
    }
  }
  return out;
}

process.exitCode = await main();

/**
 * Threads must not cost throughput: the threaded burst's msg/s ÷ ceiling beside the top-level
 * one's, from the same run (goal: unchanged within noise, so the ratio of the two is about 1).
 */
function threadedFanOutRows(off: FanOutResult | undefined, on: FanOutResult | undefined): Row[] {
  if (on === undefined) return [];
  return (['slack', 'discord'] as const).map((platform) => {
    const threaded = on[platform];
    const flat = off?.[platform];
    const name = platform === 'slack' ? 'Slack' : 'Discord';
    return {
      figure: `fan-out ${name} threads on: msg/s ÷ ceiling`,
      value: threaded.ratio,
      goal: flat === undefined ? 'info' : `≈ ${flat.ratio} (off)`,
      detail: `${threaded.messagesPerSecond} of ${threaded.ceiling.messagesPerSecond} msg/s in threads; ${threaded.delivered}/${threaded.messages} delivered; ${threaded.retried} retried, ${threaded.status429} 429s${flat === undefined ? '' : `; on ÷ off ${round(threaded.ratio / flat.ratio)}`}`,
    };
  });
}

/** The webhook fan-out (issue 30): each platform's rate against its documented ceiling. */
function webhookFanOutRows(result: WebhookFanOutResult | undefined): Row[] {
  if (result === undefined) return [];
  return (
    [
      ['Discord webhooks', result.discord],
      ['Teams webhooks', result.teams],
    ] as const
  ).flatMap(([name, p]) => [
    {
      figure: `fan-out ${name}: msg/s ÷ ceiling`,
      value: p.ratio,
      goal: '≥ 0.95',
      detail: `${p.messagesPerSecond} of ${p.ceiling.messagesPerSecond} msg/s (${p.ceiling.binding} limit); ${p.webhooks} webhooks × ${p.itemsPerWebhook}; ${p.delivered}/${p.messages} delivered`,
    },
    {
      figure: `fan-out ${name}: msg/s ÷ safe window pace`,
      value: round(p.messagesPerSecond / p.safeMessagesPerSecond),
      goal: 'info',
      detail: `${p.messagesPerSecond} of ${p.safeMessagesPerSecond} msg/s: each 1 s window plus the mean delivery, ${p.meanDeliveryMs} ms`,
    },
    {
      figure: `fan-out ${name}: retried by our pacing`,
      value: p.retried,
      goal: '0',
      detail: `${p.status429} 429s received`,
    },
    {
      figure: `fan-out ${name}: posted twice`,
      value: p.postedTwice,
      goal: '0',
      detail: 'webhooks showing an item more than once',
    },
  ]);
}
