import { Gauge } from 'prom-client';
import type { Config } from '../config/config.js';
import {
  checkRedisForWorkers,
  DeliveryQueue,
  DeliveryWorker,
  DrainJobs,
  openRedis,
  WorkerDeliveriesByChannel,
  type WorkerNames,
  workerNames,
} from '../delivery/index.js';
import type { Engine, EngineEvent } from '../engine/index.js';
import { BotError } from '../errors.js';
import type { Metrics } from '../observability/metrics.js';
import type { ChatAdapter, Clock } from '../ports/index.js';
import type { BotStore } from '../store/index.js';
import { directoryIdFor, SANDBOX_DIRECTORY_ID } from '../store/index.js';
import { storeNamespace } from './sandbox.js';

/** Which processes a `start` or `worker` run is: the web/poller process, or a delivery worker only. */
export type ProcessRole = 'start' | 'worker';

/**
 * Whether deliveries go through BullMQ workers here (ADR 005): on a Redis store unless
 * DELIVERY_WORKERS=off. SQLite and PostgreSQL keep the in-process dispatcher, unchanged.
 */
export function workersEnabled(config: Config, store: Pick<BotStore, 'kind'>): boolean {
  return (config.workers?.mode ?? 'off') === 'auto' && store.kind === 'redis';
}

/**
 * The engine's `workers` option for this run, after checking what BullMQ needs of Redis; a
 * `worker` run on a store that cannot share is refused with the fix (exit 78 by the CLI).
 */
export async function workersFor(
  config: Config,
  store: Pick<BotStore, 'kind'>,
  namespace: string,
  directoryId: string,
  role: ProcessRole,
): Promise<{ redisUrl: string; names: WorkerNames } | undefined> {
  if (!workersEnabled(config, store)) {
    if (role === 'worker')
      throw new BotError(
        'config_invalid',
        store.kind === 'redis'
          ? 'directory-bot worker needs DELIVERY_WORKERS=auto (it is off): unset DELIVERY_WORKERS, or run "directory-bot start" alone'
          : `directory-bot worker needs a store every process shares, and ${store.kind} is not one: set REDIS_URL to a Redis store, or run "directory-bot start" alone (it delivers itself)`,
      );
    return undefined;
  }
  const redis = openRedis(config.store.url);
  try {
    await checkRedisForWorkers(redis);
  } finally {
    redis.disconnect();
  }
  return { redisUrl: config.store.url, names: workerNames(namespace, directoryId) };
}

/**
 * A delivery worker over the engine's ledger, subscriptions and delivery log, posting through
 * this process's adapters; its events are the dispatcher's (the same logs and metrics).
 */
export function createDeliveryWorker(options: {
  config: Config;
  workers: { redisUrl: string; names: WorkerNames };
  engine: Engine;
  adapters: readonly ChatAdapter[];
  clock: Clock;
  onEvent: (event: EngineEvent) => void;
}): DeliveryWorker {
  const { engine, workers, config } = options;
  return new DeliveryWorker({
    ...workers,
    ledger: engine.ledger,
    subscriptions: engine.subscriptions,
    adapters: new Map(options.adapters.map((a) => [a.platform, a])),
    clock: options.clock,
    log: engine.deliveryLog,
    concurrency: config.workers?.concurrency ?? 16,
    deadRetentionMs: config.feeds.dedupeTtlMs,
    onEvent: (event) => options.onEvent({ source: 'dispatcher', ...event }),
  });
}

/**
 * The workers' FIFOs and drain jobs of the directory `config` reads, for the operator's
 * commands (`directory-bot deliveries`) and doctor; undefined where no workers deliver.
 */
export function openWorkerQueue(config: Config):
  | {
      queue: DeliveryQueue;
      drains: DrainJobs;
      names: WorkerNames;
      /** What BullMQ needs of this Redis (see checkRedisForWorkers); rejects with the fix. */
      checkRedis(): Promise<void>;
      close(): Promise<void>;
    }
  | undefined {
  const kind = /^rediss?:/.test(config.store.url) ? 'redis' : 'other';
  if ((config.workers?.mode ?? 'off') !== 'auto' || kind !== 'redis') return undefined;
  const { baseUrl } = config.directory;
  const directoryId = baseUrl === undefined ? SANDBOX_DIRECTORY_ID : directoryIdFor(baseUrl);
  const names = workerNames(storeNamespace(config).namespace ?? 'directory-bot', directoryId);
  const redis = openRedis(config.store.url);
  const drains = new DrainJobs(redis, names);
  return {
    queue: new DeliveryQueue(redis, names.queuePrefix, { deadRetentionMs: config.feeds.dedupeTtlMs }),
    drains,
    names,
    checkRedis: () => checkRedisForWorkers(redis),
    async close() {
      await drains.close();
      redis.disconnect();
    },
  };
}

/**
 * The delivery workers' queued and dead messages of every directory on the store, for
 * `workspace export`/`forget` and an uninstall; undefined on SQLite and PostgreSQL, where no
 * worker ever ran. Opened whatever DELIVERY_WORKERS says now: workers that ran before it was
 * turned off may have left messages there, and they are the workspace's data all the same.
 */
export function openWorkerDeliveries(
  config: Config,
): { deliveries: WorkerDeliveriesByChannel; close(): void } | undefined {
  if (!/^rediss?:/.test(config.store.url)) return undefined;
  const redis = openRedis(config.store.url);
  return {
    deliveries: new WorkerDeliveriesByChannel(redis, storeNamespace(config).namespace ?? 'directory-bot', {
      deadRetentionMs: config.feeds.dedupeTtlMs,
    }),
    close: () => redis.disconnect(),
  };
}

/** The workers' queue and dead deliveries in the metrics, read from Redis at each scrape. */
export function watchWorkerQueue(metrics: Metrics, queue: DeliveryQueue): void {
  new Gauge({
    name: 'directory_bot_worker_queue',
    help: 'With delivery workers (Redis): messages queued for them (state=queued) and given up on (state=dead), read at each scrape.',
    labelNames: ['state'] as const,
    registers: [metrics.registry],
    async collect() {
      try {
        const [queued, dead] = await Promise.all([queue.size(), queue.deadCount()]);
        this.set({ state: 'queued' }, queued);
        this.set({ state: 'dead' }, dead);
      } catch {
        // Redis not answering: the last values stand, and /readyz says why.
      }
    },
  });
}
