import { Redis } from 'ioredis';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { DeliveryWorker, workerNames } from '../../src/delivery/index.js';
import { createDirectoryClient } from '../../src/directory/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { createEngine } from '../../src/engine/engine.js';
import { systemClock } from '../../src/ports/index.js';
import { createStore } from '../../src/store/create-store.js';
import { TEST_SETTINGS } from '../support/engine-harness.js';
import { freePort } from '../support/free-port.js';
import { startRedis } from '../support/private-redis.js';
import { stopProcess } from '../support/stop-process.js';
import { fakeChannelId, startFakeSlackProcess } from './fake-slack-process.js';
import { startAndSubscribe, timed, UNPACED } from './scale-out.js';
import { benchEngineParts, round, silentLogger, type Violation, waitFor } from './support.js';
import type { Row } from './table.js';
import { redisStats } from './worker-processes.js';

export interface WorkersOptions {
  /** Slack destinations, one message each (spread over 100 workspaces). */
  destinations: number;
  /** Runs: `0` is today's in-process dispatcher; N > 0 is N delivery workers (ADR 005). */
  workers: readonly number[];
  windowMs: number;
}

export interface WorkersRun {
  /** 0: the in-process dispatcher; N: N BullMQ delivery workers in this process. */
  workers: number;
  delivered: number;
  drained: boolean;
  messagesPerSecond: number;
  /** This process's CPU per delivered message (dispatch or hand-off + workers), ms. */
  cpuMsPerMessage: number;
  cpuShare: number;
  /** Commands the private Redis ran per message (INFO commandstats), everything included. */
  redisCommandsPerMessage: number;
  /** Redis's own CPU per message (INFO cpu), ms. */
  redisCpuMsPerMessage: number;
  status429: number;
}

export interface WorkersResult {
  destinations: number;
  runs: WorkersRun[];
  /** One worker's CPU per message ÷ the dispatcher's (goal ≤ 1.5). */
  workerCpuRatio: number | undefined;
  /** Redis commands per message with the most workers ÷ with one (goal ≤ 1.1). */
  coordinationRatio: number | undefined;
  /** Worker CPU per message with the most workers ÷ with one. */
  cpuPerMessageRatio: number | undefined;
  /**
   * What N workers on a core each would deliver, from one worker's CPU per message, capped by
   * what Redis's one core allows at the measured Redis CPU per message: a projection, not a run.
   */
  projection: { workers: number; messagesPerSecond: number }[];
  /** A SIGKILLed poller's successor: ms from the kill to its "now polls" line, and the TTL. */
  failover: { leaseTtlMs: number; takeoverMs: number } | undefined;
  violations: Violation[];
}

const TOKEN = 'xoxb-bench-workers';

/**
 * Delivery workers measured (docs/benchmarks.md, "Delivery workers"): the same fan-out through
 * today's in-process dispatcher and through 1, 2, 4 BullMQ workers, on a private Redis whose
 * command counts and CPU are this run's alone; then a poller's failover with real processes.
 */
export async function benchWorkers(options: WorkersOptions): Promise<WorkersResult> {
  const port = await freePort();
  const redis = await startRedis(port);
  const url = `redis://127.0.0.1:${port}`;
  const violations: Violation[] = [];
  try {
    const runs: WorkersRun[] = [];
    for (const workers of options.workers) runs.push(await oneRun(url, workers, options, violations));
    const base = runs.find((r) => r.workers === 0);
    const one = runs.find((r) => r.workers === 1);
    const most = runs.filter((r) => r.workers > 0).at(-1);
    const ratio = (a: number | undefined, b: number | undefined) =>
      a === undefined || b === undefined || b === 0 ? undefined : round(a / b, 2);
    const perWorker = one ? 1000 / Math.max(0.001, one.cpuMsPerMessage) : 0;
    const redisCeiling = one ? 1000 / Math.max(0.001, one.redisCpuMsPerMessage) : 0;
    return {
      destinations: options.destinations,
      runs,
      workerCpuRatio: ratio(one?.cpuMsPerMessage, base?.cpuMsPerMessage),
      coordinationRatio: ratio(most?.redisCommandsPerMessage, one?.redisCommandsPerMessage),
      cpuPerMessageRatio: ratio(most?.cpuMsPerMessage, one?.cpuMsPerMessage),
      projection: [1, 2, 4, 8].map((n) => ({
        workers: n,
        messagesPerSecond: Math.round(Math.min(n * perWorker, redisCeiling)),
      })),
      failover: await measureFailover(url).catch(() => undefined),
      violations,
    };
  } finally {
    await stopProcess(redis, 'SIGTERM');
  }
}

