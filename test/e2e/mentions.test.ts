import { generateKeyPairSync, sign } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { mentionSupportOf } from '../../src/app/webhook-setup.js';
import { buildCommandHandler } from '../../src/app/wiring.js';
import type { ChatAdapter } from '../../src/ports/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { postSlashCommand } from '../fakes/slack/slash-command.js';
import { slackPings } from '../fakes/webhooks/fake-slack-webhooks.js';
import {
  CHANNEL_ID,
  commandInteraction,
  GUILD_ID,
  MANAGER_PERMISSIONS,
} from '../support/discord-interactions.js';
import { startWorld } from '../support/engine-harness.js';
import { Cleanup, pollAndDeliver, silentLogger, startPipeline } from '../support/pipeline-harness.js';

/**
 * Mentions on a match, from outside: a person sets `--mention` with `/directory subscribe` on the
 * real Slack and Discord adapters against their fakes, and the bot refuses it from anyone not
 * allowed to change the channel's subscriptions, refuses targets the platform cannot ping and
 * broadcasts; what it accepts pings exactly those targets, and only on a match, however the
 * directory's text tries to ping anyone else.
 */

const world = await startWorld({ quotaComplexity: 100_000 });
afterAll(() => world.close());
const cleanup = new Cleanup();
afterEach(() => cleanup.run());

type Bot = Awaited<ReturnType<typeof startPipeline>>['bot'];

/** The handler as the app builds it: mentions checked against each adapter's `mentions`. */
function handlerWith(adapter: ChatAdapter) {
  return (bot: Bot) =>
    buildCommandHandler(
      { feeds: { adminUserIds: [], liveRemindMinutes: 15 }, directory: { baseUrl: undefined } },
      { ...bot, mentionSupport: (platform) => mentionSupportOf([adapter], platform) },
    );
}

describe('mentions on Slack, set with /directory subscribe', () => {
  const TOKEN = 'xoxb-mentions';
  const SECRET = 'mentions-signing-secret';

  async function slackBot() {
    const slack = await new FakeSlackApi({ burst: 3 }).start();
    cleanup.add(() => slack.close());
    slack.addToken(TOKEN, 'T1');
    slack.addChannel('C1');
    slack.addUser('UMEMBER1');
    slack.addUser('UADMIN01', { is_admin: true });
    const adapter = createSlackAdapter({
      botToken: TOKEN,
      signingSecret: SECRET,
      apiUrl: slack.apiUrl,
      logger: silentLogger(),
    });
    const { bot, url } = await startPipeline(world, cleanup, adapter, {
      namespace: `e2e-mentions-slack-${Date.now()}`,
      commands: handlerWith(adapter),
    });
    /** What the person is shown: the reply's text. */
    const say = async (userId: string, text: string) => {
      const res = await postSlashCommand(url, SECRET, {
        text,
        responseUrl: slack.responseUrl(),
        userId,
        teamId: 'T1',
      });
      return String(((await res.json()) as { text?: string }).text);
    };
    return { slack, bot, say };
  }

  it('refuses --mention from a member, a target Slack cannot ping and a broadcast; pings the set group only on a match', async () => {
    const { slack, bot, say } = await slackBot();
    const member = await say('UMEMBER1', 'subscribe comments --mention group:S0ONCALL1');
    expect(member).toMatch(/admin|owner|manage/i);
    expect(await bot.engine.subscriptions.list()).toEqual([]);

    expect(await say('UADMIN01', 'subscribe comments --mention role:112233445566778899')).toContain(
      'slack cannot mention a role',
    );
    expect(await say('UADMIN01', 'subscribe comments --mention @everyone')).toContain('would ping everyone');
    expect(await say('UADMIN01', 'subscribe comments --mention-on launch')).toContain('needs --mention');
    expect(await bot.engine.subscriptions.list()).toEqual([]);

    const ok = await say('UADMIN01', 'subscribe comments --mention group:S0ONCALL1 --mention-on launch');
    expect(ok).toContain('Subscribed this channel');
    expect(ok).toContain('pings group:S0ONCALL1 on "launch"');
    await bot.engine.pollAllOnce(); // the subscription's history stays unposted

    world.emulator.admin.addComment({ body: 'launch day <!channel> <@U999> <!subteam^S0OTHER1|@all>' });
    world.emulator.admin.addComment({ body: 'nothing to see <!here>' });
    await pollAndDeliver(bot);
    const posts = slack
      .callsTo('chat.postMessage')
      .filter((c) => c.response['ok'] && c.params['channel'] === 'C1');
    expect(posts).toHaveLength(2);
    const pings = posts.map((c) => slackPings(JSON.stringify([c.params['text'], c.params['blocks']])));
    expect(pings.sort((a, b) => b.length - a.length)).toEqual([['group:S0ONCALL1'], []]);
  });
});

