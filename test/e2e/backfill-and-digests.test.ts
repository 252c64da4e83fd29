import { PassThrough } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createConsoleAdapter, PROMPT } from '../../adapters/console/index.js';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { buildCommandHandler } from '../../src/app/wiring.js';
import { createManualClock } from '../../src/emulator/index.js';
import type { ChatAdapter, Destination } from '../../src/ports/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { discordKeyPair, signedInteractionHeaders } from '../fakes/discord/signing.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { postSlashCommand } from '../fakes/slack/slash-command.js';
import {
  CHANNEL_ID,
  commandInteraction,
  GUILD_ID,
  MANAGER_PERMISSIONS,
} from '../support/discord-interactions.js';
import { startInstance, startWorld } from '../support/engine-harness.js';
import { Cleanup, silentLogger, startBotHttp } from '../support/pipeline-harness.js';
import { eventually } from '../support/polling.js';

/**
 * Issue 29 end to end, on Slack, Discord and the console: emulator → engine → the real adapters
 * (Bolt and its HTTP receiver, discord.js REST, the console prompt) → the fake platforms, with
 * `/directory subscribe … --backfill N` typed as a person types it, and an hourly digest longer
 * than one message. The engine and the emulator share a manual clock at a fixed instant, so the
 * digest's slot, the backfill's window and every time written never depend on when or where the
 * test runs (requests are still signed with the real time, as the platforms sign them).
 */

const START = Date.parse('2026-11-23T12:10:00Z');
const SLOT = Date.parse('2026-11-23T13:00:00Z');
const clock = createManualClock(START);
// Every test reads the newest posts and polls comments: room for all of them in one quota window.
const world = await startWorld({ clock, quotaComplexity: 100_000, quotaV1: 10_000 });
afterAll(() => world.close());
const cleanup = new Cleanup();
afterEach(async () => {
  await cleanup.run();
  clock.set(START);
});
const { admin } = world.emulator;

/** A bot on `adapter`, on the manual clock, its commands served by the adapter as the app serves them. */
async function botOn(adapter: ChatAdapter) {
  const bot = await startInstance({
    emulator: world.emulator,
    storeUrl: world.sqliteUrl(),
    namespace: `e2e-issue-29-${adapter.platform}`,
    adapters: [adapter],
    clock,
    // As DEDUPE_TTL_DAYS by default: the window a backfill takes items from.
    settings: { dedupeTtlMs: 30 * 86_400_000 },
  });
  cleanup.add(() => bot.close());
  const logger = silentLogger();
  const server = await startBotHttp(logger);
  cleanup.add(() => server.close());
  // The commands read the same manual clock as the engine (the app gives both the system's).
  const commands = buildCommandHandler(
    { feeds: { adminUserIds: [], liveRemindMinutes: 15 }, directory: { baseUrl: undefined } },
    bot,
    { clock },
  );
  await adapter.start({ http: server.http, commands, logger });
  cleanup.add(() => adapter.stop());
  bot.engine.dispatcher.start();
  return { bot, url: server.url };
}

type Bot = Awaited<ReturnType<typeof botOn>>['bot'];

/** The names of the directory's newest posts, oldest of them first: what a backfill of `count` posts. */
async function newestPosts(bot: Bot, count: number): Promise<string[]> {
  const { nodes } = await bot.client.listPosts({ first: count, order: 'NEWEST' });
  return nodes.map((post) => post.name).reverse();
}

/** What the poller does after a subscribe: queue the backfill, then deliver it. */
async function runBackfills(bot: Bot): Promise<void> {
  await bot.engine.backfill.runner.runOnce();
  await bot.engine.dispatcher.drained();
}

/**
 * An hourly UTC digest of comments for `destination`, subscribed at 12:10 and holding `count` new
 * comments at its 13:00 slot: the feed seeded, the comments found and held, the clock at the slot,
 * released and delivered. Returns the subscription id.
 */
async function hourlyDigestOf(bot: Bot, destination: Destination, count: number): Promise<string> {
  const { subscription } = await bot.engine.subscriptions.add({
    platform: destination.platform,
    channelId: destination.channelId,
    ...(destination.workspaceId === undefined ? {} : { workspaceId: destination.workspaceId }),
    feed: 'comments',
    filters: {},
    schedule: { digest: { every: 'hourly' }, timeZone: 'UTC' },
    createdBy: 'e2e',
  });
  await bot.engine.scheduling.runner.runOnce(); // its first period runs from 12:00
  await bot.engine.pollAllOnce(); // the feed notes where it is: no history
  for (let i = 0; i < count; i += 1) admin.addComment({ body: `Digest comment number ${i} of the hour` });
  clock.advance(60_000);
  await bot.engine.pollAllOnce();
  clock.set(SLOT + 5_000);
  await bot.engine.scheduling.runner.runOnce();
  await bot.engine.dispatcher.drained();
  return subscription.id;
}

