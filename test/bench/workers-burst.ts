import { readFileSync } from 'node:fs';
import { QueueEvents } from 'bullmq';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { openRedis, workerNames } from '../../src/delivery/index.js';
import { createDirectoryClient } from '../../src/directory/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { createEngine } from '../../src/engine/engine.js';
import { createStore } from '../../src/store/create-store.js';
import buildBeforeTests from '../support/build-before-tests.js';
import { type ChildBot, spawnBot } from '../support/child-bot.js';
import { TEST_SETTINGS } from '../support/engine-harness.js';
import { freePort } from '../support/free-port.js';
import { startRedis } from '../support/private-redis.js';
import { processExists, stopProcess } from '../support/stop-process.js';
import { fakeChannelId, fakeDiscordChannelId, startFakeProcess } from './fake-slack-process.js';
import { startAndSubscribe } from './scale-out.js';
import { benchEngineParts, round, seededRandom, silentLogger, type Violation } from './support.js';
import type { Row } from './table.js';

export interface WorkersBurstOptions {
  /**
   * Slack (no idempotency key: a post in flight at a SIGKILL can show twice) or Discord (its
   * enforced nonce returns the earlier message to a repeated post).
   */
  platform: 'slack' | 'discord';
  /** Destinations, one message each. */
  destinations: number;
  /** Workspaces they are spread across (round robin). */
  workspaces: number;
  /** `directory-bot worker` processes kept running (a killed one is replaced at once). */
  workers: number;
  /** A random worker is SIGKILLed this often until the queue drains. */
  killEveryMs: number;
  /** Give up (a violation) if the burst has not drained by then. */
  windowMs: number;
  /** Which worker each kill picks (seeded, so a run can be repeated). */
  seed?: number;
}

/** A channel that got its message twice, and what the workers said about it. */
export interface Duplicate {
  channel: string;
  /** When the fake Slack accepted each copy, ms after the hand-off started. */
  postedAtMs: number[];
  /** The kill nearest the first copy (ms after the hand-off), and the first copy's time minus the kill's. */
  killAtMs: number | undefined;
  firstCopyMinusKillMs: number | undefined;
  /** A worker logged "outcome unknown after a takeover … sending it" for this channel. */
  resentAfterTakeover: boolean;
}

export interface WorkersBurstResult {
  platform: 'slack' | 'discord';
  destinations: number;
  workspaces: number;
  workers: number;
  killEveryMs: number;
  pacing: 'adapter';
  /** Route the item to every subscription and hand the burst to Redis, ms. */
  routeMs: number;
  handOffMs: number;
  drained: boolean;
  /** From the hand-off's start to the last post the fake Slack accepted. */
  drainMs: number;
  messagesPerSecond: number;
  /** Channels that got the message once, not at all, more than once. */
  once: number;
  lost: number;
  twice: number;
  duplicates: Duplicate[];
  /**
   * Where the duplicates' first copies fell around the nearest kill (ms, negative: before it), and
   * whether every second copy followed a takeover's ledger check that found nothing: the window
   * ADR 005 names (posted, SIGKILLed before the ledger was written), or something else.
   */
  duplicateWindow: { fromMs: number; toMs: number; allResentAfterTakeover: boolean } | undefined;
  kills: number;
  /** Each kill: ms after the hand-off, and the pid, proven gone. */
  killed: { atMs: number; pid: number }[];
  /** Jobs BullMQ found stalled (a dead worker's lock lapsed) and gave to another worker. */
  stalledRecovered: number;
  /** Ledger checks after a takeover: found "already posted" (settled, not sent), or not found (sent). */
  ledgerAlreadyPosted: number;
  ledgerResent: number;
  /** Discord: re-sent posts its nonce turned into the earlier message (each a duplicate saved). */
  nonceRepeated: number;
  status429: number;
  /** Discord: the 429s by request, since a worker's start-up calls are not paced by the shared pacer. */
  status429By?: Record<string, number>;
  /** Worker processes started in all (the first ones and every replacement). */
  processesStarted: number;
  loadAverage: { start: string; end: string };
  violations: Violation[];
}

/**
 * Sizes per mode. Quick (only when named): 5k Slack destinations over 100 workspaces, a kill every
 * 5 s. Full: the issue's 50k over 1,000 workspaces, a kill every 10 s. Discord's 50 posts a second
 * per bot would make its 50k a 17-minute run, so its burst is a tenth of Slack's: enough kills to
 * show what its nonce saves.
 */
