import { type ChildProcess, fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createStore } from '../../../src/store/create-store.js';
import { type FakeSlackProcess, fakeChannelId, startFakeSlackProcess } from '../fake-slack-process.js';
import { percentile, round, type Violation } from '../support.js';
import { type DeliveryJob, loadBullMq } from './bullmq-types.js';
import type { WorkerReport, WorkerSetup } from './delivery-worker.js';

export interface SpikeOptions {
  /** Deliveries in the burst, one per Slack channel. */
  deliveries: number;
  workspaces: number;
  /** Jobs each worker process runs at once (the dispatcher's default is 16). */
  concurrency: number;
  redisUrl: string;
  /** Module specifier BullMQ is imported from (default `bullmq`). */
  bullmq?: string;
  /**
   * One worker then two, this many times over: on a machine others share, the load moves between
   * runs, and alternating lets each pair be compared under similar load.
   */
  rounds?: number;
}

export interface SpikeRun {
  workers: number;
  delivered: number;
  spanMs: number;
  messagesPerSecond: number;
  /** CPU each worker process used during the run, as a share of one core. */
  cpuShare: number[];
  /** CPU time the workers spent per delivered message, ms (load-independent, unlike the rate). */
  cpuMsPerMessage: number;
  /** CPU the fake Slack's process used during the run, as a share of one core. */
  fakeSlackCpuShare: number;
}

export interface SpikeRound {
  one: SpikeRun;
  two: SpikeRun;
  /** Two workers' messages per second ÷ one worker's. */
  ratio: number;
}

export interface SpikeResult {
  deliveries: number;
  workspaces: number;
  concurrency: number;
  rounds: SpikeRound[];
  /** The median of the rounds' ratios. */
  ratio: number;
  violations: Violation[];
}

const TOKEN = 'xoxb-spike';

/**
 * SPIKE, not production code (docs/adr/005-scaling-out.md): the same burst of Slack deliveries
 * handed to BullMQ on Redis and drained by one worker process, then by two; messages per second
 * of each and their ratio. Each worker posts through the real Slack adapter to a fake Slack in its
 * own process and records the delivered ledger, as the dispatcher does; pacing is left out, so
 * what is measured is what a process can do, not what Slack allows.
 */
export async function spikeWorkers(options: SpikeOptions): Promise<SpikeResult> {
  const setup = { token: TOKEN, channels: { from: 2_000_000, count: options.deliveries } };
  const channels = Array.from({ length: options.deliveries }, (_, i) => fakeChannelId(setup, i));
  const slack = await startFakeSlackProcess(setup);
  const violations: Violation[] = [];
  try {
    const rounds: SpikeRound[] = [];
    for (let round_ = 0; round_ < (options.rounds ?? 1); round_ += 1) {
      const one = await runBurst(options, slack, 1, channels, violations);
      const two = await runBurst(options, slack, 2, channels, violations);
      rounds.push({ one, two, ratio: round(two.messagesPerSecond / one.messagesPerSecond, 2) });
    }
    const counts = await slack.counts();
    const expected = 2 * rounds.length; // one message per channel per run
    const wrong = channels.filter((id) => counts.posted[id] !== expected).length;
    if (wrong > 0)
      violations.push({ benchmark: 'spike', problem: `${wrong} channels did not get one message per run` });
    return {
      deliveries: options.deliveries,
      workspaces: options.workspaces,
      concurrency: options.concurrency,
      rounds,
      ratio: percentile(
        rounds.map((r) => r.ratio),
        50,
      ),
      violations,
    };
  } finally {
    await slack.close();
    // The workers' delivered ledger (a day's TTL) goes too: a shared Redis keeps nothing of the run.
    const store = createStore({ url: options.redisUrl, namespace: ledgerNamespace() });
    await store.keyv.clear();
    await store.close();
  }
}

/** The namespace the workers of this run write their delivered ledger under. */
const ledgerNamespace = () => `spike-${process.pid}`;

