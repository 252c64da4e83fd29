import type { Logger, WindowLimit } from '../../src/ports/index.js';

/**
 * views.publish is Tier 4 ("100+ per minute"), counted per method per workspace per app
 * (java-slack-sdk MethodsRateLimits: VIEWS_PUBLISH Tier4; CONTRACTS.md §1(c)). The pace keeps
 * under the tier's floor with room for Slack counting its minute differently from ours.
 */
export const VIEWS_PUBLISH_LIMIT: WindowLimit = { limit: 90, windowMs: 60_000 };

export interface HomePublisherDeps {
  /** Publishes one viewer's home now (builds the view at send time, so it is the newest). */
  publish(workspaceId: string, userId: string): Promise<void>;
  limit?: WindowLimit;
  now?: () => number;
  logger: Logger;
  /** Slack answered 429 anyway: wait `retryAfterMs` before the workspace's next publish. */
  retryAfterOf?(error: unknown): number | undefined;
}

export interface HomePublisher {
  /** This viewer's home is stale: publish it once, as soon as the workspace's pace allows. */
  request(workspaceId: string, userId: string): void;
  /** Resolves when nothing is waiting or being published (tests, shutdown). */
  idle(): Promise<void>;
  stop(): void;
}

interface WorkspaceQueue {
  /** Viewers waiting, in request order; a viewer asked for twice before their turn waits once. */
  waiting: Set<string>;
  /** Send times within the current window, oldest first. */
  sent: number[];
  running: boolean;
  /** No send before this (after a 429). */
  notBefore: number;
}

/**
 * One views.publish per stale viewer, paced per workspace within the tier. Requests for a viewer
 * already waiting merge into the one publish (its view is built when it is sent, so it shows every
 * change made meanwhile): a change never costs more than one publish per viewer, and a burst of
 * changes costs fewer. Workspaces do not wait for each other: the tier is per workspace.
 */
export function createHomePublisher(deps: HomePublisherDeps): HomePublisher {
  const limit = deps.limit ?? VIEWS_PUBLISH_LIMIT;
  const now = deps.now ?? Date.now;
  const queues = new Map<string, WorkspaceQueue>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let idleWaiters: (() => void)[] = [];

  function settleIdle(): void {
    if ([...queues.values()].some((q) => q.running || q.waiting.size > 0)) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  async function drain(workspaceId: string, queue: WorkspaceQueue): Promise<void> {
    queue.running = true;
    try {
      while (!stopped && queue.waiting.size > 0) {
        const at = now();
        while (queue.sent.length > 0 && at - (queue.sent[0] ?? 0) >= limit.windowMs) queue.sent.shift();
        const wait = Math.max(
          queue.notBefore - at,
          queue.sent.length >= limit.limit ? (queue.sent[0] ?? at) + limit.windowMs - at : 0,
        );
        if (wait > 0) {
          await sleep(wait);
          continue;
        }
        const [userId] = queue.waiting;
        if (userId === undefined) break;
        queue.waiting.delete(userId);
        try {
          await deps.publish(workspaceId, userId);
        } catch (error) {
          const retryAfterMs = deps.retryAfterOf?.(error);
          if (retryAfterMs !== undefined) {
            queue.notBefore = now() + retryAfterMs;
            queue.waiting.add(userId);
          }
          deps.logger.warn({ err: error, workspaceId, userId }, 'could not publish a home tab');
        } finally {
          // Counted from when the call finished, which is after Slack received it, however long
          // building the view took: Slack's window can then never hold more than ours.
          queue.sent.push(now());
        }
      }
    } finally {
      queue.running = false;
      if (queue.waiting.size === 0 && queue.sent.length === 0) queues.delete(workspaceId);
      settleIdle();
    }
  }

  return {
    request(workspaceId, userId) {
      if (stopped) return;
      const queue = queues.get(workspaceId) ?? { waiting: new Set(), sent: [], running: false, notBefore: 0 };
      queues.set(workspaceId, queue);
      queue.waiting.add(userId);
      if (!queue.running) void drain(workspaceId, queue);
    },
    idle() {
      if (![...queues.values()].some((q) => q.running || q.waiting.size > 0)) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      queues.clear();
      settleIdle();
    },
  };
}