export const WORKERS_BURST_SIZES: Record<'quick' | 'full', readonly WorkersBurstOptions[]> = {
  quick: [
    {
      platform: 'slack',
      destinations: 5_000,
      workspaces: 100,
      workers: 2,
      killEveryMs: 5_000,
      windowMs: 300_000,
    },
    {
      platform: 'discord',
      destinations: 1_000,
      workspaces: 100,
      workers: 2,
      killEveryMs: 5_000,
      windowMs: 120_000,
    },
  ],
  full: [
    {
      platform: 'slack',
      destinations: 50_000,
      workspaces: 1_000,
      workers: 2,
      killEveryMs: 10_000,
      windowMs: 1_500_000,
    },
    {
      platform: 'discord',
      destinations: 5_000,
      workspaces: 1_000,
      workers: 2,
      killEveryMs: 10_000,
      windowMs: 600_000,
    },
  ],
};

const SLACK_TOKEN = 'xoxb-bench-workers-burst';
const DISCORD_TOKEN = 'bench-workers-burst-discord';
const DISCORD_APPLICATION_ID = '100000000000000001';
const WORKER_READY = /delivery worker ready/;

const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A burst to N Slack channels over many workspaces (or N Discord channels) drained by
 * `directory-bot worker` processes (the compiled CLI) while a random one is SIGKILLed every few
 * seconds and replaced, as a dyno manager would (docs/benchmarks.md, section 14). Routing and the
 * hand-off run here through the real engine; Redis is a private redis-server; the fake platform
 * has its own process, and its record of accepted posts is what counts: each channel exactly once.
 */