async function runBurst(
  options: SpikeOptions,
  slack: FakeSlackProcess,
  workers: number,
  channels: readonly string[],
  violations: Violation[],
): Promise<SpikeRun> {
  const specifier = options.bullmq ?? 'bullmq';
  const { Queue } = await loadBullMq(specifier);
  const name = `directory-bot-spike-${process.pid}-${workers}-${Date.now()}`;
  const { createClient } = await import('@redis/client');
  const connection = createClient({ url: options.redisUrl });
  await connection.connect();
  const queue = new Queue<DeliveryJob>(name, { connection });
  const children: ChildProcess[] = [];
  try {
    // The hand-off: one job per delivery, its id derived from the outbox's idempotency key, so
    // handing the same entry over twice (a crash between enqueue and removing it from the outbox)
    // adds nothing. Hashed: BullMQ refuses custom ids with a ':' in most positions.
    const jobs = channels.map((channelId, i) => {
      const destinationKey = `slack:${channelId}`;
      const itemKey = 'comment:spike';
      return {
        name: 'deliver',
        data: {
          destination: {
            platform: 'slack',
            channelId,
            workspaceId: `T${100_000 + (i % options.workspaces)}`,
          },
          destinationKey,
          itemKey,
          message: { kind: 'comment' as const, title: 'Spike', text: 'one burst', fallback: 'Spike' },
        },
        opts: { jobId: createHash('sha256').update(`${destinationKey}|${itemKey}`).digest('base64url') },
      };
    });
    for (let i = 0; i < jobs.length; i += 1000) await queue.addBulk(jobs.slice(i, i + 1000));

    const setup: WorkerSetup = {
      bullmq: specifier,
      queue: name,
      redisUrl: options.redisUrl,
      namespace: ledgerNamespace(),
      apiUrl: slack.apiUrl,
      token: TOKEN,
      concurrency: options.concurrency,
    };
    for (let i = 0; i < workers; i += 1) {
      children.push(
        fork(new URL('./delivery-worker.ts', import.meta.url), [JSON.stringify(setup)], {
          execArgv: ['--import', import.meta.resolve('tsx')],
          stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        }),
      );
    }
    await Promise.all(children.map((child) => next(child, 'ready')));
    const fakeCpuBefore = (await slack.counts()).cpuMs;
    const startedAt = Date.now();
    for (const child of children) child.send({ type: 'go' });
    const deadline = Date.now() + channels.length * 20 + 60_000;
    let counts: Record<string, number> = {};
    while (Date.now() < deadline) {
      counts = await queue.getJobCounts('completed', 'failed');
      if ((counts.completed ?? 0) + (counts.failed ?? 0) >= channels.length) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const reports = await Promise.all(
      children.map((child) => {
        const done = next<Extract<WorkerReport, { type: 'done' }>>(child, 'done');
        child.send({ type: 'stop' });
        return done;
      }),
    );
    const fakeCpuMs = (await slack.counts()).cpuMs - fakeCpuBefore;
    counts = await queue.getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed');
    if ((counts.completed ?? 0) !== channels.length) {
      violations.push({ benchmark: 'spike', problem: `${workers} worker(s): ${JSON.stringify(counts)}` });
    }
    const delivered = reports.reduce((sum, r) => sum + r.delivered, 0);
    const spanMs = Math.max(1, Math.max(...reports.map((r) => r.lastAt)) - startedAt);
    return {
      workers,
      delivered,
      spanMs,
      messagesPerSecond: round(delivered / (spanMs / 1000), 1),
      cpuShare: reports.map((r) => round(r.cpuMs / spanMs, 2)),
      cpuMsPerMessage: round(reports.reduce((sum, r) => sum + r.cpuMs, 0) / Math.max(1, delivered), 2),
      fakeSlackCpuShare: round(fakeCpuMs / spanMs, 2),
    };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
    await queue.obliterate({ force: true });
    await queue.close();
    await connection.quit();
  }
}

function next<T extends { type: string }>(child: ChildProcess, type: T['type']): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: T) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      resolve(message);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before "${type}"`)));
  });
}
