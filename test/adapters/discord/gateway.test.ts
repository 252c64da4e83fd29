import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../../adapters/discord/index.js';
import type { ChatAdapter } from '../../../src/ports/index.js';
import { componentInteraction } from '../../fakes/discord/component-interactions.js';
import { FakeDiscordGateway } from '../../fakes/discord/fake-discord-gateway.js';
import { FakeDiscordRest } from '../../fakes/discord/fake-discord-rest.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import {
  APP_ID,
  CHANNEL_ID,
  commandInteraction,
  discordScript,
  GUILD_ID,
  MEMBER_PERMISSIONS,
} from '../../support/discord-interactions.js';
import { FakeCommandHandler } from '../../support/fake-command-handler.js';

const TOKEN = 'gateway-bot-token';

describe('Discord gateway interactions', () => {
  let rest: FakeDiscordRest;
  let gateway: FakeDiscordGateway;
  let adapter: ChatAdapter;
  let commands: FakeCommandHandler;

  beforeEach(async () => {
    rest = new FakeDiscordRest({ token: TOKEN });
    await rest.listen();
    gateway = new FakeDiscordGateway({ applicationId: APP_ID, heartbeatIntervalMs: 200 });
    rest.gatewayUrl = await gateway.listening();
    commands = new FakeCommandHandler(discordScript);
    adapter = createDiscordAdapter({
      token: TOKEN,
      applicationId: APP_ID,
      apiUrl: rest.url,
      logger: createCapturingLogger(),
      deferAfterMs: 100,
    });
    expect(adapter.health()).toMatchObject({ ready: false });
    await adapter.start({ http: { mount: () => {} }, commands, logger: createCapturingLogger() });
  });

  afterEach(async () => {
    commands.releaseSlow();
    await adapter.stop();
    await gateway.close();
    await rest.close();
  });

  it('identifies with the Guilds intent only and reports ready', () => {
    expect(gateway.identifies).toHaveLength(1);
    expect(gateway.identifies[0]).toMatchObject({ token: TOKEN, intents: 1 });
    expect(adapter.health()).toEqual({ ready: true });
    expect(rest.callsTo('GET', '/gateway/bot')).toHaveLength(1);
  });

  it('answers an INTERACTION_CREATE through the callback route', async () => {
    gateway.dispatch('INTERACTION_CREATE', commandInteraction('help'));
    const call = await rest.waitForCall((c) => c.route === '/interactions/:id/:token/callback');
    expect(call.body).toMatchObject({
      type: 4,
      data: { content: 'You said: help', flags: 64, allowed_mentions: { parse: [] } },
    });
    // Interaction callbacks are authorised by their token, not the bot token.
    expect(call.headers.authorization).toBeUndefined();
    expect(rest.problems).toEqual([]);
  });

  it('runs the command behind a message button pressed over the gateway, as the member who pressed it', async () => {
    gateway.dispatch(
      'INTERACTION_CREATE',
      componentInteraction({
        applicationId: APP_ID,
        guildId: GUILD_ID,
        channelId: CHANNEL_ID,
        userId: '100000000000000030',
        permissions: MEMBER_PERMISSIONS,
        customId: 'dirbot:v1:comments:42',
      }),
    );
    const call = await rest.waitForCall((c) => c.route === '/interactions/:id/:token/callback');
    expect(call.body).toMatchObject({ type: 4, data: { content: 'You said: comments 42', flags: 64 } });
    expect(commands.invocations.at(-1)).toMatchObject({
      channelId: CHANNEL_ID,
      text: 'comments 42',
      via: 'button',
      actor: { userId: '100000000000000030', canManageChannel: false },
    });
    expect(rest.problems).toEqual([]);
  });

  it('defers a slow command over the gateway, then edits the reply', async () => {
    gateway.dispatch('INTERACTION_CREATE', commandInteraction('slow'));
    const deferred = await rest.waitForCall((c) => c.route === '/interactions/:id/:token/callback');
    expect(deferred.body).toEqual({ type: 5, data: { flags: 64 } });
    expect(rest.callsTo('PATCH', '/webhooks/:id/:token/messages/@original')).toHaveLength(0);
    commands.releaseSlow();
    const edit = await rest.waitForCall((c) => c.method === 'PATCH');
    expect(edit.body).toMatchObject({ content: 'Finally.', embeds: [{ title: 'Directory Bot' }] });
    expect(JSON.stringify(edit.body)).toContain('Share in channel');
    expect(rest.problems).toEqual([]);
  });

  it('acknowledges heartbeats so the session stays up', async () => {
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (gateway.heartbeats > 0) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
    });
    expect(adapter.health().ready).toBe(true);
  });
});