export async function benchWorkersBurst(options: WorkersBurstOptions): Promise<WorkersBurstResult> {
  const violations: Violation[] = [];
  const violation = (problem: string) => violations.push({ benchmark: 'workers-burst', problem });
  buildBeforeTests(); // the compiled CLI the workers run, rebuilt if older than the sources
  const startLoad = loadAverage();
  const redisPort = await freePort();
  const redis = await startRedis(redisPort);
  const url = `redis://127.0.0.1:${redisPort}`;
  const logger = silentLogger();
  const slackRun = options.platform === 'slack';
  const setup = {
    token: slackRun ? SLACK_TOKEN : DISCORD_TOKEN,
    channels: { from: 3_000_000, count: options.destinations },
  };
  const channelId = slackRun ? fakeChannelId : fakeDiscordChannelId;
  const channels = Array.from({ length: options.destinations }, (_, i) => channelId(setup, i));
  const live: ChildBot[] = [];
  const all: ChildBot[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const fake = await startFakeProcess(
      new URL(slackRun ? './fake-slack-child.ts' : './fake-discord-child.ts', import.meta.url),
      setup,
    );
    cleanups.push(() => fake.close());
    const emulator = await startEmulator({ port: 0, seed: 11 });
    cleanups.push(() => emulator.close());
    const client = createDirectoryClient({ baseUrl: emulator.url, token: 'dev-token' });
    cleanups.push(() => client.close());
    // The CLI's own namespace, so the workers read the ledger and FIFOs the engine here writes.
    const store = createStore({ url, namespace: 'directory-bot' });
    cleanups.push(() => store.close());
    const adapter = slackRun
      ? createSlackAdapter({ botToken: SLACK_TOKEN, signingSecret: 'bench', apiUrl: fake.apiUrl, logger })
      : createDiscordAdapter({
          token: DISCORD_TOKEN,
          applicationId: DISCORD_APPLICATION_ID,
          apiUrl: fake.apiUrl,
          gateway: false,
          logger,
        });
    cleanups.push(() => adapter.stop());
    const parts = benchEngineParts(emulator.url);
    const names = workerNames('directory-bot', parts.directoryId);
    const engine = createEngine({
      store,
      client,
      adapters: [adapter],
      ...parts,
      settings: TEST_SETTINGS,
      workers: { redisUrl: url, names },
    });
    cleanups.push(async () => {
      await engine.dispatcher.stop();
      await engine.stop();
    });
    const handOff = engine.handOff;
    if (handOff === undefined) throw new Error('the engine did not hand over to workers');
    // BullMQ's event stream, read as it is written: every job a stalled check gave back.
    const eventsRedis = openRedis(url);
    const events = new QueueEvents(names.queueName, { connection: eventsRedis, prefix: names.bullPrefix });
    cleanups.push(async () => {
      await events.close();
      eventsRedis.disconnect();
    });
    let stalledRecovered = 0;
    events.on('stalled', () => {
      stalledRecovered += 1;
    });
    await events.waitUntilReady();

    await startAndSubscribe(
      { adapter, client, engine, store, emulatorUrl: emulator.url, logger },
      channels,
      (i) =>
        slackRun
          ? `T${String(100_000 + (i % options.workspaces))}`
          : String(400_000_000_000_000_000n + BigInt(i % options.workspaces)),
      options.platform,
    );
    await engine.pollAllOnce(); // seeds the comments cursor
    emulator.admin.addComment({ body: 'workers burst' });
    const routeStarted = performance.now();
    await engine.pollAllOnce();
    const routeMs = performance.now() - routeStarted;
    if (engine.outbox.size() !== options.destinations)
      throw new Error(
        `the burst queued ${engine.outbox.size()} deliveries, expected ${options.destinations}`,
      );

    // The real `directory-bot worker`, compiled, with the adapter's own pacing.
    const env = {
      PORT: '0',
      LOG_LEVEL: 'info',
      DIRECTORY_BASE_URL: emulator.url,
      DIRECTORY_TOKEN: 'dev-token',
      STORE_URL: url,
      ...(slackRun
        ? { SLACK_BOT_TOKEN: SLACK_TOKEN, SLACK_SIGNING_SECRET: 'bench', SLACK_API_URL: fake.apiUrl }
        : {
            DISCORD_TOKEN,
            DISCORD_APPLICATION_ID,
            DISCORD_API_URL: fake.apiUrl,
            DISCORD_GATEWAY: 'false',
          }),
    };
    const startWorker = () => {
      const bot = spawnBot(['worker'], env);
      live.push(bot);
      all.push(bot);
      return bot;
    };
    for (let i = 0; i < options.workers; i += 1) startWorker();
    await Promise.all(live.map((bot) => bot.waitFor(WORKER_READY, 60_000)));

    const handOffStarted = Date.now();
    const since = (at: number) => at - handOffStarted;
    // The kills start with the hand-off, which the workers drain as it goes (50k take seconds).
    engine.dispatcher.start();
    let handOffMs: number | undefined;

    const random = seededRandom(options.seed ?? 27);
    const killed: { atMs: number; pid: number }[] = [];
    const deadline = handOffStarted + options.windowMs;
    let nextKill = handOffStarted + options.killEveryMs;
    let drained = false;
    while (Date.now() < deadline) {
      if (handOffMs === undefined && engine.outbox.size() === 0) handOffMs = since(Date.now());
      if (handOffMs !== undefined && (await handOff.queue.size()) === 0) {
        drained = true;
        break;
      }
      if (Date.now() >= nextKill) {
        nextKill += options.killEveryMs;
        const victim = live.splice(Math.floor(random() * live.length), 1)[0]!;
        const pid = victim.child.pid!;
        const atMs = since(Date.now());
        const exit = await victim.stop('SIGKILL', 10_000);
        if (exit.signal !== 'SIGKILL' || processExists(pid)) violation(`worker ${pid} survived its SIGKILL`);
        killed.push({ atMs, pid });
        startWorker(); // as a dyno manager restarts a crashed dyno
      }
      await sleep(100);
    }
    if (!drained) violation(`not drained within ${options.windowMs} ms: ${await handOff.queue.size()} left`);
    // A moment for anything on its way to arrive twice, with every worker still running.
    await sleep(2_000);

    const counts = await fake.counts();
    let once = 0;
    let lost = 0;
    let twice = 0;
    for (const channel of channels) {
      const n = counts.posted[channel] ?? 0;
      if (n === 1) once += 1;
      else if (n === 0) lost += 1;
      else twice += 1;
    }
    const logs = all.map((bot) => bot.output()).join('\n');
    const logLines = (message: string) => logs.split('\n').filter((line) => line.includes(message));
    const resentLines = logLines('outcome unknown after a takeover');
    const duplicates = Object.entries(counts.twice).map(([channel, at]): Duplicate => {
      const first = since(at[0]!);
      const kill = killed.reduce<{ atMs: number } | undefined>(
        (best, k) =>
          best === undefined || Math.abs(k.atMs - first) < Math.abs(best.atMs - first) ? k : best,
        undefined,
      );
      return {
        channel,
        postedAtMs: at.map(since),
        killAtMs: kill?.atMs,
        firstCopyMinusKillMs: kill === undefined ? undefined : first - kill.atMs,
        resentAfterTakeover: resentLines.some((line) => line.includes(`"channel":"${channel}"`)),
      };
    });
    if (lost > 0) violation(`${lost} of ${options.destinations} channels never got their message`);
    if (twice > 0) {
      const all = duplicates.every((d) => d.resentAfterTakeover);
      violation(
        `${twice} channels got their message twice${all ? ', each re-sent after a takeover found no ledger entry (a post SIGKILLed before its ledger write)' : ''}: see duplicates`,
      );
    }
    const drainMs = Math.max(1, (counts.lastAt ?? Date.now()) - handOffStarted);
    const delivered = once + twice;
    const nonceRepeated = Object.entries(counts.nonceRepeated ?? {}).reduce(
      (sum, [channel, at]) => sum + at.length - (counts.posted[channel] ?? 0),
      0,
    );
    return {
      platform: options.platform,
      destinations: options.destinations,
      workspaces: options.workspaces,
      workers: options.workers,
      killEveryMs: options.killEveryMs,
      pacing: 'adapter',
      routeMs: Math.round(routeMs),
      handOffMs: handOffMs ?? Number.NaN,
      drained,
      drainMs,
      messagesPerSecond: round(delivered / (drainMs / 1000), 1),
      once,
      lost,
      twice,
      duplicates,
      duplicateWindow:
        duplicates.length === 0
          ? undefined
          : {
              fromMs: Math.min(...duplicates.map((d) => d.firstCopyMinusKillMs ?? Number.NaN)),
              toMs: Math.max(...duplicates.map((d) => d.firstCopyMinusKillMs ?? Number.NaN)),
              allResentAfterTakeover: duplicates.every((d) => d.resentAfterTakeover),
            },
      kills: killed.length,
      killed,
      stalledRecovered,
      ledgerAlreadyPosted: logLines('already posted (the delivered ledger says so)').length,
      ledgerResent: resentLines.length,
      nonceRepeated,
      status429: counts.status429,
      ...(counts.status429By === undefined ? {} : { status429By: counts.status429By }),
      processesStarted: all.length,
      loadAverage: { start: startLoad, end: loadAverage() },
      violations,
    };
  } finally {
    for (const bot of all)
      if (bot.child.exitCode === null && bot.child.signalCode === null)
        await bot.stop('SIGKILL', 10_000).catch(() => {});
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    await stopProcess(redis, 'SIGTERM');
  }
}

