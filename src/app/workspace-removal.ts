import type { DeliveryLog, DeliveryQueue, Outbox } from '../delivery/index.js';
import type { Metrics } from '../observability/metrics.js';
import type { AdapterContext, Logger, RemovedWorkspace, WorkspaceRemovalReason } from '../ports/index.js';
import type { BotStore } from '../store/index.js';
import { forgetWorkspace, type WorkspaceDeps } from '../workspaces/index.js';

export interface WorkspaceRemovalDeps {
  store: BotStore;
  /** The running engine's outbox: it mirrors its queues in memory and would write them back. */
  outbox: Pick<Outbox, 'depth' | 'dropDestination'>;
  /**
   * The running engine's delivery log: it may hold records of those channels not written yet, and
   * remembers the pages it wrote lately, which its next write to a channel would put back.
   */
  deliveryLog?: Pick<DeliveryLog, 'forget'>;
  /** The delivery workers' queue in Redis, when they deliver (ADR 005). */
  workerQueue?: Pick<DeliveryQueue, 'drop'> | undefined;
  /** On Redis, every directory's worker FIFOs and dead deliveries, forgotten with the store's keys. */
  workerDeliveries?: WorkspaceDeps['workerDeliveries'];
  logger: Logger;
  metrics: Pick<Metrics, 'workspacesRemoved'>;
}

/**
 * What the app hands adapters as `workspaceRemoved`: a workspace that uninstalled the app (or a
 * server that removed the bot) is forgotten — its installation, subscriptions, queued deliveries
 * (the workers' queued and dead messages too, on Redis), delivery ledger and delivery log deleted from the store, not paused — and its channels are
 * dropped from the live outbox and delivery log, so nothing more is posted there and no queue or
 * log page is written back. A reinstall starts clean.
 *
 * Only this instance's outbox is cleared: with several instances, the poller elsewhere keeps
 * what it had queued in memory until its posts are refused (the token is gone) and dropped.
 */
export function createWorkspaceRemoval(
  deps: WorkspaceRemovalDeps,
): NonNullable<AdapterContext['workspaceRemoved']> {
  // One removal at a time: Slack sends app_uninstalled and tokens_revoked together.
  let queue: Promise<void> = Promise.resolve();
  const remove = async (workspace: RemovedWorkspace, reason: WorkspaceRemovalReason) => {
    const report = await forgetWorkspace(
      {
        store: deps.store,
        ...(deps.workerDeliveries === undefined ? {} : { workerDeliveries: deps.workerDeliveries }),
      },
      workspace,
      { dryRun: false },
    );
    // After the store: the outbox would otherwise persist a queue forgetWorkspace just deleted.
    let dropped = 0;
    for (const channel of report.channels) {
      if (deps.outbox.depth(channel) > 0) dropped += (await deps.outbox.dropDestination(channel)).length;
      // With delivery workers, what the hand-off gave them since the store was forgotten.
      if (deps.workerQueue) dropped += (await deps.workerQueue.drop(channel)).length;
    }
    // And from the running delivery log, which would write a remembered page back.
    await deps.deliveryLog?.forget(report.channels);
    deps.metrics.workspacesRemoved.inc({ platform: workspace.platform, reason });
    deps.logger.info(
      {
        platform: workspace.platform,
        workspace: workspace.id,
        reason,
        ...report.counts,
        droppedFromOutbox: dropped,
        sharedChannels: report.sharedChannels.length,
      },
      `${report.workspace} removed the bot (${reason}): its data is deleted`,
    );
  };
  return (workspace, reason) => {
    const run = queue.then(() => remove(workspace, reason));
    queue = run.catch((error: unknown) => {
      deps.logger.error(
        { err: error, platform: workspace.platform, workspace: workspace.id, reason },
        'deleting a removed workspace failed; run "directory-bot workspace forget" for it',
      );
    });
    return queue;
  };
}
