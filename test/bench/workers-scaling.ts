import { Redis } from 'ioredis';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { workerNames } from '../../src/delivery/index.js';
import { createDirectoryClient } from '../../src/directory/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { createEngine } from '../../src/engine/engine.js';
import { createStore } from '../../src/store/create-store.js';
import type { ChildBot } from '../support/child-bot.js';
import { TEST_SETTINGS } from '../support/engine-harness.js';
import { freePort } from '../support/free-port.js';
import { startRedis } from '../support/private-redis.js';
import { stopProcess } from '../support/stop-process.js';
import { type CpuCapMethod, CpuCaps, processCpuMs, type Throttling } from './cpu-cap.js';
import { fakeChannelId, startFakeSlackProcess } from './fake-slack-process.js';
import { benchFanOut, type FanOutOptions, type FanOutResult } from './fan-out.js';
import { startAndSubscribe } from './scale-out.js';
import { benchEngineParts, round, silentLogger, type Violation, waitFor } from './support.js';
import type { Row } from './table.js';
import { buildCli, redisStats, startWorkers, stopWorkers } from './worker-processes.js';
import { benchWorkersFanOut, type WorkersFanOutResult } from './workers-fan-out.js';

export interface WorkerScalingOptions {
  /** Worker process counts, one run each; the first is the base of the ratios (1). */
  workers: readonly number[];
  /** Slack destinations queued for each run: enough that the queue never runs dry in the window. */
  destinations: number;
  /** Workspaces they are spread over: enough that Slack's workspace pace (4/s each) never binds. */
  workspaces: number;
  /** CPU each worker process may use, in cores. */
  coresPerWorker: number;
  /** Draining before the window opens (the workers' JIT, connections, the first jobs). */
  warmupMs: number;
  windowMs: number;
}

export interface WorkerScalingRun {
  workers: number;
  /** How each worker was held to its share (see CpuCaps), and in words, or why it was not. */
  cap: CpuCapMethod;
  isolation: string;
  /** Messages Slack accepted in the window, per second. */
  messagesPerSecond: number;
  /** Each worker's CPU over the window, in cores (its quota is `coresPerWorker`). */
  workerCores: number[];
  /** Each worker's CFS periods in the window and how many ran out of quota (cgroups only). */
  throttling: (Throttling | undefined)[];
  /** The workers' CPU per message, ms (every worker's CPU ÷ every message). */
  cpuMsPerMessage: number;
  redisCommandsPerMessage: number;
  redisCpuMsPerMessage: number;
  redisCores: number;
  fakeSlackCores: number;
  /** Messages still queued when the window closed (0 would mean it ran dry, and the rate is low). */
  queuedAtEnd: number;
  status429: number;
}

export interface WorkerScalingResult {
  destinations: number;
  workspaces: number;
  coresPerWorker: number;
  /** How the runs were isolated, or why not (CpuCaps.reason). */
  isolation: string;
  runs: WorkerScalingRun[];
  /** msg/s of N workers ÷ msg/s of one, per N (goal ≥ 0.9 × N). */
  ratios: { workers: number; ratio: number }[];
  /**
   * N workers with a core each (separate dynos): N × one worker's msg per CPU-second, against
   * Redis's one core at the measured Redis CPU per message, and Slack's ceiling.
   */
  projection: {
    messagesPerSecondPerCore: number;
    redisCeiling: number;
    slackCeiling: number;
    points: { workers: number; messagesPerSecond: number; binding: 'workers' | 'redis' | 'slack' }[];
  };
  violations: Violation[];
}

export interface WorkerProcessesOptions {
  scaling: WorkerScalingOptions;
  /** The fan-out burst, in-process and then through this many worker processes. */
  fanOut: Pick<FanOutOptions, 'channels' | 'slackItems' | 'discordItems'> & { workers: number };
}

export interface WorkerProcessesResult {
  scaling?: WorkerScalingResult | undefined;
  fanOut?: { inProcess: FanOutResult; workers: WorkersFanOutResult } | undefined;
  errors: string[];
  violations: Violation[];
}

