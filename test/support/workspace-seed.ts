import type { Installation } from '@slack/bolt';
import { createKeyValueInstallationStore } from '../../adapters/slack/installation-store.js';
import { DeliveredLedger } from '../../src/delivery/delivered-ledger.js';
import { DeliveryLog } from '../../src/delivery/delivery-log.js';
import { Outbox, type OutboxEntry } from '../../src/delivery/outbox.js';
import { systemClock } from '../../src/ports/clock.js';
import type { BotStore } from '../../src/store/bot-store.js';
import { UNPREFIXED_KEYS } from '../../src/store/directory-keys.js';
import { ChannelZoneRepository } from '../../src/subscriptions/channel-zones.js';
import { ReminderRepository } from '../../src/subscriptions/personal-reminders.js';
import { SubscriptionRepository } from '../../src/subscriptions/subscription-repository.js';
import { createTestSealer } from './slack-oauth.js';

export const TEAM_A = 'T0AAAAAAA';
export const TEAM_B = 'T0BBBBBBB';
export const GUILD = '111111111111111111';
export const DISCORD_CHANNEL = '222222222222222222';
/** The secrets the seeded installations hold: none may appear in an export. */
export const SECRETS = ['xoxb-team-a-bot', 'xoxe-team-a-refresh', 'xoxp-team-a-user', 'xoxb-team-b-bot'];

/** A Slack installation of `teamId` with `botToken`, as Bolt stores it after OAuth. */
export function installation(
  teamId: string,
  botToken: string,
  extra: Partial<Installation> = {},
): Installation {
  return {
    team: { id: teamId, name: `Team ${teamId}` },
    enterprise: undefined,
    isEnterpriseInstall: false,
    appId: 'A0APP',
    tokenType: 'bot',
    bot: { token: botToken, scopes: ['chat:write', 'commands'], id: 'B0BOT', userId: 'U0BOT' },
    user: { id: 'U0INSTALLER', token: undefined, scopes: undefined },
    ...extra,
  } as Installation;
}

/** A queued message to `destinationKey` (`slack:C0A1`, `slack:dm:U1`) from `workspaceId`. */
export function queuedEntry(destinationKey: string, itemKey: string, workspaceId: string): OutboxEntry {
  const [platform = '', channelId = ''] = destinationKey.split(':');
  return {
    destination: { platform, channelId, workspaceId },
    destinationKey,
    itemKey,
    message: { kind: 'post', title: 'A post', fallback: 'A post' },
    subscriptionIds: [],
    enqueuedAt: 1,
    attempts: 0,
    notBefore: 0,
  };
}

/**
 * Two Slack workspaces and a Discord server, each with subscriptions, queued deliveries, a
 * person's reminder and a channel time zone (Slack), a
 * delivery ledger (in two directories, and the pre-directory format), a delivery log and, for Slack, an
 * installation. Channel C0SHARED is subscribed from both workspaces (Slack Connect); C0ENV is
 * a SUBSCRIPTIONS route, which names no workspace.
 */