const COMMENTS = 30;
const linksTo = (payload: unknown) =>
  JSON.stringify(payload).match(/Digest comment number \d+/g)?.length ?? 0;

describe('Slack: backfill on subscribe, and a digest that is one message', () => {
  const SECRET = 'issue-29-signing-secret';

  async function slackBot() {
    const slack = await new FakeSlackApi({ burst: 50 }).start();
    cleanup.add(() => slack.close());
    slack.addToken('xoxb-issue-29', 'T1');
    slack.addUser('UADMIN', { is_admin: true });
    const adapter = createSlackAdapter({
      botToken: 'xoxb-issue-29',
      signingSecret: SECRET,
      apiUrl: slack.apiUrl,
      logger: silentLogger(),
    });
    return { slack, ...(await botOn(adapter)) };
  }

  /** `/directory <text>` typed by a workspace admin in C1; the answer they see. */
  async function typed(e2e: Awaited<ReturnType<typeof slackBot>>, text: string): Promise<string> {
    const res = await postSlashCommand(e2e.url, SECRET, {
      text,
      userId: 'UADMIN',
      teamId: 'T1',
      responseUrl: e2e.slack.responseUrl(),
    });
    const acked = (await res.json()) as Record<string, unknown>;
    const answer = acked['text'] === 'Working on it…' ? (await e2e.slack.waitForResponse()).body : acked;
    return String(answer['text']);
  }

  it('posts the N most recent matching posts, oldest first, once: a repeated subscribe posts nothing again', async () => {
    const e2e = await slackBot();
    e2e.slack.addChannel('C1');
    const newest = await newestPosts(e2e.bot, 3);
    expect(await typed(e2e, 'subscribe posts --backfill 3')).toContain(
      'Posting the 3 most recent matching items here now, oldest first; new ones will follow.',
    );
    await runBackfills(e2e.bot);
    const posted = e2e.slack.threads.topLevel('C1');
    expect(posted).toHaveLength(3);
    for (const [i, message] of posted.entries()) expect(message.text).toContain(newest[i]);
    expect(await typed(e2e, 'subscribe posts --backfill 3')).toContain(
      'This channel already has the 3 most recent matching items',
    );
    await runBackfills(e2e.bot);
    expect(e2e.slack.threads.topLevel('C1')).toHaveLength(3);
    expect(e2e.slack.violations).toEqual([]);
  });

  it('posts a long digest as one message in the channel, the rest as replies in its thread', async () => {
    const e2e = await slackBot();
    e2e.slack.addChannel('C0DIGEST');
    await hourlyDigestOf(e2e.bot, { platform: 'slack', channelId: 'C0DIGEST' }, COMMENTS);
    const calls = e2e.slack
      .callsTo('chat.postMessage')
      .filter((c) => c.params['channel'] === 'C0DIGEST' && c.response['ok']);
    const [digest, ...others] = calls.filter((c) => c.params['thread_ts'] === undefined);
    expect(others).toEqual([]);
    expect(String(digest?.params['text'])).toMatch(/^30 new comments since 12:10/);
    const replies = calls.filter((c) => c.params['thread_ts'] === digest?.response['ts']);
    expect(replies.length).toBe(calls.length - 1);
    expect(replies.length).toBeGreaterThan(0);
    const rest = COMMENTS - linksTo(digest?.params['blocks']);
    expect(JSON.stringify(digest?.params['blocks'])).toContain(
      `And ${rest} more comments in this message's thread.`,
    );
    expect(replies.reduce((sum, reply) => sum + linksTo(reply.params['blocks']), 0)).toBe(rest);
    expect(e2e.slack.violations).toEqual([]);
  });
});

