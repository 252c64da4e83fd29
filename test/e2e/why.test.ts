import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createConsoleAdapter } from '../../adapters/console/index.js';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { createKeyValueInstallationStore } from '../../adapters/slack/installation-store.js';
import type { ChatAdapter } from '../../src/ports/index.js';
import type { Subscription } from '../../src/subscriptions/index.js';
import { postInteraction } from '../fakes/discord/component-interactions.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { discordKeyPair } from '../fakes/discord/signing.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { signedHeaders } from '../fakes/slack/signing.js';
import { newTriggerId } from '../fakes/slack/trigger-id.js';
import { channelStory, JUST_NOW } from '../support/channel-story.js';
import { APP_ID, CHANNEL_ID, commandInteraction, GUILD_ID } from '../support/discord-interactions.js';
import { startWorld } from '../support/engine-harness.js';
import {
  botInstallationStore,
  Cleanup,
  pollAndDeliver,
  silentLogger,
  startPipeline,
} from '../support/pipeline-harness.js';
import { eventually } from '../support/polling.js';
import { createOAuthSlackAdapter, createTestSealer } from '../support/slack-oauth.js';
import { installation } from '../support/workspace-seed.js';

// Each test polls the one emulator from a new bot: a generous complexity quota keeps them all within it.
const world = await startWorld({ quotaComplexity: 100_000 });
afterAll(() => world.close());
const cleanup = new Cleanup();
afterEach(() => cleanup.run());

type Bot = Awaited<ReturnType<typeof startPipeline>>['bot'];

/** The channel story (channelStory) told by `bot`, polling `world`'s emulator. */
function story(bot: Bot, platform: string, channelId: string, extra: Partial<Subscription> = {}) {
  return channelStory(
    {
      subscriptions: bot.engine.subscriptions,
      emulator: world.emulator,
      pollAndDeliver: () => pollAndDeliver(bot),
    },
    platform,
    channelId,
    extra,
  );
}

/** What a Discord reader sees of a message: its text and embeds, markdown escapes removed. */
function visibleText(message: Record<string, unknown>): string {
  const embeds = (message['embeds'] as { title?: string; description?: string }[] | undefined) ?? [];
  const parts = [message['content'], ...embeds.flatMap((e) => [e.title, e.description])];
  return parts
    .filter((part): part is string => typeof part === 'string')
    .join('\n')
    .replace(/\\(.)/g, '$1');
}

/** The lines of both answers: posted with the message's link and filtered out; held and a duplicate. */
function expectStory(
  posted: string,
  held: string,
  s: Awaited<ReturnType<typeof story>>,
  messageLink: RegExp,
): void {
  expect(posted).toContain('Difference engine');
  expect(posted).toMatch(new RegExp(`${s.all.id} \\(posts\\): Posted here ${JUST_NOW}`));
  expect(posted).toMatch(messageLink);
  expect(posted).toContain(
    `${s.zeppelins.id} (posts): Filtered out by --keyword zeppelin: it does not mention it.`,
  );
  expect(posted).toContain(
    `${s.digest.id} (posts): Filtered out by --keyword airship: it does not mention it.`,
  );
  expect(held).toContain('Airship engine');
  expect(held).toMatch(
    new RegExp(
      `${s.digest.id} \\(posts\\): Held for the digest, which goes [A-Za-z0-9: ]+ UTC \\(in [^)]+\\)\\.`,
    ),
  );
  expect(held).toContain(`${s.all.id} (posts): Already taken here by ${s.digest.id}'s schedule`);
}

/**
 * Asks `/directory <text>` in a Slack channel as Slack sends it (signed), and returns the answer
 * the asker sees (the ack, or what came through response_url). `domain`: the workspace's
 * `team_domain`, which Slack sends with every slash command.
 */
