import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { createDirectoryClient } from '../../src/directory/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import { createEngine } from '../../src/engine/engine.js';
import { createHttpServer } from '../../src/observability/http-server.js';
import type { ChatAdapter, DeliveryPacing } from '../../src/ports/index.js';
import { createStore } from '../../src/store/create-store.js';
import { directoryIdFor } from '../../src/store/directory-keys.js';
import type { Subscription } from '../../src/subscriptions/subscription.js';
import { SUBSCRIPTIONS_KEY } from '../../src/subscriptions/subscription-repository.js';
import { TEST_SETTINGS } from '../support/engine-harness.js';
import { makeTempDir } from '../support/temp-dir.js';
import { createBenchCommandHandler } from './command-handler.js';
import { fakeChannelId, startFakeSlackProcess } from './fake-slack-process.js';
import { benchEngineParts, round, silentLogger, type Violation, waitFor } from './support.js';

export interface ScaleOutOptions {
  /** Slack destinations, one message each. */
  destinations: number;
  /** Workspaces they are spread across (round robin). */
  workspaces: number;
  /** Store URL; default a fresh SQLite file. */
  storeUrl?: string;
  /**
   * Stop measuring after this long of draining (the rest is not delivered). The drain starts
   * with every queue full, its slowest state, so the rate over the window is the worst case.
   */
  windowMs: number;
  /**
   * `lifted` (default): Slack's limits out of the way, so the process is what binds. `adapter`:
   * the adapter's own pacing (1/s per channel, 240/min per workspace), to see that pacing does not
   * bind before the process does when the destinations are spread over many workspaces.
   */
  pacing?: 'lifted' | 'adapter';
}

export interface ScaleOutResult {
  destinations: number;
  workspaces: number;
  pacing: 'lifted' | 'adapter';
  store: string;
  /** Route the burst's item to every subscription and queue it durably, ms. */
  enqueueMs: number;
  delivered: number;
  /** Whether every destination got its message inside the window. */
  drained: boolean;
  spanMs: number;
  /** Mean time of one delivery: the platform call alone, and with the store writes around it. */
  meanPostMs: number;
  meanDeliveryMs: number;
  messagesPerSecond: number;
  /**
   * What the workspaces could take if only Slack's limits applied: the adapter's workspace pace
   * (4/s) × workspaces, capped by 1/s per channel × destinations.
   */
  platformCeilingPerSecond: number;
  /** Achieved ÷ platform ceiling: below 1, the process, not Slack, is what limits delivery. */
  ratio: number;
  /** CPU the bot's process used during the drain, as a share of one core (1 = one core busy). */
  cpuShare: number;
  /** CPU time per delivered message, ms: what bounds one core even when nothing else runs. */
  cpuMsPerMessage: number;
  /** The same for the fake Slack's process: near 1 would mean the test bed, not the bot, was the limit. */
  fakeSlackCpuShare: number;
  eventLoopDelayMs: { p50: number; p99: number; max: number };
  /** keyv calls during the drain (get, getMany, set, setMany, delete), per delivered message. */
  storeCallsPerMessage: number;
  status429: number;
  violations: Violation[];
}

const TOKEN = 'xoxb-scale-out';
/** Slack's own limits are lifted here so that the process is what binds (the ceiling is computed). */
export const UNPACED: DeliveryPacing = {
  perDestination: { ratePerSecond: 1_000, burst: 1_000 },
  global: { ratePerSecond: 1_000_000, burst: 1_000_000 },
};
/** The adapter's workspace pace (SLACK_PACING.perWorkspace: 240 per minute, each workspace). */
const WORKSPACE_PACE_PER_SECOND = 4;

const workspace = (i: number, workspaces: number) => `T${String(100_000 + (i % workspaces))}`;

/**
 * One item fanned out to `destinations` Slack channels across `workspaces` workspaces, through the
 * real engine (route, durable outbox) and the real Slack adapter, against a fake Slack in its own
 * process. The adapter's pacing is lifted so the drain runs as fast as this one process can
 * deliver: messages per second, the CPU it used, its event-loop delay and its store calls show
 * where one process saturates (docs/adr/005-scaling-out.md).
 */