async function oneRun(
  url: string,
  workers: number,
  options: WorkersOptions,
  violations: Violation[],
): Promise<WorkersRun> {
  const admin = new Redis(url);
  await admin.flushall();
  const logger = silentLogger();
  const setup = { token: TOKEN, channels: { from: 2_000_000, count: options.destinations } };
  const channels = Array.from({ length: options.destinations }, (_, i) => fakeChannelId(setup, i));
  const slack = await startFakeSlackProcess(setup);
  const emulator = await startEmulator({ seed: 11 });
  const client = createDirectoryClient({ baseUrl: emulator.url, token: 'dev-token' });
  const store = createStore({ url, namespace: 'bench-workers' });
  const adapter = timed(
    createSlackAdapter({ botToken: TOKEN, signingSecret: 'bench', apiUrl: slack.apiUrl, logger }),
    UNPACED,
  );
  const parts = benchEngineParts(emulator.url);
  const names = workerNames('bench-workers', parts.directoryId);
  let delivered = 0;
  const onEvent = (event: { type: string; entry: { destinationKey: string } }) => {
    if (event.type === 'delivered') delivered += 1;
    else if (event.type === 'abandoned' || event.type === 'rejected')
      violations.push({ benchmark: 'workers', problem: `${event.type}: ${event.entry.destinationKey}` });
  };
  const engine = createEngine({
    store,
    client,
    adapters: [adapter],
    ...parts,
    settings: TEST_SETTINGS,
    ...(workers > 0 ? { workers: { redisUrl: url, names } } : {}),
    onEvent: (event) => {
      if (event.source === 'dispatcher') onEvent(event);
    },
  });
  const running = Array.from(
    { length: workers },
    () =>
      new DeliveryWorker({
        redisUrl: url,
        names,
        ledger: engine.ledger,
        subscriptions: engine.subscriptions,
        adapters: new Map([[adapter.platform, adapter]]),
        clock: systemClock,
        onEvent,
      }),
  );
  try {
    await startAndSubscribe(
      { adapter, client, engine, store, emulatorUrl: emulator.url, logger },
      channels,
      (i) => `T${100 + (i % 100)}`,
    );
    await engine.pollAllOnce(); // seeds the comments cursor
    emulator.admin.addComment({ body: 'workers burst' });
    await engine.pollAllOnce();
    for (const worker of running) await worker.start();

    const redisBefore = await redisStats(admin);
    const cpuBefore = process.cpuUsage();
    const startedAt = performance.now();
    engine.dispatcher.start();
    const drained = await waitFor(() => delivered >= options.destinations, options.windowMs, 20);
    const spanMs = Math.max(1, performance.now() - startedAt);
    const cpu = process.cpuUsage(cpuBefore);
    const redisAfter = await redisStats(admin);
    const counts = await slack.counts();
    const posted = Object.values(counts.posted);
    const twice = posted.filter((n) => n > 1).length;
    if (twice > 0)
      violations.push({ benchmark: 'workers', problem: `${twice} channels got a message twice` });
    const n = Math.max(1, delivered);
    return {
      workers,
      delivered,
      drained,
      messagesPerSecond: round(delivered / (spanMs / 1000), 1),
      cpuMsPerMessage: round((cpu.user + cpu.system) / 1000 / n, 3),
      cpuShare: round((cpu.user + cpu.system) / 1000 / spanMs, 2),
      redisCommandsPerMessage: round((redisAfter.calls - redisBefore.calls) / n, 2),
      redisCpuMsPerMessage: round((redisAfter.cpuMs - redisBefore.cpuMs) / n, 3),
      status429: counts.status429,
    };
  } finally {
    for (const worker of running) await worker.stop();
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

/** Two `directory-bot start` processes on one Redis: SIGKILL the poller, time its successor's takeover. */
async function measureFailover(url: string): Promise<{ leaseTtlMs: number; takeoverMs: number }> {
  const { spawnBot } = await import('../support/child-bot.js');
  const admin = new Redis(url);
  await admin.flushall();
  admin.disconnect();
  const emulator = await startEmulator({ port: 0, seed: 3 });
  const env = {
    PORT: '0',
    LOG_LEVEL: 'info',
    DIRECTORY_BASE_URL: emulator.url,
    DIRECTORY_TOKEN: 'dev-token',
    STORE_URL: url,
    SUBSCRIPTIONS: 'console:failover=comments',
  };
  const first = spawnBot(['start'], env);
  const bots = [first];
  try {
    await first.waitFor(/now polls and delivers/, 30_000);
    const second = spawnBot(['start'], env);
    bots.push(second);
    await second.waitFor(/directory bot ready/, 30_000);
    const killedAt = Date.now();
    await first.stop('SIGKILL');
    await second.waitFor(/now polls and delivers/, 30_000);
    return { leaseTtlMs: 10_000, takeoverMs: Date.now() - killedAt };
  } finally {
    for (const bot of bots) if (bot.child.exitCode === null) await bot.stop('SIGTERM').catch(() => {});
    await emulator.close();
  }
}

/** The benchmark table's rows for the workers run. */
export function workersRows(w: WorkersResult): Row[] {
  const rows: Row[] = w.runs.map((r) => ({
    figure:
      r.workers === 0
        ? `workers ${w.destinations / 1000}k: in-process dispatcher`
        : `workers ${w.destinations / 1000}k: ${r.workers} worker(s)`,
    value: r.messagesPerSecond,
    goal: 'info',
    detail: `msg/s; CPU ${r.cpuMsPerMessage} ms/msg (${r.cpuShare} core); Redis ${r.redisCommandsPerMessage} cmds/msg, ${r.redisCpuMsPerMessage} ms CPU/msg; ${r.delivered} delivered${r.drained ? '' : ' (window ended)'}; 429s ${r.status429}`,
  }));
  if (w.workerCpuRatio !== undefined)
    rows.push({
      figure: 'workers: one worker CPU/msg ÷ dispatcher',
      value: w.workerCpuRatio,
      goal: '≤ 1.5',
      detail: 'same process: hand-off + worker vs dispatcher',
    });
  if (w.coordinationRatio !== undefined)
    rows.push({
      figure: 'workers: Redis cmds/msg, most ÷ one worker',
      value: w.coordinationRatio,
      goal: '≤ 1.1',
      detail: `CPU/msg most ÷ one: ${w.cpuPerMessageRatio}`,
    });
  rows.push({
    figure: 'workers: projected msg/s at 1, 2, 4, 8 workers',
    value: w.projection.at(-1)?.messagesPerSecond ?? 0,
    goal: 'info',
    detail:
      w.projection.map((p) => `${p.workers}: ${p.messagesPerSecond}`).join(', ') +
      ' (a core each, capped by Redis CPU/msg)',
  });
  if (w.failover)
    rows.push({
      figure: 'poller SIGKILLed: ms to the next poller',
      value: w.failover.takeoverMs,
      goal: `≤ ${w.failover.leaseTtlMs} + renew`,
      detail: 'two start processes on one Redis, POLLER_LEASE_TTL_S default',
    });
  return rows;
}
