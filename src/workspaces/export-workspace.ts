import type { DeliveryRecord, WorkerDeliveriesByChannel } from '../delivery/index.js';
import type { Clock } from '../ports/index.js';
import { systemClock } from '../ports/index.js';
import type { BotStore } from '../store/index.js';
import { withoutSecrets } from './without-secrets.js';
import { findWorkspaceData, type WorkerDeliveryReader } from './workspace-data.js';
import { formatWorkspaceRef, type WorkspaceRef } from './workspace-ref.js';

export interface WorkspaceDeps {
  store: BotStore;
  clock?: Clock;
  /**
   * The delivery workers' queued and dead messages (ADR 005), on a Redis store: they live
   * beside the store's keys, not in keyv, so they are read (and forgotten) through this.
   */
  workerDeliveries?: WorkerDeliveryReader & Partial<Pick<WorkerDeliveriesByChannel, 'forget'>>;
}

/**
 * Everything the store holds about one workspace, as plain JSON-ready data: its subscriptions
 * (with their filters, format and schedule), the channels' time zones, people's live-event reminders
 * (their user ids and the events), queued deliveries (reminder DMs included; the outbox's and,
 * with delivery workers, their FIFOs and the messages they gave up on), the keys of
 * its delivery ledger, its installation without the tokens, and its stored webhooks without their
 * URLs (a webhook URL is a credential: anyone holding it can post to the channel).
 */
export async function exportWorkspace(deps: WorkspaceDeps, ref: WorkspaceRef) {
  const data = await findWorkspaceData(deps.store, ref, deps.workerDeliveries);
  return {
    workspace: formatWorkspaceRef(ref),
    exportedAt: new Date((deps.clock ?? systemClock).now()).toISOString(),
    store: deps.store.description,
    subscriptions: data.subscriptions,
    reminders: data.reminders,
    channelZones: data.channelZones,
    channels: data.channels,
    sharedChannels: data.sharedChannels,
    queuedDeliveries: data.queues,
    /** The delivery workers' FIFOs (Redis), shaped as the outbox's queues above. */
    queuedWorkerDeliveries: data.workerQueues.map(({ key, entries }) => ({ key, entries })),
    /** Messages the workers gave up on: when, why, and the entry as it was queued. */
    deadDeliveries: data.deadDeliveries.map(({ key, delivery }) => ({
      key,
      id: delivery.id,
      at: new Date(delivery.at).toISOString(),
      reason: delivery.reason,
      entry: delivery.entry,
    })),
    deliveryLedger: data.ledgerKeys,
    deliveryLog: await logPages(deps.store, data.logKeys),
    installations: data.installations.map(({ key, value }) => ({ key, installation: withoutSecrets(value) })),
    webhooks: withoutSecrets(data.webhooks, 'webhooks'),
  };
}

export type WorkspaceExport = Awaited<ReturnType<typeof exportWorkspace>>;

/** The delivery-log pages as stored: what became of each channel's recent messages. */
async function logPages(store: BotStore, keys: readonly string[]) {
  const pages = await store.keyv.getMany<{ records: DeliveryRecord[] }>([...keys]);
  return keys.map((key, i) => ({ key, records: pages[i]?.records ?? [] }));
}