export async function benchScaleOut(options: ScaleOutOptions): Promise<ScaleOutResult> {
  const temp = makeTempDir('directory-bot-scale-out-');
  const logger = silentLogger();
  const setup = { token: TOKEN, channels: { from: 1_000_000, count: options.destinations } };
  const channels = Array.from({ length: options.destinations }, (_, i) => fakeChannelId(setup, i));
  const slack = await startFakeSlackProcess(setup);
  const emulator = await startEmulator({ seed: 11 });
  const client = createDirectoryClient({ baseUrl: emulator.url, token: 'dev-token' });
  const storeUrl = options.storeUrl ?? `sqlite://${join(temp.path, 'scale-out.sqlite')}`;
  const store = createStore({ url: storeUrl, namespace: `bench-scale-out-${process.pid}` });
  const pacing = options.pacing ?? 'lifted';
  const adapter = timed(
    createSlackAdapter({ botToken: TOKEN, signingSecret: 'bench', apiUrl: slack.apiUrl, logger }),
    pacing === 'lifted' ? UNPACED : undefined,
  );
  let delivered = 0;
  let deliveryMs = 0;
  let lastDeliveredAt = 0;
  const violations: Violation[] = [];
  const engine = createEngine({
    store,
    client,
    adapters: [adapter],
    ...benchEngineParts(emulator.url),
    settings: TEST_SETTINGS, // the burst is polled by hand: intervals and leases do not matter
    onEvent: (event) => {
      if (event.source !== 'dispatcher') return;
      if (event.type === 'delivered') {
        delivered += 1;
        deliveryMs += event.ms;
        lastDeliveredAt = performance.now();
      } else if (event.type === 'abandoned' || event.type === 'rejected') {
        violations.push({ benchmark: 'scale-out', problem: `${event.type}: ${event.entry.destinationKey}` });
      }
    },
  });
  const storeCalls = countCalls(store.keyv, ['get', 'getMany', 'set', 'setMany', 'delete']);
  try {
    await startAndSubscribe(
      { adapter, client, engine, store, emulatorUrl: emulator.url, logger },
      channels,
      (i) => workspace(i, options.workspaces),
    );
    await engine.pollAllOnce(); // seeds the comments cursor
    emulator.admin.addComment({ body: 'scale-out burst' });
    const enqueueStarted = performance.now();
    await engine.pollAllOnce();
    const enqueueMs = performance.now() - enqueueStarted;
    if (engine.outbox.size() !== options.destinations) {
      throw new Error(
        `the burst queued ${engine.outbox.size()} deliveries, expected ${options.destinations}`,
      );
    }

    const delay = monitorEventLoopDelay({ resolution: 10 });
    storeCalls.reset();
    const fakeCpuBefore = (await slack.counts()).cpuMs;
    const cpuBefore = process.cpuUsage();
    const startedAt = performance.now();
    delay.enable();
    engine.dispatcher.start();
    const drained = await waitFor(() => engine.outbox.size() === 0, options.windowMs, 50);
    delay.disable();
    const spanMs = Math.max(1, (drained ? lastDeliveredAt : performance.now()) - startedAt);
    const cpu = process.cpuUsage(cpuBefore);
    await engine.dispatcher.stop();

    const counts = await slack.counts();
    const posted = Object.values(counts.posted);
    const twice = posted.filter((n) => n > 1).length;
    const total = posted.reduce((sum, n) => sum + n, 0);
    if (twice > 0)
      violations.push({ benchmark: 'scale-out', problem: `${twice} channels got a message twice` });
    if (total !== delivered) {
      violations.push({
        benchmark: 'scale-out',
        problem: `Slack got ${total} messages, ${delivered} recorded delivered`,
      });
    }
    const messagesPerSecond = delivered / (spanMs / 1000);
    const platformCeilingPerSecond = Math.min(
      options.workspaces * WORKSPACE_PACE_PER_SECOND,
      options.destinations, // 1 per second per channel
    );
    return {
      destinations: options.destinations,
      workspaces: options.workspaces,
      pacing,
      store: store.kind,
      enqueueMs: Math.round(enqueueMs),
      delivered,
      drained,
      spanMs: Math.round(spanMs),
      meanPostMs: round(adapter.postMs() / Math.max(1, total), 1),
      meanDeliveryMs: round(deliveryMs / Math.max(1, delivered), 1),
      messagesPerSecond: round(messagesPerSecond, 1),
      platformCeilingPerSecond,
      ratio: round(messagesPerSecond / platformCeilingPerSecond, 5),
      cpuShare: round((cpu.user + cpu.system) / 1000 / spanMs, 2),
      cpuMsPerMessage: round((cpu.user + cpu.system) / 1000 / Math.max(1, delivered), 2),
      fakeSlackCpuShare: round((counts.cpuMs - fakeCpuBefore) / spanMs, 2),
      eventLoopDelayMs: {
        p50: round(delay.percentile(50) / 1e6, 1),
        p99: round(delay.percentile(99) / 1e6, 1),
        max: round(delay.max / 1e6, 1),
      },
      storeCallsPerMessage: round(storeCalls.total() / Math.max(1, delivered), 2),
      status429: counts.status429,
      violations,
    };
  } finally {
    await engine.dispatcher.stop();
    await adapter.stop();
    await client.close();
    await store.keyv.clear(); // a shared Redis or PostgreSQL keeps nothing of the run
    await store.close();
    await slack.close();
    await emulator.close();
    temp.cleanup();
  }
}