async function askSlack(
  bot: { url: string; slack: FakeSlackApi; secret: string },
  where: { team: string; channel: string; domain?: string },
  text: string,
): Promise<string> {
  const body = new URLSearchParams({
    team_id: where.team,
    ...(where.domain === undefined ? {} : { team_domain: where.domain }),
    channel_id: where.channel,
    user_id: 'U0ASKER',
    user_name: 'asker',
    command: '/directory',
    text,
    api_app_id: 'A0WHY',
    response_url: bot.slack.responseUrl(),
    trigger_id: newTriggerId(),
  }).toString();
  const res = await fetch(`${bot.url}/slack/events`, {
    method: 'POST',
    headers: signedHeaders(bot.secret, body, Math.floor(Date.now() / 1000)),
    body,
  });
  expect(res.status).toBe(200);
  const acked = (await res.json()) as Record<string, unknown>;
  const answer = acked['text'] === 'Working on it…' ? (await bot.slack.waitForResponse()).body : acked;
  expect(answer['response_type']).toBe('ephemeral');
  return JSON.stringify(answer);
}

/**
 * A bot delivering to a fake Discord whose HTTP interactions endpoint takes signed interactions,
 * and `ask(item)`: `/directory why <item>` from the support's channel and server, returning what
 * the asker sees.
 */
async function discordBot(namespace: string) {
  const rest = new FakeDiscordRest({ token: 'discord-why' });
  await rest.listen();
  cleanup.add(() => rest.close());
  rest.addChannel(CHANNEL_ID, 'ok', GUILD_ID);
  const keys = discordKeyPair();
  const logger = silentLogger();
  const adapter: ChatAdapter = createDiscordAdapter({
    token: 'discord-why',
    applicationId: APP_ID,
    publicKey: keys.publicHex,
    apiUrl: rest.url,
    gateway: false,
    logger,
  });
  const { bot, url } = await startPipeline(world, cleanup, adapter, { namespace, logger });
  async function ask(item: string): Promise<string> {
    const interaction = commandInteraction('why', [{ name: 'item', type: 3, value: item }]);
    const res = await postInteraction(url, keys.privateKey, interaction);
    expect(res.status).toBe(200);
    const callback = (await res.json()) as { type?: number; data?: Record<string, unknown> };
    if (callback.type === 4 && callback.data) return visibleText(callback.data);
    const edit = await rest.waitForCall(
      (c) =>
        c.method === 'PATCH' &&
        c.route.endsWith('@original') &&
        c.path.includes(String(interaction['token'])),
    );
    return visibleText(edit.body as Record<string, unknown>);
  }
  return { bot, rest, ask };
}

