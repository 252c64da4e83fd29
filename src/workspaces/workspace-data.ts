import type { DeadDelivery, OutboxEntry, WorkerDeliveriesByChannel, WorkerFifo } from '../delivery/index.js';
import { SLACK_INSTALLATION_KEYS, systemClock } from '../ports/index.js';
import type { BotStore } from '../store/index.js';
import { UNPREFIXED_KEYS } from '../store/index.js';
import type { Subscription } from '../subscriptions/index.js';
import {
  CHANNEL_ZONES_KEY,
  type ChannelZone,
  channelHistoryKey,
  REMINDERS_KEY,
  type Reminder,
  SubscriptionRepository,
} from '../subscriptions/index.js';
import { type StoredWebhook, WEBHOOKS_KEY } from '../webhooks/index.js';
import type { WorkspaceRef } from './workspace-ref.js';

/** Everything the store holds about one workspace, found by `findWorkspaceData`. */
export interface WorkspaceData {
  subscriptions: Subscription[];
  /** Personal live-event reminders people set from the workspace (`/directory remind`). */
  reminders: Reminder[];
  /** Channel time zones set from the workspace (`/directory timezone`). */
  channelZones: ChannelZone[];
  /** The workspace's channels (`platform:channelId`) whose queues and delivery ledger belong to it. */
  channels: string[];
  /**
   * Channels of the workspace that another workspace's subscription or a SUBSCRIPTIONS route
   * also names (a Slack Connect channel): their queues and ledger are kept for the other.
   */
  sharedChannels: string[];
  /** Outbox queue documents of those channels, every directory's and the pre-directory one. */
  queues: { key: string; entries: OutboxEntry[] }[];
  /** The delivery workers' FIFOs of those channels (Redis, ADR 005), every directory's. */
  workerQueues: WorkerFifo[];
  /** Messages the workers gave up on for those channels, with their directory's key. */
  deadDeliveries: { key: string; delivery: DeadDelivery }[];
  /** Outbox index documents naming one of the channels, with every destination they name. */
  queueIndexes: { key: string; destinations: string[] }[];
  /** Delivered-ledger keys of those channels (one per message posted, each with a TTL). */
  ledgerKeys: string[];
  /** Delivery-log pages of those channels (what became of their recent messages), every directory's. */
  logKeys: string[];
  /** Items its scheduled subscriptions hold (digests, quiet hours, caps), every directory's. */
  heldKeys: string[];
  /** Slack OAuth installations stored for the workspace, as stored (secrets included). */
  installations: { key: string; value: unknown }[];
  /** Its channels' change histories (what the control panel shows), one key per channel. */
  historyKeys: string[];
  /**
   * Webhooks stored for the workspace (a Slack incoming webhook names its team in its URL), as
   * stored: their URLs sealed. Their subscriptions, queues and ledger are among the others.
   */
  webhooks: StoredWebhook[];
}

/** What finding a workspace's data reads of the delivery workers' keys (a Redis store only). */
export type WorkerDeliveryReader = Pick<WorkerDeliveriesByChannel, 'queues' | 'graveyards'>;

/** The platforms of a workspace's destinations: its channels', and its webhooks' (`slack-webhook`). */
function platformsOf(ref: WorkspaceRef): string[] {
  return [ref.platform, `${ref.platform}-webhook`];
}

/** A directory id never holds a colon (src/store/directory-keys.ts), so `[^:]+` is exactly one. */
const IN_ANY_DIRECTORY = 'dir:[^:]+:';

/**
 * Finds one workspace's data. Subscriptions record their workspace (the Slack team or Discord
 * guild of the command that created them); queued deliveries record it in their destination.
 * Ledger and queue keys name only a channel, so they are found through those channels.
 */
