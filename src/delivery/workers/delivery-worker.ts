import { DelayedError, type Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ChatAdapter, Clock } from '../../ports/index.js';
import type { SubscriptionRepository } from '../../subscriptions/index.js';
import type { DeliveredLedger } from '../delivered-ledger.js';
import type { DeliveryRecorder } from '../delivery-log.js';
import { type AttemptQueue, DeliveryAttempts, type DispatchEvent } from '../dispatch/delivery-attempt.js';
import type { OutboxEntry } from '../outbox.js';
import { ThreadDelivery } from '../threads.js';
import { DeliveryQueue } from './delivery-queue.js';
import { type DrainJobData, DrainJobs, openRedis, type WorkerNames } from './drain-jobs.js';
import { SharedPacer } from './shared-pacer.js';

export interface DeliveryWorkerOptions {
  redisUrl: string;
  names: WorkerNames;
  ledger: DeliveredLedger;
  subscriptions: SubscriptionRepository;
  adapters: ReadonlyMap<string, ChatAdapter>;
  clock: Clock;
  /** The delivery log, written with `shared` on: see DeliveryLog. */
  log?: DeliveryRecorder & { flushed(): Promise<void> };
  onEvent?: (event: DispatchEvent) => void;
  /** Destinations drained at once by this worker (one message in flight each); default 16. */
  concurrency?: number;
  /** How long a dead delivery is kept (DEDUPE_TTL_DAYS, see DeliveryQueue); default 30 days. */
  deadRetentionMs?: number;
  /** Failures (not rate limits) before an entry is dead; default 20, as the dispatcher's. */
  maxAttempts?: number;
  /** A killed worker's jobs are taken over after about this long (BullMQ's lock); default 5 s. */
  lockDurationMs?: number;
}

/** Messages one drain job sends before it lets other destinations' jobs go first. */
const BATCH = 20;

type Writable = { -readonly [K in keyof OutboxEntry]: OutboxEntry[K] };

/**
 * A delivery worker (ADR 005): takes drain jobs, one per destination, and sends that destination's
 * FIFO in order through the same attempt as the in-process dispatcher (ledger check, threads,
 * edits, deletes, settle), paced by limits every worker shares. A job that must wait (its entry's
 * backoff, a pace, a 429) moves itself to delayed, costing no attempt and no slot. A worker that
 * dies holding a job loses its lock; BullMQ's stalled check gives the job to another worker, which
 * finds the head claimed and unsettled and checks the delivered ledger before sending it again.
 */
export class DeliveryWorker {
  readonly #options: DeliveryWorkerOptions;
  readonly #redis: Redis;
  readonly #queue: DeliveryQueue;
  readonly #pacer: SharedPacer;
  readonly #drains: DrainJobs;
  readonly #attempts: DeliveryAttempts;
  #worker: Worker<DrainJobData> | undefined;
  /** The worker's own connection: BullMQ leaves a connection it was given open on close. */
  #workerRedis: Redis | undefined;
  #state: 'new' | 'ready' | 'stopped' = 'new';

