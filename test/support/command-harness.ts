import { afterAll, beforeAll, beforeEach } from 'vitest';
import type {
  CommandDependencies,
  CommandEvent,
  CommandModule,
  StatusReport,
} from '../../src/commands/index.js';
import { createCommandHandler, directoryLinks } from '../../src/commands/index.js';
import { createDirectoryClient, type DirectoryClient } from '../../src/directory/index.js';
import {
  createManualClock,
  EMULATOR_WEB_URL,
  type EmulatorOptions,
  type ManualClock,
  type RunningEmulator,
  startEmulator,
} from '../../src/emulator/index.js';
import type { Actor, CommandHandler, CommandReply } from '../../src/ports/index.js';
import type { BotStore } from '../../src/store/bot-store.js';
import { createStore } from '../../src/store/create-store.js';
import { ChannelHistory } from '../../src/subscriptions/channel-history.js';
import { ChannelZoneRepository } from '../../src/subscriptions/channel-zones.js';
import { SubscriptionRepository } from '../../src/subscriptions/subscription-repository.js';
import { createZoneResolver, type WorkspaceZoneLookup } from '../../src/subscriptions/zone-of.js';
import { makeTempDir } from './temp-dir.js';

export const ADMIN_ID = 'UADMIN01';
export const CHANNEL = 'C0123ABCD';

export interface Harness {
  emulator: RunningEmulator;
  clock: ManualClock;
  client: DirectoryClient;
  store: BotStore;
  subscriptions: SubscriptionRepository;
  /** Channel time zones (`/directory timezone`), in the same store. */
  channelZones: ChannelZoneRepository;
  /** The zones the handler reads schedules in, for other services over the same store. */
  zones: NonNullable<CommandDependencies['zones']>;
  handler: CommandHandler;
  events: CommandEvent[];
  /** Runs `/directory <text>` on Slack in CHANNEL as a person who may not manage it. */
  run(text: string, actor?: Partial<Actor>, platform?: string): Promise<CommandReply>;
  /** Upstream API requests the emulator has answered so far. */
  requests(): number;
  /** The channels' change history, when the harness was asked to keep one. */
  history: ChannelHistory | undefined;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Where the manual clock starts (epoch ms); default the manual clock's fixed instant. */
  startMs?: number;
  emulator?: EmulatorOptions;
  handler?: Partial<CommandDependencies>;
  status?: () => Promise<StatusReport>;
  /** The workspace default zone, as a platform adapter would answer it; default: none. */
  workspaceZone?: WorkspaceZoneLookup;
  /** The command list served; the bot's own (COMMANDS) unless given. */
  commands?: readonly CommandModule[];
  /** Record every change in a channel history over the same store (`Harness.history`). */
  history?: boolean;
}

/**
 * The real command handler against a real emulator, a real directory client and a real
 * SQLite store in a temporary directory. The client's sleeps move the manual clock.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const clock = createManualClock(options.startMs);
  const emulator = await startEmulator({ port: 0, clock, ...options.emulator });
  const temp = makeTempDir('directory-bot-commands-');
  const store = createStore({ url: `sqlite://${temp.path}/bot.sqlite`, namespace: 'commands-test' });
  const subscriptions = new SubscriptionRepository({ keyv: store.keyv, leases: store.leases, clock });
  const client = createDirectoryClient({
    baseUrl: emulator.url,
    token: 'dev-token',
    clock,
    sleep: async (ms) => clock.advance(ms),
    retry: { attempts: 2, baseDelayMs: 10, maxDelayMs: 10 },
    random: () => 0.5,
  });
  const channelZones = new ChannelZoneRepository({ keyv: store.keyv, leases: store.leases, clock });
  const zoneResolver = createZoneResolver({
    channelZones,
    ...(options.workspaceZone === undefined ? {} : { workspaceZone: options.workspaceZone }),
  });
  const zones = { channelZones, resolve: zoneResolver.resolve };
  const history = options.history
    ? new ChannelHistory({ keyv: store.keyv, leases: store.leases, clock })
    : undefined;
  const events: CommandEvent[] = [];
  const status =
    options.status ??
    (async (): Promise<StatusReport> => ({
      quotas: client.ledger.snapshot(),
      feeds: [],
      pausedSubscriptions: (await subscriptions.list()).filter((s) => s.paused),
      subscribedFeeds: new Set((await subscriptions.list()).filter((s) => !s.paused).map((s) => s.feed)),
      isPoller: true,
    }));
  const handler = createCommandHandler(
    {
      client,
      subscriptions,
      clock,
      adminUserIds: [ADMIN_ID],
      status,
      defaultRemindMinutes: 15,
      // As the composition root does with DIRECTORY_BASE_URL pointing at this emulator.
      directoryLinks: directoryLinks(emulator.url, EMULATOR_WEB_URL),
      onEvent: (event) => events.push(event),
      zones,
      ...(history === undefined ? {} : { history }),
      ...options.handler,
    },
    options.commands,
  );
  return {
    emulator,
    clock,
    client,
    store,
    subscriptions,
    channelZones,
    zones,
    handler,
    events,
    run: (text, actor = {}, platform = 'slack') =>
      handler.handle({
        platform,
        channelId: CHANNEL,
        workspaceId: 'T0123',
        actor: { userId: 'U0000USER', canManageChannel: false, ...actor },
        text,
      }),
    requests: () => emulator.admin.stats().requests.total,
    history,
    async close() {
      await client.close();
      await store.close();
      await emulator.close();
      temp.cleanup();
    },
  };
}

/**
 * One harness for the enclosing `describe`, its subscriptions emptied before each test; call the
 * returned function inside a test to get it.
 */
export function useSubscriptionHarness(options: HarnessOptions = {}): () => Harness {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startHarness(options);
  });
  afterAll(async () => {
    await h?.close();
  });
  beforeEach(async () => {
    if (h === undefined) return;
    for (const s of await h.subscriptions.list()) await h.subscriptions.remove(s.platform, s.channelId, s.id);
  });
  return () => {
    if (h === undefined) throw new Error('the harness has not started');
    return h;
  };
}
