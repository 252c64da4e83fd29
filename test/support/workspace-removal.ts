import { createLostAccessRemoval, type LostAccessRemoval } from '../../src/app/lost-access-removal.js';
import { createWorkspaceRemoval } from '../../src/app/workspace-removal.js';
import type { EngineEvent } from '../../src/engine/engine.js';
import { createMetrics } from '../../src/observability/metrics.js';
import type { ChatAdapter } from '../../src/ports/index.js';
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
    deliveryLog: bot.engine.deliveryLog,
    logger: log,
    metrics,
  });
  return { log, metrics, workspaceRemoved };
}

/**
 * The app's watch for removals no event announces, as create-app wires it: pass `observe` as
 * the instance's `onEvent`, then `attach` it once the instance and its adapters exist.
 */
export function lostAccessWatch() {
  let watch: LostAccessRemoval | undefined;
  return {
    observe: (event: EngineEvent) => watch?.observe(event),
    attach(bot: Instance, adapters: readonly ChatAdapter[], removal: ReturnType<typeof workspaceRemovalFor>) {
      watch = createLostAccessRemoval({
        subscriptions: bot.engine.subscriptions,
        adapters,
        workspaceRemoved: removal.workspaceRemoved,
        logger: removal.log,
      });
      return watch;
    },
  };
}
