import type { DeliveryRecord } from '../delivery/index.js';
import type { Clock } from '../ports/index.js';
import { systemClock } from '../ports/index.js';
import type { BotStore } from '../store/index.js';
import { withoutSecrets } from './without-secrets.js';
import { findWorkspaceData } from './workspace-data.js';
import { formatWorkspaceRef, type WorkspaceRef } from './workspace-ref.js';

export interface WorkspaceDeps {
  store: BotStore;
  clock?: Clock;
}

/**
 * Everything the store holds about one workspace, as plain JSON-ready data: its subscriptions
 * (with their filters, format and schedule), the channels' time zones, people's live-event reminders
 * (their user ids and the events), queued deliveries (reminder DMs included), the keys of
 * its delivery ledger, its channels' delivery logs (what `/directory why` reads), and its
 * installation without the tokens.
 */
export async function exportWorkspace(deps: WorkspaceDeps, ref: WorkspaceRef) {
  const data = await findWorkspaceData(deps.store, ref);
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
    deliveryLedger: data.ledgerKeys,
    deliveryLogs: await logsOf(deps.store, data.logKeys),
    installations: data.installations.map(({ key, value }) => ({ key, installation: withoutSecrets(value) })),
  };
}

/** The delivery-log documents as stored: each channel's newest attempts (`/directory why`). */
async function logsOf(store: BotStore, keys: readonly string[]) {
  const values = await store.keyv.getMany<DeliveryRecord[]>([...keys]);
  return keys.map((key, i) => ({ key, records: values[i] ?? [] }));
}

export type WorkspaceExport = Awaited<ReturnType<typeof exportWorkspace>>;
