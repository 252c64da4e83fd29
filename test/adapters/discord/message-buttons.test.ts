import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../../adapters/discord/index.js';
import { withMuteActions } from '../../../src/delivery/mute-actions.js';
import type { ChatAdapter, Message } from '../../../src/ports/index.js';
import type { ReminderRepository } from '../../../src/subscriptions/personal-reminders.js';
import {
  type ComponentClick,
  componentInteraction,
  findComponent,
  postInteraction,
} from '../../fakes/discord/component-interactions.js';
import { componentProblems } from '../../fakes/discord/component-limits.js';
import { REQUEST_SCHEMAS, validateAgainstSpec } from '../../fakes/discord/discord-spec.js';
import { FakeDiscordRest } from '../../fakes/discord/fake-discord-rest.js';
import { discordKeyPair, discordSignature } from '../../fakes/discord/signing.js';
import { announcedLiveEvent, postWithComment, startButtonHarness } from '../../support/button-fixtures.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import type { Harness } from '../../support/command-harness.js';
import {
  APP_ID,
  CHANNEL_ID,
  GUILD_ID,
  MANAGER_PERMISSIONS,
  MEMBER_PERMISSIONS,
} from '../../support/discord-interactions.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';

interface Callback {
  type: number;
  data?: { content?: string; flags?: number; embeds?: unknown[]; components?: unknown[] };
}

/**
 * Buttons on a delivered Discord message, end to end: the real Discord adapter posts a feed
 * message to the fake REST API, a person presses one of the buttons it rendered (a signed
 * MESSAGE_COMPONENT interaction to the adapter's HTTP endpoint), and the real command handler
 * answers against the emulator and a real store.
 */