/**
 * Delivery workers as real processes (`--only workers`, docs/benchmarks.md section 13): the
 * throughput of N capped worker processes ÷ one, and the fan-out ÷ ceiling through worker
 * processes beside the in-process dispatcher's, on a private redis-server.
 */
export async function benchWorkerProcesses(options: WorkerProcessesOptions): Promise<WorkerProcessesResult> {
  buildCli();
  const port = await freePort();
  const server = await startRedis(port);
  const redis = { url: `redis://127.0.0.1:${port}`, pid: server.pid };
  const result: WorkerProcessesResult = { errors: [], violations: [] };
  const attempt = async <T>(name: string, run: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      result.errors.push(
        `${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return undefined;
    }
  };
  try {
    result.scaling = await attempt('scaling', () => benchWorkerScaling(redis, options.scaling));
    const inProcess = await attempt('fan-out in-process', () => benchFanOut(options.fanOut));
    const workers = await attempt('fan-out via workers', () => benchWorkersFanOut(redis.url, options.fanOut));
    if (inProcess && workers) result.fanOut = { inProcess, workers };
    for (const part of [result.scaling, inProcess, workers])
      if (part) result.violations.push(...part.violations);
    return result;
  } finally {
    await stopProcess(server, 'SIGTERM');
  }
}

/** The benchmark table's rows for the worker processes. */
export function workerProcessesRows(w: WorkerProcessesResult): Row[] {
  const rows = w.scaling ? workerScalingRows(w.scaling) : [];
  const f = w.fanOut;
  if (f) {
    for (const [name, inProcess, workers] of [
      ['Slack', f.inProcess.slack, f.workers.slack],
      ['Discord', f.inProcess.discord, f.workers.discord],
    ] as const) {
      rows.push({
        figure: `fan-out ${name} via ${f.workers.workers} workers: msg/s ÷ ceiling`,
        value: workers.ratio,
        goal: `≈ ${inProcess.ratio}`,
        detail: `${workers.messagesPerSecond} of ${workers.ceiling.messagesPerSecond} msg/s; in-process this run ${inProcess.ratio} (${inProcess.messagesPerSecond} msg/s); ${f.workers.channels} ch × ${inProcess.itemsPerChannel}; 429s ${workers.status429} (in-process ${inProcess.status429}); Redis ${f.workers.redisCommandsPerMessage} cmds/msg`,
      });
    }
  }
  for (const error of w.errors)
    rows.push({
      figure: 'workers processes: not measured',
      value: Number.NaN,
      goal: '-',
      detail: error.split('\n')[0] ?? '',
    });
  return rows;
}

const TOKEN = 'xoxb-bench-scaling';
/** The adapter's workspace pace (SLACK_PACING.perWorkspace: 240 a minute) and the 1,000 workspaces Slack's ceiling counts. */
const WORKSPACE_PACE = 4;
const SLACK_CEILING_WORKSPACES = 1_000;

/**
 * Throughput of N real `directory-bot worker` processes ÷ one, each held to the same CPU share
 * (docs/benchmarks.md, section 13): the queue is filled through the real routing and hand-off,
 * then N workers drain it into a fake Slack in its own process, and the rate is read over a fixed
 * window after a warm-up, with every queue still full (steady state).
 */
export async function benchWorkerScaling(
  redis: { url: string; pid: number | undefined },
  options: WorkerScalingOptions,
): Promise<WorkerScalingResult> {
  const violations: Violation[] = [];
  const runs: WorkerScalingRun[] = [];
  let isolation = '';
  for (const workers of options.workers) {
    const run = await oneRun(redis, workers, options, violations);
    isolation = run.isolation;
    runs.push(run.result);
  }
  const base = runs[0];
  const perCore = base && base.cpuMsPerMessage > 0 ? Math.round(1000 / base.cpuMsPerMessage) : Number.NaN;
  const redisCpu = Math.max(0.001, ...runs.map((r) => r.redisCpuMsPerMessage));
  const redisCeiling = Math.round(1000 / redisCpu);
  const slackCeiling = SLACK_CEILING_WORKSPACES * WORKSPACE_PACE;
  return {
    destinations: options.destinations,
    workspaces: options.workspaces,
    coresPerWorker: options.coresPerWorker,
    isolation,
    runs,
    ratios: runs.map((r) => ({
      workers: r.workers,
      ratio: base ? round(r.messagesPerSecond / Math.max(0.001, base.messagesPerSecond), 2) : Number.NaN,
    })),
    projection: {
      messagesPerSecondPerCore: perCore,
      redisCeiling,
      slackCeiling,
      points: [1, 2, 4, 8].map((n) => {
        const candidates = [
          ['workers', n * perCore],
          ['redis', redisCeiling],
          ['slack', slackCeiling],
        ] as const;
        const [binding, value] = candidates.reduce((a, b) => (b[1] < a[1] ? b : a));
        return { workers: n, messagesPerSecond: Math.round(value), binding };
      }),
    },
    violations,
  };
}

async function oneRun(
  redis: { url: string; pid: number | undefined },
  workers: number,
  options: WorkerScalingOptions,
  violations: Violation[],
): Promise<{ result: WorkerScalingRun; isolation: string }> {
  const redisUrl = redis.url;
  const admin = new Redis(redisUrl);
  await admin.flushall();
  const logger = silentLogger();
  const setup = { token: TOKEN, channels: { from: 3_000_000, count: options.destinations } };
  const channels = Array.from({ length: options.destinations }, (_, i) => fakeChannelId(setup, i));
  const slack = await startFakeSlackProcess(setup);
  const emulator = await startEmulator({ seed: 13 });
  const client = createDirectoryClient({ baseUrl: emulator.url, token: 'dev-token' });
  // The namespace and directory id the worker processes derive from the same STORE_URL and DIRECTORY_BASE_URL.
  const store = createStore({ url: redisUrl });
  const adapter = createSlackAdapter({
    botToken: TOKEN,
    signingSecret: 'bench',
    apiUrl: slack.apiUrl,
    logger,
  });
  const parts = benchEngineParts(emulator.url);
  const engine = createEngine({
    store,
    client,
    adapters: [adapter],
    ...parts,
    settings: TEST_SETTINGS,
    workers: { redisUrl, names: workerNames('directory-bot', parts.directoryId) },
  });
  const caps = new CpuCaps(workers, options.coresPerWorker);
  let running: ChildBot[] = [];
  try {
    await startAndSubscribe(
      { adapter, client, engine, store, emulatorUrl: emulator.url, logger },
      channels,
      (i) => `T${String(200_000 + (i % options.workspaces))}`,
    );
    running = await startWorkers(workers, {
      STORE_URL: redisUrl,
      DIRECTORY_BASE_URL: emulator.url,
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_SIGNING_SECRET: 'bench',
      SLACK_API_URL: slack.apiUrl,
    });
    const pids = running.map((w) => w.child.pid ?? 0);
    for (const [i, pid] of pids.entries()) caps.add(pid, i);
    for (const pid of [redis.pid, slack.pid, process.pid]) if (pid !== undefined) caps.addBed(pid);

    // Fill the queue through the real routing and hand-off; the capped workers start on it at once.
    await engine.pollAllOnce(); // seeds the comments cursor
    emulator.admin.addComment({ body: 'scaling burst' });
    await engine.pollAllOnce();
    engine.dispatcher.start();
    if (!(await waitFor(() => engine.outbox.size() === 0, 120_000, 50)))
      throw new Error(`the hand-off left ${engine.outbox.size()} deliveries in the outbox`);
    await engine.dispatcher.stop();
    await new Promise((resolve) => setTimeout(resolve, options.warmupMs));

    const sample = async () => {
      const counts = await slack.counts();
      return {
        at: performance.now(),
        posted: Object.values(counts.posted).reduce((sum, n) => sum + n, 0),
        fakeCpuMs: counts.cpuMs,
        cpuMs: pids.map(processCpuMs),
        throttling: pids.map((_, i) => caps.throttling(i)),
        redis: await redisStats(admin),
      };
    };
    const before = await sample();
    await new Promise((resolve) => setTimeout(resolve, options.windowMs));
    const after = await sample();
    const queuedAtEnd = Number(
      (await admin.get(`${workerNames('directory-bot', parts.directoryId).queuePrefix}:count`)) ?? 0,
    );
    await stopWorkers(running);

    const counts = await slack.counts();
    const twice = Object.values(counts.posted).filter((n) => n > 1).length;
    if (twice > 0)
      violations.push({
        benchmark: 'workers',
        problem: `scaling, ${workers} workers: ${twice} channels got a message twice`,
      });
    if (queuedAtEnd === 0)
      violations.push({
        benchmark: 'workers',
        problem: `scaling, ${workers} workers: the queue ran dry in the window`,
      });
    const seconds = (after.at - before.at) / 1000;
    const messages = Math.max(1, after.posted - before.posted);
    const workerCpuMs = pids.map((_, i) => (after.cpuMs[i] ?? 0) - (before.cpuMs[i] ?? 0));
    return {
      isolation: caps.reason,
      result: {
        workers,
        cap: caps.method,
        isolation: caps.reason,
        messagesPerSecond: round((after.posted - before.posted) / seconds, 1),
        workerCores: workerCpuMs.map((ms) => round(ms / 1000 / seconds, 3)),
        throttling: pids.map((_, i) => {
          const a = after.throttling[i];
          const b = before.throttling[i];
          return a && b
            ? { periods: a.periods - b.periods, throttled: a.throttled - b.throttled }
            : undefined;
        }),
        cpuMsPerMessage: round(workerCpuMs.reduce((sum, ms) => sum + ms, 0) / messages, 3),
        redisCommandsPerMessage: round((after.redis.calls - before.redis.calls) / messages, 1),
        redisCpuMsPerMessage: round((after.redis.cpuMs - before.redis.cpuMs) / messages, 3),
        redisCores: round((after.redis.cpuMs - before.redis.cpuMs) / 1000 / seconds, 3),
        fakeSlackCores: round((after.fakeCpuMs - before.fakeCpuMs) / 1000 / seconds, 3),
        queuedAtEnd,
        status429: counts.status429,
      },
    };
  } finally {
    await stopWorkers(running);
    caps.release();
    await engine.dispatcher.stop();
    await engine.stop();
    await adapter.stop();
    await client.close();
    await store.close();
    await slack.close();
    await emulator.close();
    admin.disconnect();
  }
}

/** The benchmark table's rows for the scaling runs. */
export function workerScalingRows(s: WorkerScalingResult): Row[] {
  const rows: Row[] = s.runs.map((r, i) => ({
    figure: `workers scaling: ${r.workers} process(es) msg/s ÷ 1`,
    value: s.ratios[i]?.ratio ?? Number.NaN,
    goal: r.cap === 'none' ? 'not isolated' : r.workers === 1 ? 'base' : `≥ ${round(0.9 * r.workers, 1)}`,
    detail: `${r.cap === 'cgroup' ? '' : `${r.isolation}; `}${r.messagesPerSecond} msg/s (${r.cap}); worker cores ${r.workerCores.join(', ')} of ${s.coresPerWorker}; CPU ${r.cpuMsPerMessage} ms/msg; Redis ${r.redisCommandsPerMessage} cmds, ${r.redisCpuMsPerMessage} ms/msg (${r.redisCores} core); fake Slack ${r.fakeSlackCores} core; ${r.queuedAtEnd} still queued; 429s ${r.status429}`,
  }));
  const p = s.projection;
  rows.push({
    figure: 'workers scaling: projected msg/s at 8 dynos',
    value: p.points.at(-1)?.messagesPerSecond ?? Number.NaN,
    goal: 'info',
    detail: `${p.points.map((q) => `${q.workers}: ${q.messagesPerSecond} (${q.binding})`).join(', ')}; a core each at ${p.messagesPerSecondPerCore} msg/s, Redis ${p.redisCeiling}, Slack ${p.slackCeiling} (1,000 workspaces × 4/s)`,
  });
  return rows;
}