/**
 * Starts the bench's adapter (Slack unless `platform` says otherwise) and subscribes every channel
 * to comments, as one document written directly: seeding 50k routes one by one would take longer
 * than the run.
 */
export async function startAndSubscribe(
  parts: {
    adapter: ChatAdapter;
    client: ReturnType<typeof createDirectoryClient>;
    engine: Parameters<typeof createBenchCommandHandler>[0]['engine'];
    store: ReturnType<typeof createStore>;
    emulatorUrl: string;
    logger: ReturnType<typeof silentLogger>;
  },
  channels: readonly string[],
  workspaceOf: (index: number) => string,
  platform: 'slack' | 'discord' = 'slack',
): Promise<void> {
  const { adapter, client, engine, store, emulatorUrl, logger } = parts;
  await adapter.start({
    http: createHttpServer({ logger, registry: new Registry() }),
    commands: createBenchCommandHandler({ client, engine, store, directoryId: directoryIdFor(emulatorUrl) }),
    logger,
  });
  const createdAt = Date.now() - 60_000;
  const subscriptions: Subscription[] = channels.map((channelId, i) => ({
    id: `s${i.toString(36)}`,
    platform,
    channelId,
    workspaceId: workspaceOf(i),
    feed: 'comments',
    filters: {},
    createdBy: 'bench',
    createdAt,
  }));
  await store.keyv.set(SUBSCRIPTIONS_KEY, subscriptions);
}

/** The adapter with its platform calls timed and its pacing replaced by `pacing` if given, everything else delegated. */
export function timed(
  adapter: ChatAdapter,
  pacing: DeliveryPacing | undefined,
): ChatAdapter & { postMs(): number } {
  let postMs = 0;
  return {
    platform: adapter.platform,
    pacing: pacing ?? adapter.pacing,
    start: (context) => adapter.start(context),
    deliver: async (destination, message, options) => {
      const started = performance.now();
      try {
        return await adapter.deliver(destination, message, options);
      } finally {
        postMs += performance.now() - started;
      }
    },
    health: () => adapter.health(),
    stop: () => adapter.stop(),
    postMs: () => postMs,
  };
}

/** Counts calls to some of an object's methods (store round-trips), leaving what they do alone. */
function countCalls(target: object, methods: readonly string[]): { reset(): void; total(): number } {
  let calls = 0;
  const record = target as Record<string, unknown>;
  for (const name of methods) {
    const original = record[name];
    if (typeof original !== 'function') continue;
    record[name] = (...args: unknown[]) => {
      calls += 1;
      return (original as (...a: unknown[]) => unknown).apply(target, args);
    };
  }
  return {
    reset: () => {
      calls = 0;
    },
    total: () => calls,
  };
}
