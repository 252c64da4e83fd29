import { createWorkspaceRemoval } from '../../src/app/workspace-removal.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { createCapturingLogger } from './capturing-logger.js';
import type { startInstance } from './engine-harness.js';

type Instance = Awaited<ReturnType<typeof startInstance>>;

/**
 * What the app hands adapters as `workspaceRemoved`, for one bot instance (its store and its
 * running outbox), with the log it writes and the metrics it counts.
 */
export function workspaceRemovalFor(bot: Instance) {
  const log = createCapturingLogger();
  const metrics = createMetrics();
  const workspaceRemoved = createWorkspaceRemoval({
    store: bot.store,
    outbox: bot.engine.outbox,
    logger: log,
    metrics,
  });
  return { log, metrics, workspaceRemoved };
}