describe('Discord message buttons', () => {
  let harness: Harness;
  let rest: FakeDiscordRest;
  let server: MountServer;
  let adapter: ChatAdapter;
  let keys: ReturnType<typeof discordKeyPair>;
  let postId: string;
  let posted: unknown;
  let message: Message;
  let reminders: ReminderRepository;
  /** The adapter's clock for the replay window. */
  const now = Date.now();

  beforeEach(async () => {
    ({ harness, reminders } = await startButtonHarness());
    rest = new FakeDiscordRest({ token: 'discord-token' });
    await rest.listen();
    rest.addChannel(CHANNEL_ID);
    server = await startMountServer();
    keys = discordKeyPair();
    adapter = createDiscordAdapter({
      applicationId: APP_ID,
      publicKey: keys.publicHex,
      token: 'discord-token',
      gateway: false,
      apiUrl: rest.url,
      logger: createCapturingLogger(),
      deferAfterMs: 2000,
      now: () => now,
    });
    await adapter.start({ http: server.http, commands: harness.handler, logger: createCapturingLogger() });

    ({ postId, message } = postWithComment(harness, 'First comment @everyone'));
    const outcome = await adapter.deliver(
      { platform: 'discord', channelId: CHANNEL_ID, workspaceId: GUILD_ID },
      message,
      {
        idempotencyKey: 'buttons-1',
      },
    );
    expect(outcome.status).toBe('delivered');
    posted = rest.callsTo('POST', '/channels/:id/messages')[0]?.body;
  });

  afterEach(async () => {
    await adapter.stop();
    await server.close();
    await rest.close();
    await harness.close();
  });

  function clickOf(label: string, permissions = MEMBER_PERMISSIONS, body = posted): ComponentClick {
    const customId = findComponent(body, label).custom_id ?? '';
    return {
      applicationId: APP_ID,
      guildId: GUILD_ID,
      channelId: CHANNEL_ID,
      userId: '100000000000000020',
      permissions,
      customId,
    };
  }

  async function click(
    target: ComponentClick,
    timestamp?: string,
  ): Promise<{ status: number; callback?: Callback }> {
    const res = await postInteraction(
      server.url,
      keys.privateKey,
      componentInteraction(target),
      timestamp ?? String(Math.floor(now / 1000)),
    );
    if (res.status !== 200) return { status: res.status };
    const callback = (await res.json()) as Callback;
    // What the adapter answered is what Discord would accept.
    expect(validateAgainstSpec(REQUEST_SCHEMAS.interactionCallback, callback)).toEqual([]);
    expect(componentProblems(callback.data ?? {})).toEqual([]);
    return { status: res.status, callback };
  }

  it('renders Comments, Follow comments and Open as one row, with versioned ids and no state', () => {
    expect((posted as { components?: unknown }).components).toEqual([
      {
        type: 1,
        components: [
          { type: 2, style: 2, label: 'Comments', custom_id: `dirbot:v1:comments:${postId}` },
          { type: 2, style: 2, label: 'Follow comments', custom_id: `dirbot:v1:follow:${postId}` },
          { type: 2, style: 5, label: 'Open', url: `https://directory.example/posts/${postId}` },
        ],
      },
    ]);
    expect(rest.problems).toEqual([]);
  });

  it('answers Comments with the latest comments, ephemeral, pinging no one', async () => {
    const { callback } = await click(clickOf('Comments'));
    expect(callback?.type).toBe(4);
    expect(callback?.data).toMatchObject({
      flags: 64,
      content: `Latest 1 comment on post ${postId}`,
      allowed_mentions: { parse: [] },
    });
    expect(JSON.stringify(callback?.data?.embeds)).toContain('First comment @\u200beveryone');
  });

  it('follows the post’s comments for a member with Manage Channels, with the command’s own confirmation', async () => {
    const { callback } = await click(clickOf('Follow comments', MANAGER_PERMISSIONS));
    const subscriptions = await harness.subscriptions.list();
    expect(subscriptions).toMatchObject([
      { platform: 'discord', channelId: CHANNEL_ID, feed: 'comments', filters: { post: postId } },
    ]);
    const id = subscriptions[0]?.id ?? '';
    expect(callback?.data?.flags).toBe(64);
    // The command's confirmation (Discord markdown escaped), only to the person who asked.
    expect(callback?.data?.content).toContain(
      `Subscribed this channel to comments — on post ${postId}. Id: ${id} \\(to stop: unsubscribe ${id}\\).`,
    );
  });

  it('refuses Follow comments ephemerally to a member without Manage Channels, and changes nothing', async () => {
    const { callback } = await click(clickOf('Follow comments'));
    expect(callback?.type).toBe(4);
    expect(callback?.data?.flags).toBe(64);
    expect(callback?.data?.content).toContain("You cannot change this channel's subscriptions.");
    expect(await harness.subscriptions.list()).toEqual([]);
  });

  it('answers a button of an unknown version as expired, running nothing', async () => {
    const { callback } = await click({
      ...clickOf('Follow comments', MANAGER_PERMISSIONS),
      customId: `dirbot:v0:follow:${postId}`,
    });
    expect(callback).toMatchObject({ type: 4, data: { flags: 64 } });
    expect(callback?.data?.content).toContain('This button has expired');
    expect(harness.events).toEqual([]);
    expect(await harness.subscriptions.list()).toEqual([]);
  });

  it.each([
    ['more than five minutes old (a replay)', -(5 * 60 + 1)],
    ['more than five minutes ahead', 5 * 60 + 1],
  ])(
    'refuses a correctly signed click whose timestamp is %s with 401, changing nothing',
    async (_name, offset) => {
      const { status } = await click(
        clickOf('Follow comments', MANAGER_PERMISSIONS),
        String(Math.floor(now / 1000) + offset),
      );
      expect(status).toBe(401);
      expect(harness.events).toEqual([]);
      expect(await harness.subscriptions.list()).toEqual([]);
    },
  );

  it('refuses a click signed with another key, or altered after signing, with 401', async () => {
    const forger = discordKeyPair();
    const interaction = componentInteraction(clickOf('Follow comments', MANAGER_PERMISSIONS));
    const forged = await postInteraction(
      server.url,
      forger.privateKey,
      interaction,
      String(Math.floor(now / 1000)),
    );
    expect(forged.status).toBe(401);

    // Signed as a plain member's click, sent claiming Manage Channels.
    const member = componentInteraction(clickOf('Follow comments'));
    const timestamp = String(Math.floor(now / 1000));
    const signature = discordSignature(keys.privateKey, timestamp, JSON.stringify(member));
    const altered = JSON.stringify(member).replace(MEMBER_PERMISSIONS, MANAGER_PERMISSIONS);
    const res = await fetch(`${server.url}/discord/interactions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature-timestamp': timestamp,
        'x-signature-ed25519': signature,
      },
      body: altered,
    });
    expect(res.status).toBe(401);
    expect(harness.events).toEqual([]);
    expect(await harness.subscriptions.list()).toEqual([]);
  });

  /** A comments subscription of the channel, and the body of a message delivered for it. */
  async function deliveredForSubscription(): Promise<{ id: string; body: unknown }> {
    const { subscription } = await harness.subscriptions.add({
      platform: 'discord',
      channelId: CHANNEL_ID,
      workspaceId: GUILD_ID,
      feed: 'comments',
      filters: {},
      createdBy: 'someone',
    });
    // What the dispatcher hands the adapter for this destination.
    await adapter.deliver(
      { platform: 'discord', channelId: CHANNEL_ID, workspaceId: GUILD_ID },
      withMuteActions(message, [subscription.id]),
      { idempotencyKey: 'buttons-2' },
    );
    return { id: subscription.id, body: rest.callsTo('POST', '/channels/:id/messages').at(-1)?.body };
  }

  it('pauses the subscription a message was delivered for when a member with Manage Channels presses Mute', async () => {
    const delivered = await deliveredForSubscription();
    expect(findComponent(delivered.body, 'Mute this subscription').custom_id).toBe(
      `dirbot:v1:mute:${delivered.id}`,
    );
    expect(rest.problems).toEqual([]);
    const { callback } = await click(clickOf('Mute this subscription', MANAGER_PERMISSIONS, delivered.body));
    expect(callback?.data?.flags).toBe(64);
    expect(callback?.data?.content).toMatch(new RegExp(`^Paused ${delivered.id}: `));
    expect(await harness.subscriptions.list()).toMatchObject([
      { id: delivered.id, paused: { by: '100000000000000020' } },
    ]);
  });

  it('refuses Mute to a member without Manage Channels, and the subscription keeps posting', async () => {
    const delivered = await deliveredForSubscription();
    const { callback } = await click(clickOf('Mute this subscription', MEMBER_PERMISSIONS, delivered.body));
    expect(callback?.data?.flags).toBe(64);
    expect(callback?.data?.content).toContain("You cannot change this channel's subscriptions.");
    expect((await harness.subscriptions.list())[0]?.paused).toBeUndefined();
  });

  it('answers Mute on a message whose subscription was deleted: this subscription no longer exists', async () => {
    const delivered = await deliveredForSubscription();
    await harness.subscriptions.remove('discord', CHANNEL_ID, delivered.id);
    const { callback } = await click(clickOf('Mute this subscription', MANAGER_PERMISSIONS, delivered.body));
    expect(callback).toMatchObject({
      type: 4,
      data: { flags: 64, content: 'This subscription no longer exists.' },
    });
  });

  it('sets a personal reminder when a member without any permission presses Remind me on a live event', async () => {
    const live = announcedLiveEvent(harness);
    const event = live.message;
    await adapter.deliver({ platform: 'discord', channelId: CHANNEL_ID, workspaceId: GUILD_ID }, event, {
      idempotencyKey: 'buttons-live',
    });
    const body = rest.callsTo('POST', '/channels/:id/messages').at(-1)?.body;
    expect(findComponent(body, 'Remind me').custom_id).toBe(`dirbot:v1:remind:${live.id}`);
    const { callback } = await click(clickOf('Remind me', MEMBER_PERMISSIONS, body));
    expect(callback?.data?.flags).toBe(64);
    expect(callback?.data?.content).toContain('Button AMA');
    expect(await reminders.forPerson('discord', '100000000000000020')).toMatchObject([{ eventId: live.id }]);
    expect(rest.problems).toEqual([]);
  });
});
