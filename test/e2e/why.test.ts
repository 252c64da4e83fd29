import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createConsoleAdapter } from '../../adapters/console/index.js';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import type { ChatAdapter } from '../../src/ports/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { discordKeyPair, signedInteractionHeaders } from '../fakes/discord/signing.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { signedHeaders } from '../fakes/slack/signing.js';
import { newTriggerId } from '../fakes/slack/trigger-id.js';
import { APP_ID, CHANNEL_ID, commandInteraction, GUILD_ID } from '../support/discord-interactions.js';
import { startWorld } from '../support/engine-harness.js';
import { Cleanup, pollAndDeliver, silentLogger, startPipeline } from '../support/pipeline-harness.js';
import { eventually } from '../support/polling.js';

/**
 * `/directory why` on each platform, end to end: the emulator → the engine → the real adapter →
 * a fake Slack, a fake Discord, or the console; then the command asked as each platform sends it.
 * A channel follows comments mentioning "maps" and, after it, a daily digest of every comment:
 * a comment about maps is delivered for the first (the digest's copy would be a duplicate), one
 * about something else is filtered out by the first and held by the digest.
 */

// New bots poll the one emulator throughout the file: room in the complexity quota for all of them.
const world = await startWorld({ quotaComplexity: 100_000 });
afterAll(() => world.close());
const cleanup = new Cleanup();
afterEach(() => cleanup.run());

let counter = 0;
/** A name no other test of the file uses. */
function fresh(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36).toUpperCase()}${counter}`;
}

/** The channel's two subscriptions, a first poll (which records what exists), then the two comments polled and delivered. */
async function scenario(
  bot: Awaited<ReturnType<typeof startPipeline>>['bot'],
  where: { platform: string; channelId: string; workspaceId?: string },
) {
  const maps = await bot.engine.subscriptions.add({
    ...where,
    feed: 'comments',
    filters: { keywords: ['maps'] },
    createdBy: 'e2e',
  });
  const digest = await bot.engine.subscriptions.add({
    ...where,
    feed: 'comments',
    filters: {},
    schedule: { digest: { every: 'daily', at: { hour: 9, minute: 0 } } },
    createdBy: 'e2e',
  });
  await bot.engine.pollAllOnce();
  const delivered = world.emulator.admin.addComment({ body: 'These maps make the trail readable' });
  const held = world.emulator.admin.addComment({ body: 'Does it work offline on a long hike?' });
  await pollAndDeliver(bot);
  return { maps: maps.subscription.id, digest: digest.subscription.id, delivered, held };
}

/** What every platform's answer says, in the core's own sentences. */
function expectSentences(text: string, ids: { maps: string; digest: string }, link?: RegExp) {
  expect(text).toMatch(
    new RegExp(`${ids.maps} \\(comments\\): Delivered (\\w{3} \\d{1,2} \\w{3} )?\\d\\d:\\d\\d UTC \\(`),
  );
  if (link) expect(text).toMatch(link);
  expect(text).toContain(`${ids.digest} (comments): A duplicate: posted here`);
}

describe('/directory why on Slack', () => {
  it('answers a signed slash command with the delivered, filtered and held lines, and a link to the posted message', async () => {
    const slack = await new FakeSlackApi().start();
    cleanup.add(() => slack.close());
    slack.addToken('xoxb-why', 'T0WHY');
    const channel = fresh('C');
    slack.addChannel(channel);
    const adapter = createSlackAdapter({
      botToken: 'xoxb-why',
      signingSecret: 'why-secret',
      apiUrl: slack.apiUrl,
      logger: silentLogger(),
    });
    const { bot, url } = await startPipeline(world, cleanup, adapter, { namespace: 'e2e-why-slack' });
    const ids = await scenario(bot, { platform: 'slack', channelId: channel, workspaceId: 'T0WHY' });
    const posted = slack.callsTo('chat.postMessage').filter((c) => c.params['channel'] === channel);
    expect(posted).toHaveLength(1);
    const ts = String(posted[0]?.response['ts']);

    const ask = async (text: string) => {
      const body = new URLSearchParams({
        team_id: 'T0WHY',
        team_domain: 'fake',
        channel_id: channel,
        user_id: 'U0ASKER',
        user_name: 'asker',
        command: '/directory',
        text,
        api_app_id: 'A0WHY',
        response_url: slack.responseUrl(),
        trigger_id: newTriggerId(),
      }).toString();
      const res = await fetch(`${url}/slack/events`, {
        method: 'POST',
        headers: signedHeaders('why-secret', body, Math.floor(Date.now() / 1000)),
        body,
      });
      expect(res.status).toBe(200);
      const acked = (await res.json()) as Record<string, unknown>;
      const answer = acked['text'] === 'Working on it…' ? (await slack.waitForResponse()).body : acked;
      expect(answer['response_type']).toBe('ephemeral');
      return JSON.stringify(answer);
    };

    const link = `https://fake.slack.com/archives/${channel}/p${ts.replace('.', '')}`;
    expectSentences(await ask(`why comment ${delivered(ids)}`), ids, new RegExp(link));
    const about = await ask(`why ${String(ids.held['url'])}`);
    expect(about).toContain(
      `${ids.maps} (comments): Filtered out by --keyword \\"maps\\": it mentions none of them.`,
    );
    expect(about).toMatch(
      new RegExp(`${ids.digest} \\(comments\\): Held for the digest: it goes .+ UTC \\(in .+\\)\\.`),
    );
    expect(slack.violations).toEqual([]);
  });
});