  constructor(options: DeliveryWorkerOptions) {
    this.#options = options;
    this.#redis = openRedis(options.redisUrl);
    this.#queue = new DeliveryQueue(this.#redis, options.names.queuePrefix, {
      ...(options.deadRetentionMs === undefined ? {} : { deadRetentionMs: options.deadRetentionMs }),
      now: () => options.clock.now(),
    });
    this.#pacer = new SharedPacer(this.#redis, options.names.pacePrefix);
    this.#drains = new DrainJobs(this.#redis, options.names);
    const onEvent = options.onEvent;
    this.#attempts = new DeliveryAttempts({
      outbox: this.#attemptQueue(),
      ledger: options.ledger,
      subscriptions: options.subscriptions,
      clock: options.clock,
      pacer: this.#pacer,
      threads: new ThreadDelivery(options),
      maxAttempts: options.maxAttempts ?? 20,
      log: options.log,
      onEvent: (event) => {
        if (event.type === 'abandoned')
          this.#queue.bury(event.entry, event.reason, options.clock.now()).catch((error: unknown) => {
            onEvent?.({ type: 'error', entry: event.entry, error });
          });
        onEvent?.(event);
      },
    });
  }

  /** Starts taking jobs; resolves once connected. */
  async start(): Promise<void> {
    const lockDuration = this.#options.lockDurationMs ?? 5000;
    this.#workerRedis = openRedis(this.#options.redisUrl);
    const worker = new Worker<DrainJobData>(
      this.#options.names.queueName,
      (job, token) => this.#drain(job, token),
      {
        connection: this.#workerRedis,
        prefix: this.#options.names.bullPrefix,
        concurrency: this.#options.concurrency ?? 16,
        lockDuration,
        stalledInterval: Math.max(1000, Math.floor(lockDuration / 2)),
        // A stall is a worker's death, not the message's fault: never fail a job for it.
        maxStalledCount: 1000,
      },
    );
    // A drain that found its FIFO empty completed; an entry appended meanwhile could not add a
    // job while that one still existed, so look once more now that it is gone.
    worker.on('completed', (job) => void this.#recheck(job.data.destinationKey));
    worker.on('error', () => {});
    this.#worker = worker;
    await worker.waitUntilReady();
    this.#state = 'ready';
  }

  /**
   * Why this worker cannot take jobs now, or undefined when it can (for `/readyz`): not started
   * yet, stopped, or one of its Redis connections not ready (lost and reconnecting: ioredis
   * says so in its status, so no event needs watching).
   */
  readiness(): string | undefined {
    if (this.#state !== 'ready') return this.#state === 'new' ? 'starting' : 'stopped';
    for (const [name, redis] of [
      ['queue', this.#redis],
      ['jobs', this.#workerRedis],
    ] as const)
      if (redis?.status !== 'ready') return `Redis (${name} connection) ${redis?.status ?? 'closed'}`;
    if (this.#worker?.isRunning() !== true) return 'not taking jobs';
    return undefined;
  }

  /** Stops taking jobs, lets the ones in flight finish, and closes its connections. */
  async stop(): Promise<void> {
    this.#state = 'stopped';
    await this.#worker?.close();
    await this.#drains.close();
    await this.#pacer.flushed();
    this.#workerRedis?.disconnect();
    this.#redis.disconnect();
  }

  async #recheck(destinationKey: string): Promise<void> {
    try {
      if ((await this.#queue.depth(destinationKey)) > 0) await this.#drains.add([destinationKey]);
    } catch {
      // The poller's sweep re-adds drain jobs for every destination with a FIFO.
    }
  }

  async #drain(job: Job<DrainJobData>, token: string | undefined): Promise<void> {
    await this.#drainSome(job, token);
    // The destination's log records are written before another worker may take the destination.
    await this.#options.log?.flushed();
  }

  async #drainSome(job: Job<DrainJobData>, token: string | undefined): Promise<void> {
    const { clock, adapters } = this.#options;
    const destinationKey = job.data.destinationKey;
    for (let sent = 0; sent < BATCH; sent += 1) {
      const head = await this.#queue.peek(destinationKey);
      if (head === undefined) return;
      const { entry } = head;
      const adapter = adapters.get(entry.destination.platform);
      const now = clock.now();
      // A platform this worker does not run (configured on another dyno only): look again later.
      if (adapter === undefined) return this.#delay(job, token, now + 60_000);
      if (entry.notBefore > now) return this.#delay(job, token, entry.notBefore);
      const wait = await this.#pacer.take(entry, adapter);
      if (wait > 0) return this.#delay(job, token, now + wait);
      // Its outcome is unknown if a worker claimed it and never settled it: check the ledger first.
      if (head.claimedBefore) (entry as Writable).recovered = true;
      await this.#queue.claim(entry, now);
      await this.#attempts.run(adapter, entry, () => {}, now);
      // Backed off in memory (the store failed around the attempt): wait as the entry says.
      if (entry.notBefore > clock.now()) return this.#delay(job, token, entry.notBefore);
    }
    return this.#delay(job, token, clock.now());
  }

  /** Puts the job back until `at` without spending an attempt (BullMQ's DelayedError). */
  async #delay(job: Job<DrainJobData>, token: string | undefined, at: number): Promise<never> {
    await this.#options.log?.flushed();
    await job.moveToDelayed(Math.max(at, Date.now()), token);
    throw new DelayedError();
  }

  /** The attempt's view of the shared FIFO: each change written to Redis before it counts. */
  #attemptQueue(): AttemptQueue {
    const queue = () => this.#queue;
    return {
      remove: (entry) => queue().remove(entry),
      async reschedule(entry, notBefore, countAttempt = true) {
        const writable = entry as Writable;
        if (countAttempt) writable.attempts += 1;
        writable.notBefore = notBefore;
        await queue().update(entry);
      },
      notePosted(entry, reference) {
        const writable = entry as Writable;
        writable.posted = true;
        if (reference !== undefined) writable.reference = reference;
      },
      noteChecked(entry) {
        (entry as Writable).recovered = false;
      },
      backOffInMemory(entry, notBefore) {
        const writable = entry as Writable;
        writable.attempts += 1;
        writable.notBefore = notBefore;
        // Best effort (the store is what failed): written, a `posted` entry is only recorded next time.
        queue()
          .update(entry)
          .catch(() => {});
      },
      dropDestination: (destinationKey) => queue().drop(destinationKey),
      async enqueueEdit(entry) {
        await queue().append(entry.destinationKey, [entry]);
        return 'coalesced';
      },
    };
  }
}
