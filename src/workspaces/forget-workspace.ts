import { systemClock } from '../ports/index.js';
import {
  CHANNEL_ZONES_KEY,
  ChannelZoneRepository,
  REMINDERS_KEY,
  ReminderRepository,
  SUBSCRIPTIONS_KEY,
  SubscriptionRepository,
} from '../subscriptions/index.js';
import { WEBHOOKS_KEY, WebhookRegistry } from '../webhooks/index.js';
import type { WorkspaceDeps } from './export-workspace.js';
import { findWorkspaceData } from './workspace-data.js';
import { formatWorkspaceRef, type WorkspaceRef } from './workspace-ref.js';

export interface ForgetReport {
  workspace: string;
  dryRun: boolean;
  /** How many of each kind were deleted (or, in a dry run, would be). */
  counts: {
    subscriptions: number;
    reminders: number;
    channelZones: number;
    /** The outbox's and the delivery workers' queued messages. */
    queuedDeliveries: number;
    /** Messages the delivery workers gave up on (Redis). */
    deadDeliveries: number;
    deliveryLedger: number;
    /** Delivery-log pages (up to 25 records of what became of recent messages each). */
    deliveryLog: number;
    /** Items held by its subscriptions' schedules. */
    heldItems: number;
    installations: number;
    /** Stored webhooks posting into the workspace. */
    webhooks: number;
  };
  /** Every store key deleted, plus the documents changed (subscriptions, outbox indexes). */
  keys: string[];
  /** The workspace's own channels (`platform:channelId`), whose queues and ledger went with it. */
  channels: string[];
  /** Channels another workspace or a SUBSCRIPTIONS route still names: their queues and ledger stay. */
  sharedChannels: string[];
}

/** Keys per delete, well under every backend's limit on one statement. */
const BATCH = 500;

/**
 * Deletes everything the store holds about one workspace (what `exportWorkspace` shows); with
 * `dryRun`, only says what would go. Deleted, not paused: a reinstall starts clean.
 *
 * A running poller keeps its outbox in memory: run this with the bot stopped, or (in process,
 * on uninstall) drop the channels from the live outbox as well.
 */
export async function forgetWorkspace(
  deps: WorkspaceDeps,
  ref: WorkspaceRef,
  options: { dryRun: boolean },
): Promise<ForgetReport> {
  const { store } = deps;
  const data = await findWorkspaceData(store, ref, deps.workerDeliveries);
  const queueKeys = data.queues.map((q) => q.key);
  const installationKeys = data.installations.map((i) => i.key);
  const report: ForgetReport = {
    workspace: formatWorkspaceRef(ref),
    dryRun: options.dryRun,
    counts: {
      subscriptions: data.subscriptions.length,
      reminders: data.reminders.length,
      channelZones: data.channelZones.length,
      queuedDeliveries: [...data.queues, ...data.workerQueues].reduce((sum, q) => sum + q.entries.length, 0),
      deadDeliveries: data.deadDeliveries.length,
      deliveryLedger: data.ledgerKeys.length,
      deliveryLog: data.logKeys.length,
      heldItems: data.heldKeys.length,
      installations: installationKeys.length,
      webhooks: data.webhooks.length,
    },
    keys: [
      ...(data.subscriptions.length > 0 ? [SUBSCRIPTIONS_KEY] : []),
      ...(data.webhooks.length > 0 ? [WEBHOOKS_KEY] : []),
      ...(data.reminders.length > 0 ? [REMINDERS_KEY] : []),
      ...(data.channelZones.length > 0 ? [CHANNEL_ZONES_KEY] : []),
      ...data.queueIndexes.map((i) => i.key),
      ...queueKeys,
      ...data.workerQueues.map((q) => q.key),
      // A document changed, like the outbox index: the other workspaces' dead deliveries stay.
      ...new Set(data.deadDeliveries.map((d) => d.key)),
      ...data.ledgerKeys,
      ...data.logKeys,
      ...data.heldKeys,
      ...installationKeys,
      ...data.historyKeys,
    ],
    channels: data.channels,
    sharedChannels: data.sharedChannels,
  };
  if (options.dryRun) return report;

  const clock = deps.clock ?? systemClock;
  const repository = new SubscriptionRepository({ keyv: store.keyv, leases: store.leases, clock });
  // Under the subscriptions' write lock: the count is what was actually removed.
  report.counts.subscriptions = (await repository.removeWorkspace(ref.platform, ref.id)).length;
  // Its webhooks (a Slack team's incoming webhooks) and their subscriptions go too.
  const webhookPlatform = `${ref.platform}-webhook`;
  report.counts.subscriptions += (await repository.removeWorkspace(webhookPlatform, ref.id)).length;
  const webhooks = new WebhookRegistry({
    keyv: store.keyv,
    leases: store.leases,
    clock,
    sealer: undefined,
    configured: [],
  });
  for (const webhook of data.webhooks) await webhooks.remove(webhook.name);
  const reminders = new ReminderRepository({ keyv: store.keyv, leases: store.leases, clock });
  report.counts.reminders = (await reminders.removeWorkspace(ref.platform, ref.id)).length;
  const zones = new ChannelZoneRepository({ keyv: store.keyv, leases: store.leases, clock });
  report.counts.channelZones = (await zones.removeWorkspace(ref.platform, ref.id)).length;
  // The indexes first: should this stop half-way, a queue no index names is never loaded
  // again, so nothing of the workspace's is posted after all.
  for (const index of data.queueIndexes) {
    const kept = index.destinations.filter((d) => !data.channels.includes(d));
    if (kept.length > 0) await store.keyv.set(index.key, kept);
    else await store.keyv.delete(index.key);
  }
  // The workers' FIFOs (with their claims) and dead deliveries, in every directory; a drain job
  // left for one of those channels finds its FIFO empty and completes, posting nothing.
  if (deps.workerDeliveries?.forget) {
    const gone = await deps.workerDeliveries.forget(data.channels);
    report.counts.deadDeliveries = gone.dead;
  }
  // A held-items index naming a deleted document is harmless: the poller drops the name.
  const doomed = [
    ...queueKeys,
    ...data.ledgerKeys,
    ...data.logKeys,
    ...data.heldKeys,
    ...installationKeys,
    ...data.historyKeys,
  ];
  for (let start = 0; start < doomed.length; start += BATCH)
    await store.keyv.deleteMany(doomed.slice(start, start + BATCH));
  return report;
}