export async function seedWorkspaces(store: BotStore): Promise<void> {
  const repo = new SubscriptionRepository({ keyv: store.keyv, leases: store.leases, clock: systemClock });
  const route = (
    channelId: string,
    workspaceId: string,
    platform = 'slack',
    feed: 'posts' | 'comments' = 'posts',
  ) => repo.add({ platform, channelId, workspaceId, feed, filters: {}, createdBy: 'U1' });
  await route('C0A1', TEAM_A);
  await route('C0A2', TEAM_A);
  await route('C0SHARED', TEAM_A);
  await route('C0B1', TEAM_B);
  // Another feed: the same route from the other side is the same subscription (the first one's).
  await route('C0SHARED', TEAM_B, 'slack', 'comments');
  await route(DISCORD_CHANNEL, GUILD, 'discord');
  await repo.seed([{ platform: 'slack', channelId: 'C0ENV', feed: 'live', filters: {} }]);

  const outbox = new Outbox({ keyv: store.keyv, directoryId: 'dir0aaa' });
  await outbox.enqueue([
    queuedEntry('slack:C0A1', 'post:1', TEAM_A),
    queuedEntry('slack:C0A1', 'post:2', TEAM_A),
    queuedEntry('slack:C0B1', 'post:1', TEAM_B),
    queuedEntry(`discord:${DISCORD_CHANNEL}`, 'post:1', GUILD),
  ]);
  const channels = ['slack:C0A1', 'slack:C0A2', 'slack:C0B1', 'slack:C0SHARED', `discord:${DISCORD_CHANNEL}`];
  for (const directoryId of ['dir0aaa', 'dir0bbb']) {
    const ledger = new DeliveredLedger({ keyv: store.keyv, ttlMs: 3_600_000, directoryId });
    for (const channel of channels) await ledger.markDelivered(channel, 'post:9');
  }
  // What became of post 9 in each channel, as the delivery log keeps it (one directory's).
  const log = new DeliveryLog({
    keyv: store.keyv,
    directoryId: 'dir0aaa',
    ttlMs: 3_600_000,
    clock: systemClock,
  });
  for (const channel of [
    'slack:C0A1',
    'slack:C0A2',
    'slack:C0B1',
    'slack:C0SHARED',
    `discord:${DISCORD_CHANNEL}`,
  ])
    await log.record({
      at: systemClock.now(),
      destinationKey: channel,
      itemKey: 'post:9',
      outcome: 'delivered',
      messageId: 'm9',
      title: 'A post',
      subscriptionIds: [],
    });
  // An edited post's state, kept beside its ledger entry.
  await new DeliveredLedger({ keyv: store.keyv, ttlMs: 3_600_000, directoryId: 'dir0aaa' }).noteShown(
    'slack:C0A1',
    'post:9',
    { messageId: 'm9', shown: 'votes=2', editedAt: 0 },
  );
  await store.keyv.set(UNPREFIXED_KEYS.delivered('slack:C0A1', 'post:8'), 1, 3_600_000);

  // A person's live-event reminder in each Slack workspace (`/directory remind`).
  const reminders = new ReminderRepository({ keyv: store.keyv, leases: store.leases, clock: systemClock });
  for (const [workspaceId, userId] of [
    [TEAM_A, 'U0REMINDA'],
    [TEAM_B, 'U0REMINDB'],
  ] as const) {
    await reminders.add({
      directoryId: 'dir0aaa',
      platform: 'slack',
      workspaceId,
      userId,
      eventId: '7',
      eventName: 'Office hours',
      startsAt: '2030-01-01T12:00:00.000Z',
      beforeMinutes: 10,
    });
  }

  // A channel time zone set in each Slack workspace (`/directory timezone`).
  const zones = new ChannelZoneRepository({ keyv: store.keyv, leases: store.leases, clock: systemClock });
  await zones.set({
    platform: 'slack',
    channelId: 'C0A1',
    workspaceId: TEAM_A,
    zone: 'Europe/Berlin',
    setBy: 'U1',
  });
  await zones.set({
    platform: 'slack',
    channelId: 'C0B1',
    workspaceId: TEAM_B,
    zone: 'Asia/Tokyo',
    setBy: 'U2',
  });

  const installations = createKeyValueInstallationStore(store.keyv, createTestSealer());
  await installations.storeInstallation(
    installation(TEAM_A, 'xoxb-team-a-bot', {
      user: { id: 'U0INSTALLER', token: 'xoxp-team-a-user', scopes: ['identify'] },
      bot: {
        token: 'xoxb-team-a-bot',
        refreshToken: 'xoxe-team-a-refresh',
        scopes: ['chat:write'],
        id: 'B0',
        userId: 'U0',
      },
    }),
  );
  await installations.storeInstallation(installation(TEAM_B, 'xoxb-team-b-bot'));
}

/** Every key/value the store holds in its namespace, for "nothing else changed" checks. */
export async function snapshot(store: BotStore): Promise<Record<string, unknown>> {
  const keys = await store.keysMatching(['']);
  const values = await store.keyv.getMany(keys);
  return Object.fromEntries(keys.map((key, i) => [key, values[i]]));
}