export async function findWorkspaceData(
  store: BotStore,
  ref: WorkspaceRef,
  workers?: WorkerDeliveryReader,
): Promise<WorkspaceData> {
  const repository = new SubscriptionRepository({
    keyv: store.keyv,
    leases: store.leases,
    clock: systemClock,
  });
  const all = await repository.list();
  const platforms = platformsOf(ref);
  const isMine = (s: Subscription) => platforms.includes(s.platform) && s.workspaceId === ref.id;
  const subscriptions = all.filter(isMine);
  const claimedByOthers = new Set(
    all
      .filter((s) => platforms.includes(s.platform) && !isMine(s))
      .map((s) => `${s.platform}:${s.channelId}`),
  );

  const queueKeys: string[] = [];
  for (const platform of platforms) {
    queueKeys.push(
      ...(await matching(store, ['dir:', `:outbox:queue:${platform}:`], `^${IN_ANY_DIRECTORY}outbox:queue:`)),
      ...(await store.keysMatching([UNPREFIXED_KEYS.outboxQueue(`${platform}:`)])),
    );
  }
  const queueValues = await store.keyv.getMany<OutboxEntry[]>(queueKeys);
  const allQueues = queueKeys.map((key, i) => ({ key, entries: queueValues[i] ?? [] }));

  // The workers' FIFOs and dead deliveries (a Redis store the workers ran on), found alike.
  const allWorkerQueues = (await workers?.queues(platforms)) ?? [];
  const allDead = ((await workers?.graveyards()) ?? []).flatMap((yard) =>
    yard.dead.map((delivery) => ({ key: yard.key, delivery })),
  );

  const mine = new Set(subscriptions.map((s) => `${s.platform}:${s.channelId}`));
  // Reminder DMs queue under `platform:dm:user`: the workspace's own, found the same way.
  const queued = [
    ...[...allQueues, ...allWorkerQueues].flatMap((queue) => queue.entries),
    ...allDead.map((d) => d.delivery.entry),
  ];
  for (const entry of queued)
    if (platforms.includes(entry.destination.platform) && entry.destination.workspaceId === ref.id)
      mine.add(entry.destinationKey);
  const sharedChannels = [...mine].filter((c) => claimedByOthers.has(c)).sort();
  const channels = [...mine].filter((c) => !claimedByOthers.has(c)).sort();
  const ownQueue = (key: string) => channels.some((c) => key.endsWith(`outbox:queue:${c}`));

  const ledgerKeys: string[] = [];
  for (const channel of channels) {
    ledgerKeys.push(
      ...(await matching(store, ['dir:', `:sent:${channel}:`], `^${IN_ANY_DIRECTORY}sent:`)),
      ...(await store.keysMatching([UNPREFIXED_KEYS.delivered(channel, '')])),
    );
  }

  const logKeys: string[] = [];
  for (const channel of channels)
    logKeys.push(...(await matching(store, ['dir:', `:log:${channel}:`], `^${IN_ANY_DIRECTORY}log:`)));

  const heldKeys: string[] = [];
  for (const subscription of subscriptions.filter((s) => s.schedule))
    heldKeys.push(
      ...(await matching(
        store,
        ['dir:', `:held:sub:${subscription.id}`],
        // Its held document, and its latest digest beside it.
        `^${IN_ANY_DIRECTORY}held:sub:${subscription.id}(:latest)?$`,
      )),
    );

  const reminders = ((await store.keyv.get<Reminder[]>(REMINDERS_KEY)) ?? []).filter(
    (r) => r.platform === ref.platform && r.workspaceId === ref.id,
  );
  const channelZones = ((await store.keyv.get<ChannelZone[]>(CHANNEL_ZONES_KEY)) ?? []).filter(
    (z) => z.platform === ref.platform && z.workspaceId === ref.id,
  );
  return {
    subscriptions,
    reminders,
    channelZones,
    channels,
    sharedChannels,
    queues: allQueues.filter((q) => ownQueue(q.key)),
    workerQueues: allWorkerQueues.filter((q) => channels.includes(q.destination)),
    deadDeliveries: allDead.filter((d) => channels.includes(d.delivery.entry.destinationKey)),
    queueIndexes: await indexesNaming(store, channels),
    ledgerKeys,
    logKeys,
    heldKeys,
    installations: ref.platform === 'slack' ? await slackInstallations(store, ref.id) : [],
    webhooks: ((await store.keyv.get<StoredWebhook[]>(WEBHOOKS_KEY)) ?? []).filter(
      (w) => w.platform === `${ref.platform}-webhook` && w.workspaceId === ref.id,
    ),
    historyKeys: await store.keysMatching([channelHistoryKey(ref.platform, ref.id, '')]),
  };
}

/** `keysMatching`, keeping only keys that match `shape` too (the parts' gaps are any text). */
async function matching(store: BotStore, parts: readonly string[], shape: string): Promise<string[]> {
  const pattern = new RegExp(shape);
  return (await store.keysMatching(parts)).filter((key) => pattern.test(key));
}

async function indexesNaming(store: BotStore, channels: readonly string[]) {
  const keys = [
    ...(await matching(store, ['dir:', ':outbox:destinations'], `^${IN_ANY_DIRECTORY}outbox:destinations$`)),
    UNPREFIXED_KEYS.outboxIndex,
  ];
  const values = await store.keyv.getMany<string[]>(keys);
  return keys
    .map((key, i) => ({ key, destinations: values[i] ?? [] }))
    .filter((index) => index.destinations.some((d) => channels.includes(d)));
}

async function slackInstallations(store: BotStore, id: string) {
  const keys = [SLACK_INSTALLATION_KEYS.team(id), SLACK_INSTALLATION_KEYS.enterprise(id)];
  const values = await store.keyv.getMany<unknown>(keys);
  return keys.flatMap((key, i) =>
    values[i] === undefined || values[i] === null ? [] : [{ key, value: values[i] }],
  );
}