describe('/directory why end to end: emulator → engine → platform → the answer', () => {
  it("on Slack: a signed slash command gets the posted (with the message's permalink), filtered and held lines", async () => {
    const token = 'xoxb-why';
    const secret = 'why-signing-secret';
    const slack = await new FakeSlackApi({ burst: 3 }).start();
    cleanup.add(() => slack.close());
    slack.addToken(token, 'T0WHY');
    slack.addChannel('C0WHY');
    const logger = silentLogger();
    const adapter = createSlackAdapter({
      botToken: token,
      signingSecret: secret,
      apiUrl: slack.apiUrl,
      logger,
    });
    const { bot, url } = await startPipeline(world, cleanup, adapter, { namespace: 'e2e-why-slack', logger });
    const s = await story(bot, 'slack', 'C0WHY');
    expect(slack.callsTo('chat.postMessage').filter((c) => c.response['ok'])).toHaveLength(1);

    const ask = (channel: string, text: string) =>
      askSlack({ url, slack, secret }, { team: 'T0WHY', channel }, text);
    const posted = slack.callsTo('chat.postMessage').find((c) => c.response['ok']);
    const ts = String(posted?.response['ts']).replace('.', '');
    expectStory(
      await ask('C0WHY', `why ${s.posted}`),
      await ask('C0WHY', `why ${s.held}`),
      s,
      new RegExp(`https://fake\\.slack\\.com/archives/C0WHY/p${ts}`),
    );
    expect(slack.violations).toEqual([]);
  });

  it("on Discord: a signed interaction gets the posted (with the message's link), filtered and held lines", async () => {
    const { bot, rest, ask } = await discordBot('e2e-why-discord');
    const s = await story(bot, 'discord', CHANNEL_ID, { workspaceId: GUILD_ID });

    const messageId = (await bot.engine.deliveryLog.recent(`discord:${CHANNEL_ID}`))[0]?.messageId;
    expect(messageId).toBeDefined();
    expectStory(
      await ask(s.posted),
      await ask(s.held),
      s,
      new RegExp(`https://discord\\.com/channels/${GUILD_ID}/${CHANNEL_ID}/${messageId}`),
    );
    expect(rest.problems).toEqual([]);
  });

  it("on a multi-workspace Slack install: the permalink is at the address the asking workspace's command named", async () => {
    const secret = 'why-oauth-secret';
    const slack = await new FakeSlackApi({ burst: 3 }).start();
    cleanup.add(() => slack.close());
    slack.addChannel('C0MULTI');
    const installs = botInstallationStore();
    const sealer = createTestSealer();
    const adapter = createOAuthSlackAdapter(slack.apiUrl, installs, sealer, secret);
    const { bot, url } = await startPipeline(world, cleanup, adapter, {
      namespace: 'e2e-why-slack-oauth',
      installs,
    });
    // The workspace installed the app by OAuth: its token is in the bot's store, sealed.
    slack.addToken('xoxb-why-multi', 'T0MULTI');
    await createKeyValueInstallationStore(installs, sealer).storeInstallation(
      installation('T0MULTI', 'xoxb-why-multi'),
    );
    const s = await story(bot, 'slack', 'C0MULTI', { workspaceId: 'T0MULTI' });
    const posted = slack.callsTo('chat.postMessage').find((c) => c.response['ok']);
    expect(posted?.token).toBe('xoxb-why-multi');
    const ts = String(posted?.response['ts']).replace('.', '');
    // Nobody called auth.test with this workspace's token: its address is what its command says.
    const where = { team: 'T0MULTI', channel: 'C0MULTI', domain: 'airships' };
    expectStory(
      await askSlack({ url, slack, secret }, where, `why ${s.posted}`),
      await askSlack({ url, slack, secret }, where, `why ${s.held}`),
      s,
      new RegExp(`https://airships\\.slack\\.com/archives/C0MULTI/p${ts}`),
    );
    expect(slack.violations).toEqual([]);
  });

  it("on Discord, for a route that names no server (as SUBSCRIPTIONS seeds it): the link's server is the asking interaction's", async () => {
    const { bot, rest, ask } = await discordBot('e2e-why-discord-seeded');
    const s = await story(bot, 'discord', CHANNEL_ID);
    // Posted with no server known: the log has no link for it.
    const [record] = await bot.engine.deliveryLog.recent(`discord:${CHANNEL_ID}`);
    expect(record?.messageId).toBeDefined();
    expect(record?.link).toBeUndefined();
    expect(await ask(s.posted)).toContain(
      `https://discord.com/channels/${GUILD_ID}/${CHANNEL_ID}/${record?.messageId}`,
    );
    expect(rest.problems).toEqual([]);
  });

  it('on the console: typed at the prompt, answered in the terminal', async () => {
    const input = new PassThrough();
    let output = '';
    const adapter = createConsoleAdapter({
      write: (text) => {
        output += text;
      },
      input,
      logger: silentLogger(),
      promptChannelId: 'general',
    });
    const { bot } = await startPipeline(world, cleanup, adapter, { namespace: 'e2e-why-console' });
    const s = await story(bot, 'console', 'general');
    const answer = async (link: string, title: string) => {
      const from = output.length;
      input.write(`why ${link}\n`);
      await eventually(
        () => output.slice(from).includes(`Why: ${title}`) && output.slice(from).includes('directory>'),
        10_000,
        'the answer printed',
      );
      return output.slice(from);
    };
    // The console's messages have ids, not links: the line names the one it printed.
    expectStory(
      await answer(s.posted, 'Difference engine console'),
      await answer(s.held, 'Airship engine console'),
      s,
      new RegExp(`Posted here ${JUST_NOW} as message console-1\\.`),
    );
  });
});
