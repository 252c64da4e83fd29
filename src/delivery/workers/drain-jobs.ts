import { createHash } from 'node:crypto';
import { type ConnectionOptions, Queue } from 'bullmq';
import { Redis, type RedisOptions } from 'ioredis';
import { BotError } from '../../errors.js';

/** Where one directory's delivery engine keeps its keys in Redis (all under the store's namespace). */
export interface WorkerNames {
  /** BullMQ's queue of drain jobs. */
  queueName: string;
  /** BullMQ's key prefix: its keys are `${bullPrefix}:${queueName}:…`. */
  bullPrefix: string;
  /** The per-destination FIFOs (DeliveryQueue). */
  queuePrefix: string;
  /** The shared pacing (SharedPacer): per bot, not per directory. */
  pacePrefix: string;
}

/**
 * Where under the store's namespace the workers' Redis keys live (lists, hashes, BullMQ's own):
 * not keyv's values, so the store's scans and clears leave them alone (redis-key-layout.ts).
 */
export const WORKER_KEYS = 'workers';

/** The engine's names for `directoryId` under the store's `namespace` (`directory-bot` unless sandboxed). */
export function workerNames(namespace: string, directoryId: string): WorkerNames {
  return {
    queueName: `deliveries-${directoryId.replace(/[^A-Za-z0-9_-]/g, '_')}`,
    bullPrefix: `${namespace}:${WORKER_KEYS}:bull`,
    queuePrefix: `${namespace}:${WORKER_KEYS}:q:${directoryId}`,
    pacePrefix: `${namespace}:${WORKER_KEYS}:pace`,
  };
}

/** One drain job per destination: its id, so BullMQ never holds two for one channel. */
export function drainJobId(destinationKey: string): string {
  // BullMQ job ids may not contain ':' (a destination key does).
  return `d${createHash('sha1').update(destinationKey).digest('hex').slice(0, 24)}`;
}

export interface DrainJobData {
  destinationKey: string;
}

/** A connection as BullMQ wants it: blocking commands never time out, and TLS as the store's. */
export function openRedis(url: string): Redis {
  const parsed = new URL(url);
  const options: RedisOptions = {
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    // Heroku Redis presents self-signed certificates on rediss:// URLs (as the store does).
    ...(parsed.protocol === 'rediss:' ? { tls: { rejectUnauthorized: false } } : {}),
  };
  const redis = new Redis(url, options);
  // ioredis reconnects by itself; an outage is reported by the store (its readiness check and
  // error log), and commands meanwhile fail as values the callers handle.
  redis.on('error', () => {});
  return redis;
}

/**
 * Adds drain jobs: at most one per destination exists at a time (the job id), waiting, delayed
 * or active, so one message is in flight per channel across every worker and the FIFO's order is
 * the order of delivery. Adding one that exists does nothing.
 */
export class DrainJobs {
  readonly #queue: Queue<DrainJobData>;

  constructor(connection: ConnectionOptions, names: WorkerNames) {
    this.#queue = new Queue<DrainJobData>(names.queueName, { connection, prefix: names.bullPrefix });
  }

  async add(destinations: Iterable<string>): Promise<void> {
    const jobs = [...new Set(destinations)].map((destinationKey) => ({
      name: 'drain',
      data: { destinationKey },
      opts: {
        jobId: drainJobId(destinationKey),
        removeOnComplete: true,
        removeOnFail: true,
        // Only a store failure throws out of a drain (outcomes are values): keep trying, backing off.
        attempts: 1000,
        backoff: { type: 'exponential', delay: 1000 },
      },
    }));
    for (let start = 0; start < jobs.length; start += 500)
      await this.#queue.addBulk(jobs.slice(start, start + 500));
  }

  /** Jobs by state, for `/directory status`, doctor and the metrics. */
  counts(): Promise<Record<string, number>> {
    return this.#queue.getJobCounts('active', 'waiting', 'delayed', 'failed');
  }

  close(): Promise<void> {
    return this.#queue.close();
  }
}

/** BullMQ's needs of the Redis it runs on, checked at start: a one-line fix when one is not met. */
export async function checkRedisForWorkers(redis: Redis): Promise<void> {
  const info = await redis.info();
  const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(info)?.[1]?.trim();
  const version = field('redis_version') ?? '0';
  const [major = 0] = version.split('.').map(Number);
  if (major < 5)
    throw new BotError(
      'config_invalid',
      `Redis ${version} is too old for delivery workers (BullMQ needs 5.0 or later, 6.2 recommended): upgrade Redis, or set DELIVERY_WORKERS=off to deliver from the polling process`,
    );
  const policy = field('maxmemory_policy');
  if (policy !== undefined && policy !== 'noeviction')
    throw new BotError(
      'config_invalid',
      `Redis maxmemory-policy is ${policy}, and delivery workers need noeviction (an evicted job or queue is a lost message): run "heroku redis:maxmemory REDIS --policy noeviction" (elsewhere: CONFIG SET maxmemory-policy noeviction), or set DELIVERY_WORKERS=off`,
    );
}