describe('/directory why on Discord', () => {
  it('answers a signed interaction with the delivered, filtered and held lines, and a link to the posted message', async () => {
    const rest = new FakeDiscordRest({ token: 'discord-why-token' });
    await rest.listen();
    cleanup.add(() => rest.close());
    const keys = discordKeyPair();
    // The one channel of this bot: the channel the support's interactions come from, in its server.
    const channel = CHANNEL_ID;
    rest.addChannel(channel, 'ok', GUILD_ID);
    const adapter: ChatAdapter = createDiscordAdapter({
      token: 'discord-why-token',
      applicationId: APP_ID,
      publicKey: keys.publicHex,
      apiUrl: rest.url,
      gateway: false,
      logger: silentLogger(),
    });
    const { bot, url } = await startPipeline(world, cleanup, adapter, { namespace: 'e2e-why-discord' });
    // Seeded without a server (as SUBSCRIPTIONS routes are): the link's server comes from the asking interaction.
    const ids = await scenario(bot, { platform: 'discord', channelId: channel });
    const message = rest.messages.get(channel)?.[0] as { id?: string } | undefined;
    expect(message?.id).toBeDefined();

    const ask = async (item: string) => {
      const interaction = commandInteraction('why', [{ name: 'item', type: 3, value: item }]);
      const raw = JSON.stringify(interaction);
      const res = await fetch(`${url}/discord/interactions`, {
        method: 'POST',
        headers: signedInteractionHeaders(keys.privateKey, raw),
        body: raw,
      });
      expect(res.status).toBe(200);
      const callback = (await res.json()) as { type?: number; data?: Record<string, unknown> };
      const answer =
        callback.type === 4 && callback.data
          ? callback.data
          : ((
              await rest.waitForCall(
                (c) =>
                  c.method === 'PATCH' &&
                  c.route.endsWith('@original') &&
                  c.path.includes(String(interaction['token'])),
              )
            ).body as Record<string, unknown>);
      expect(answer['flags']).toBe(64); // only the asker sees it
      // The embed as a reader sees it: Discord's markdown escapes undone.
      const embed = (answer['embeds'] as { title: string; description: string }[])[0];
      return `${embed?.title}\n${embed?.description.replace(/\\([^\w\s])/g, '$1')}`;
    };

    const link = `https://discord.com/channels/${GUILD_ID}/${channel}/${message?.id}`;
    expectSentences(await ask(`comment ${delivered(ids)}`), ids, new RegExp(link));
    const about = await ask(String(ids.held['url']));
    expect(about).toContain(
      `${ids.maps} (comments): Filtered out by --keyword "maps": it mentions none of them.`,
    );
    expect(about).toMatch(
      new RegExp(`${ids.digest} \\(comments\\): Held for the digest: it goes .+ UTC \\(in .+\\)\\.`),
    );
    expect(rest.problems).toEqual([]);
  });
});

describe('/directory why at the console prompt', () => {
  it('prints the delivered, filtered and held lines under the item', async () => {
    const input = new PassThrough();
    let output = '';
    const adapter = createConsoleAdapter({
      write: (text) => {
        output += text;
      },
      input,
      logger: silentLogger(),
      promptChannelId: 'why',
    });
    const { bot } = await startPipeline(world, cleanup, adapter, { namespace: 'e2e-why-console' });
    const ids = await scenario(bot, { platform: 'console', channelId: 'why' });
    const before = output.length;
    input.write(`why comment ${delivered(ids)}\n`);
    await eventually(() => output.slice(before).includes('A duplicate'), 10_000, 'the delivered answer');
    const first = output.slice(before).replace(/\s+/g, ' ');
    expect(first).toMatch(
      new RegExp(`${ids.maps} \\(comments\\): Delivered (\\w{3} \\d{1,2} \\w{3} )?\\d\\d:\\d\\d UTC`),
    );
    const middle = output.length;
    input.write(`why ${String(ids.held['url'])}\n`);
    await eventually(() => output.slice(middle).includes('Held for'), 10_000, 'the held answer');
    const second = output.slice(middle).replace(/\s+/g, ' ');
    expect(second).toContain(
      `${ids.maps} (comments): Filtered out by --keyword "maps": it mentions none of them.`,
    );
    expect(second).toMatch(
      new RegExp(`${ids.digest} \\(comments\\): Held for the digest: it goes .+ UTC \\(in .+\\)\\.`),
    );
    input.end();
  });
});

function delivered(ids: { delivered: Record<string, unknown> }): string {
  return String(ids.delivered['id']);
}
