import type { Redis } from 'ioredis';
import type { OutboxEntry } from '../outbox.js';
import { type DeadDelivery, DeliveryQueue, type DeliveryQueueOptions } from './delivery-queue.js';
import { WORKER_KEYS } from './drain-jobs.js';

/** One destination's FIFO in one directory's worker queue. */
export interface WorkerFifo {
  /** The FIFO's list key, as stored (namespace included). */
  key: string;
  destination: string;
  entries: OutboxEntry[];
}

/** One directory's dead deliveries. */
export interface WorkerGraveyard {
  /** The dead deliveries' key, as stored (namespace included). */
  key: string;
  dead: DeadDelivery[];
}

/** Redis glob metacharacters, escaped so a namespace or destination matches only itself. */
const globEscaped = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');
const regexEscaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The delivery workers' queued and dead messages (ADR 005) found by channel, in every directory
 * under one store namespace, for `workspace export` and `forget` and an uninstall (docs/privacy.md).
 * The workers key their FIFOs by destination only, so, like the outbox's, they are found through
 * the workspace's channels (and reminder DMs through the workspace id their entries carry).
 * Directories are found by scanning, so what a directory the bot no longer reads left is found too.
 */
export class WorkerDeliveriesByChannel {
  readonly #redis: Redis;
  readonly #root: string;
  readonly #options: DeliveryQueueOptions;

  /** `namespace`: the store's (`directory-bot`, or the sandbox's); `options`: the dead deliveries' retention. */
  constructor(redis: Redis, namespace: string, options: DeliveryQueueOptions = {}) {
    this.#redis = redis;
    this.#root = `${namespace}:${WORKER_KEYS}:q:`;
    this.#options = options;
  }

  /** Every FIFO whose destination is on one of `platforms` (`slack:…`), with its entries in order. */
  async queues(platforms: readonly string[]): Promise<WorkerFifo[]> {
    const fifos: WorkerFifo[] = [];
    for (const platform of platforms) {
      const shape = new RegExp(`^${regexEscaped(this.#root)}([^:]+):q:(${regexEscaped(platform)}:.+)$`);
      for (const key of await this.#scan(`${globEscaped(this.#root)}*:q:${globEscaped(platform)}:*`)) {
        const match = shape.exec(key);
        if (!match) continue;
        const [, directoryId = '', destination = ''] = match;
        const entries = await this.#queue(directoryId).entries(destination);
        fifos.push({ key, destination, entries });
      }
    }
    return fifos.sort((a, b) => a.key.localeCompare(b.key));
  }

  /** Every directory's dead deliveries (those past their retention are dropped on the way). */
  async graveyards(): Promise<WorkerGraveyard[]> {
    const yards: WorkerGraveyard[] = [];
    for (const directoryId of await this.#directoriesWithDead())
      yards.push({ key: `${this.#root}${directoryId}:dead`, dead: await this.#queue(directoryId).dead() });
    return yards.filter((yard) => yard.dead.length > 0);
  }

  /**
   * Deletes what the workers hold for `destinations` in every directory: their FIFOs (entries,
   * order, edit revisions and claims) and their dead deliveries. A drain job left for one of
   * them finds its FIFO empty and completes, sending nothing. Resolves with how many went.
   */
  async forget(destinations: readonly string[]): Promise<{ queued: number; dead: number }> {
    const wanted = new Set(destinations);
    let queued = 0;
    let dead = 0;
    const shape = new RegExp(`^${regexEscaped(this.#root)}([^:]+):[qevc]:(.+)$`);
    const found = new Map<string, Set<string>>();
    // One pass over the workers' keys, whatever the number of channels.
    for (const key of await this.#scan(`${globEscaped(this.#root)}*`)) {
      const [, directoryId = '', destination = ''] = shape.exec(key) ?? [];
      if (!wanted.has(destination)) continue;
      found.set(directoryId, (found.get(directoryId) ?? new Set()).add(destination));
    }
    for (const [directoryId, mine] of found)
      for (const destination of mine) queued += (await this.#queue(directoryId).drop(destination)).length;
    for (const directoryId of await this.#directoriesWithDead())
      dead += await this.#queue(directoryId).forgetDead(wanted);
    return { queued, dead };
  }

  #queue(directoryId: string): DeliveryQueue {
    return new DeliveryQueue(this.#redis, `${this.#root}${directoryId}`, this.#options);
  }

  async #directoriesWithDead(): Promise<string[]> {
    const shape = new RegExp(`^${regexEscaped(this.#root)}([^:]+):dead$`);
    return (await this.#scan(`${globEscaped(this.#root)}*:dead`))
      .map((key) => shape.exec(key)?.[1])
      .filter((id): id is string => id !== undefined)
      .sort();
  }

  async #scan(match: string): Promise<string[]> {
    const keys = new Set<string>();
    const stream = this.#redis.scanStream({ match, count: 500 });
    for await (const batch of stream as AsyncIterable<string[]>) for (const key of batch) keys.add(key);
    return [...keys];
  }
}