describe('Discord: backfill on subscribe, and a digest that is one message', () => {
  async function discordBot() {
    const rest = new FakeDiscordRest({ token: 'issue-29-token' });
    await rest.listen();
    cleanup.add(() => rest.close());
    const keys = discordKeyPair();
    const adapter = createDiscordAdapter({
      token: 'issue-29-token',
      applicationId: '100000000000000001',
      publicKey: keys.publicHex,
      apiUrl: rest.url,
      gateway: false,
      logger: silentLogger(),
    });
    return { rest, keys, ...(await botOn(adapter)) };
  }

  it('posts the N most recent matching posts, oldest first, from `/directory subscribe feed:posts backfill:3`', async () => {
    const e2e = await discordBot();
    e2e.rest.addChannel(CHANNEL_ID, 'ok', GUILD_ID);
    const newest = await newestPosts(e2e.bot, 3);
    const interaction = commandInteraction(
      'subscribe',
      [
        { name: 'feed', type: 3, value: 'posts' },
        { name: 'backfill', type: 4, value: 3 },
      ],
      { permissions: MANAGER_PERMISSIONS },
    );
    const raw = JSON.stringify(interaction);
    const res = await fetch(`${e2e.url}/discord/interactions`, {
      method: 'POST',
      headers: signedInteractionHeaders(e2e.keys.privateKey, raw),
      body: raw,
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { type: number; data?: { content?: string } };
    const content =
      answer.type === 4
        ? answer.data?.content
        : (
            (await e2e.rest.waitForCall((c) => c.method === 'PATCH' && c.route.endsWith('@original')))
              .body as {
              content?: string;
            }
          ).content;
    expect(content).toContain('Posting the 3 most recent matching items here now, oldest first');
    await runBackfills(e2e.bot);
    const titles = (e2e.rest.messages.get(CHANNEL_ID) ?? []).map(
      (m) => (m.body['embeds'] as { title: string }[])[0]?.title,
    );
    expect(titles).toEqual(newest);
    expect(e2e.rest.problems).toEqual([]);
  });

  it('posts a long digest as one message in the channel, the rest in a thread started from it', async () => {
    const e2e = await discordBot();
    const channel = '500000000000000777';
    e2e.rest.addChannel(channel, 'ok', GUILD_ID);
    await hourlyDigestOf(
      e2e.bot,
      { platform: 'discord', channelId: channel, workspaceId: GUILD_ID },
      COMMENTS,
    );
    const inChannel = e2e.rest.messages.get(channel) ?? [];
    expect(inChannel).toHaveLength(1);
    const [thread, ...more] = e2e.rest.threads.of(channel);
    expect(more).toEqual([]);
    expect(thread?.name).toMatch(/^30 new comments since 12:10/);
    const rest = COMMENTS - linksTo(inChannel[0]?.body);
    expect(JSON.stringify(inChannel[0]?.body)).toContain(
      `And ${rest} more comments in this message's thread.`,
    );
    const replies = e2e.rest.messages.get(thread!.id) ?? [];
    expect(replies.reduce((sum, reply) => sum + linksTo(reply.body), 0)).toBe(rest);
    expect(e2e.rest.problems).toEqual([]);
  });
});

describe('the console: backfill on subscribe, and a digest that is one message', () => {
  async function consoleBot() {
    let output = '';
    const input = new PassThrough();
    const adapter = createConsoleAdapter({
      write: (text) => {
        output += text;
      },
      input,
      logger: silentLogger(),
      promptChannelId: 'sandbox',
    });
    const e2e = await botOn(adapter);
    return {
      ...e2e,
      output: () => output,
      /** Types `line` at the `directory>` prompt; resolves with what it printed before the next prompt. */
      async type(line: string) {
        await eventually(() => output.includes(PROMPT), 5000, 'the first prompt');
        const before = output.length;
        input.write(`${line}\n`);
        await eventually(() => output.length > before && output.endsWith(PROMPT), 5000, 'the answer');
        return output.slice(before);
      },
    };
  }

  it('prints the N most recent matching posts, oldest first, after `subscribe posts --backfill 2` at the prompt', async () => {
    const e2e = await consoleBot();
    const newest = await newestPosts(e2e.bot, 2);
    const answer = await e2e.type('subscribe posts --backfill 2');
    expect(answer).toContain('Posting the 2 most recent matching items here now, oldest first');
    const before = e2e.output().length;
    await runBackfills(e2e.bot);
    const printed = e2e.output().slice(before);
    const at = newest.map((name) => printed.indexOf(name));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(printed.split('── #sandbox ──')).toHaveLength(3);
  });

  it('prints a long digest as one message counting the rest, and `digest <id> 2` shows them', async () => {
    const e2e = await consoleBot();
    const before = e2e.output().length;
    const id = await hourlyDigestOf(e2e.bot, { platform: 'console', channelId: 'sandbox' }, COMMENTS);
    const printed = e2e.output().slice(before);
    expect(printed.split('── #sandbox ──')).toHaveLength(2);
    expect(printed).not.toContain('↳');
    const shown = linksTo(printed);
    expect(printed).toContain(
      `And ${COMMENTS - shown} more comments: see them with /directory digest ${id} 2.`,
    );
    const part2 = await e2e.type(`digest ${id} 2`);
    expect(part2).toMatch(
      new RegExp(
        `The latest digest of ${id} too long for one message, due Mon 23 Nov 13:00 UTC, part 2 of \\d+\\.`,
      ),
    );
    expect(linksTo(part2)).toBeGreaterThan(0);
  });
});