describe('mentions on Discord, set with /directory subscribe', () => {
  const TOKEN = 'discord-mentions-token';
  const APP_ID = '100000000000000001';

  async function discordBot() {
    const rest = new FakeDiscordRest({ token: TOKEN });
    await rest.listen();
    cleanup.add(() => rest.close());
    rest.addChannel(CHANNEL_ID, 'ok', GUILD_ID);
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const publicHex = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('hex');
    const adapter = createDiscordAdapter({
      token: TOKEN,
      applicationId: APP_ID,
      publicKey: publicHex,
      apiUrl: rest.url,
      gateway: false,
      logger: silentLogger(),
    });
    const { bot, url } = await startPipeline(world, cleanup, adapter, {
      namespace: `e2e-mentions-discord-${Date.now()}`,
      commands: handlerWith(adapter),
    });
    const subscribe = async (
      options: { name: string; type: number; value: string }[],
      permissions?: string,
    ) => {
      const raw = JSON.stringify(
        commandInteraction('subscribe', options, permissions === undefined ? {} : { permissions }),
      );
      const timestamp = String(Math.floor(Date.now() / 1000));
      const signature = sign(null, Buffer.from(timestamp + raw), privateKey).toString('hex');
      const res = await fetch(`${url}/discord/interactions`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-signature-ed25519': signature,
          'x-signature-timestamp': timestamp,
        },
        body: raw,
      });
      const callback = (await res.json()) as { type?: number; data?: { content?: string } };
      if (callback.type === 4) return callback.data?.content ?? '';
      const edit = await rest.waitForCall((c) => c.method === 'PATCH' && c.route.endsWith('@original'));
      return String((edit.body as { content?: string }).content ?? '');
    };
    return { rest, bot, subscribe };
  }

  const feed = { name: 'feed', type: 3, value: 'comments' };
  const role = { name: 'mention', type: 3, value: '<@&222222222222222222>' };

  it('refuses --mention without Manage Channels, and pings exactly the set role however a comment tries', async () => {
    const { rest, bot, subscribe } = await discordBot();
    expect(await subscribe([feed, role])).toMatch(/Manage Channels|not allowed|permission/i);
    expect(await bot.engine.subscriptions.list()).toEqual([]);
    expect(
      await subscribe([feed, { name: 'mention', type: 3, value: 'group:S0123' }], MANAGER_PERMISSIONS),
    ).toContain('discord cannot mention a group');
    expect(await subscribe([feed, role], MANAGER_PERMISSIONS)).toContain('Subscribed this channel');
    await bot.engine.pollAllOnce();

    world.emulator.admin.addComment({ body: 'Hey @everyone <@&333333333333333333> <@444444444444444444>' });
    await pollAndDeliver(bot);
    const [message] = rest.messages.get(CHANNEL_ID) ?? [];
    expect(message?.body['content']).toBe('<@&222222222222222222>');
    expect(message?.body['allowed_mentions']).toEqual({ parse: [], roles: ['222222222222222222'] });
    expect(rest.problems).toEqual([]);
  });
});