/** The benchmark table's rows for the burst. */
export function workersBurstRows(b: WorkersBurstResult): Row[] {
  const name = `workers burst ${b.platform === 'slack' ? 'Slack' : 'Discord'} ${b.destinations / 1000}k`;
  const size = `${b.workspaces} ${b.platform === 'slack' ? 'workspaces' : 'servers'}, ${b.workers} workers, SIGKILL every ${b.killEveryMs / 1000} s`;
  return [
    {
      figure: `${name}: lost`,
      value: b.lost,
      goal: '0',
      detail: `${size}; ${b.once} once of ${b.destinations}; ${b.kills} kills, ${b.stalledRecovered} stalled jobs recovered`,
    },
    {
      figure: `${name}: posted twice`,
      value: b.twice,
      goal: '0',
      detail: `${b.duplicateWindow ? `first copies ${b.duplicateWindow.fromMs}…${b.duplicateWindow.toMs} ms from a kill${b.duplicateWindow.allResentAfterTakeover ? ', each re-sent after a takeover found no ledger entry' : ''}; ` : ''}ledger after a takeover: ${b.ledgerAlreadyPosted} already posted (not sent), ${b.ledgerResent} not found (sent)${b.platform === 'discord' ? `; ${b.nonceRepeated} re-sent posts the nonce answered with the earlier message` : ''}; 429s ${b.status429}${
        b.status429By && b.status429 > 0
          ? ` (${Object.entries(b.status429By)
              .map(([request, n]) => `${request}: ${n}`)
              .join(', ')})`
          : ''
      }`,
    },
    {
      figure: `${name}: msg/s`,
      value: b.messagesPerSecond,
      goal: 'info',
      detail: `drained in ${round(b.drainMs / 1000, 1)} s${b.drained ? '' : ' (NOT drained)'} from the hand-off (${b.handOffMs} ms of it); routed in ${b.routeMs} ms; the adapter's own pacing; load ${b.loadAverage.start} → ${b.loadAverage.end}`,
    },
  ];
}
