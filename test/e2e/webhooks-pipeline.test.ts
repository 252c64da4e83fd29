import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawnBot } from '../support/child-bot.js';
import { startInstance, startWorld } from '../support/engine-harness.js';
import { freePort } from '../support/free-port.js';
import { Cleanup, pollAndDeliver } from '../support/pipeline-harness.js';
import { eventually } from '../support/polling.js';
import { startWebhookFakes, WebhookBook, webhookAdapter } from '../support/webhook-world.js';

/**
 * Emulator → engine → each webhook kind's real adapter → its fake platform, as a channel is
 * delivered to: every new item once, within the platform's schema and limits, pinging only the
 * configured targets. Then the bot itself, as a person would run it, fed by two variables.
 */

const world = await startWorld({ quotaComplexity: 100_000 });
const fakes = await startWebhookFakes();
afterAll(async () => {
  await fakes.close();
  await world.close();
});
const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('the emulator through every webhook kind', () => {
  it('delivers each new comment and post once to each kind, pinging only the configured targets', async () => {
    const book = new WebhookBook();
    const adapters = fakes.all.map((fixture) => webhookAdapter(fixture.kind, book));
    const bot = await startInstance({
      emulator: world.emulator,
      storeUrl: world.sqliteUrl(),
      namespace: 'e2e-webhooks',
      adapters,
    });
    cleanup.add(() => bot.close());
    for (const adapter of adapters) {
      await adapter.start({} as never);
      cleanup.add(() => adapter.stop());
    }
    const mentions = {
      'discord-webhook': [{ kind: 'role' as const, id: '222222222222222222' }],
      'slack-webhook': [{ kind: 'group' as const, id: 'S0ONCALL1' }],
      'teams-webhook': [{ kind: 'user' as const, id: 'jane@contoso.com', label: 'Jane' }],
      'mattermost-webhook': [{ kind: 'user' as const, id: 'carol' }],
      'json-webhook': [{ kind: 'user' as const, id: 'ops-rota' }],
    };
    for (const fixture of fakes.all) {
      const webhook = fixture.create();
      const name = `e2e-${fixture.kind.kind}`;
      book.add(fixture.kind.platform, {
        name,
        url: webhook.url,
        ...(webhook.secret ? { secret: webhook.secret } : {}),
      });
      for (const feed of ['comments', 'posts'] as const) {
        await bot.engine.subscriptions.add({
          platform: fixture.kind.platform,
          channelId: name,
          feed,
          filters: {},
          mentions: mentions[fixture.kind.platform as keyof typeof mentions],
          mentionOn: ['launch'],
          createdBy: 'e2e',
        });
      }
    }
    await bot.engine.pollAllOnce(); // history stays unposted
    world.emulator.admin.addComment({
      body: 'launch today @everyone <!channel> <@U999> <at>Bob</at> @alice <@&333333333333333333>',
    });
    world.emulator.admin.addPost({ name: 'Quiet tool [click](https://evil.example)' });
    await pollAndDeliver(bot);
    await pollAndDeliver(bot); // a second poll finds nothing new: nothing is posted twice

    expect(fakes.discord.fake.messages.size).toBe(2);
    const discordPings = [...fakes.discord.fake.messages.values()].map((m) => m.pinged);
    expect(discordPings.sort((a, b) => b.length - a.length)).toEqual([['role:222222222222222222'], []]);
    expect(fakes.slack.fake.posts.map((p) => p.pinged).sort((a, b) => b.length - a.length)).toEqual([
      ['group:S0ONCALL1'],
      [],
    ]);
    expect(fakes.teams.fake.posts.map((p) => p.pinged).sort((a, b) => b.length - a.length)).toEqual([
      ['user:jane@contoso.com'],
      [],
    ]);
    expect(fakes.mattermost.fake.posts.map((p) => p.pinged).sort((a, b) => b.length - a.length)).toEqual([
      ['carol'],
      [],
    ]);
    const json = fakes.json.fake.received;
    expect(json).toHaveLength(2);
    expect(
      json
        .map((r) => r.payload['mentions'])
        .sort((a, b) => JSON.stringify(b).length - JSON.stringify(a).length),
    ).toEqual([[{ kind: 'user', id: 'ops-rota' }], []]);
    // The generic receiver gets the directory's record itself, as the engine parsed it.
    expect(json.map((r) => (r.payload['item'] as { record: { type: string } }).record.type).sort()).toEqual([
      'comment',
      'post',
    ]);
    expect(fakes.json.fake.repeated()).toEqual([]);
    for (const fixture of fakes.all) expect(fixture.fake.problems, fixture.kind.platform).toEqual([]);
  });
});

describe('a feed from two variables', () => {
  it('posts to a Teams, a Mattermost, a Slack and a Discord webhook given only SUBSCRIPTIONS and the URL', async () => {
    const temp = mkdtempSync(join(tmpdir(), 'directory-bot-webhooks-'));
    cleanup.add(() => rmSync(temp, { recursive: true, force: true }));
    const urls = {
      TEAMS: fakes.teams.create().url,
      MM: fakes.mattermost.create().url,
      SLACK: fakes.slack.create().url,
      DISCORD: fakes.discord.create().url,
    };
    const before = {
      teams: fakes.teams.fake.posts.length,
      mm: fakes.mattermost.fake.posts.length,
      slack: fakes.slack.fake.posts.length,
      discord: fakes.discord.fake.messages.size,
    };
    const bot = spawnBot(['start'], {
      DIRECTORY_BASE_URL: world.emulator.url,
      DIRECTORY_TOKEN: 'dev-token',
      STORE_URL: `sqlite://${join(temp, 'bot.sqlite')}`,
      PORT: String(await freePort()),
      POLL_MIN_INTERVAL_S: '1',
      LOG_LEVEL: 'debug',
      SUBSCRIPTIONS:
        'webhook:teams=comments;webhook:mm=comments;webhook:slack=comments;webhook:discord=comments',
      WEBHOOK_TEAMS_URL: urls.TEAMS,
      WEBHOOK_MM_URL: urls.MM,
      WEBHOOK_SLACK_URL: urls.SLACK,
      WEBHOOK_DISCORD_URL: urls.DISCORD,
    });
    cleanup.add(() => bot.stop('SIGTERM'));
    // The first poll of the comments feed sets where it starts; a comment after it is new.
    await bot.waitFor(/"feed":"comments".*"msg":"polled feed"/, 30_000);
    world.emulator.admin.addComment({ body: 'Two variables were enough' });
    await eventually(
      () =>
        fakes.teams.fake.posts.length === before.teams + 1 &&
        fakes.mattermost.fake.posts.length === before.mm + 1 &&
        fakes.slack.fake.posts.length === before.slack + 1 &&
        fakes.discord.fake.messages.size === before.discord + 1,
      30_000,
      'the comment in all four webhooks',
      100,
    );
    expect(JSON.stringify(fakes.teams.fake.posts.at(-1)?.card)).toContain('Two variables were enough');
    const exit = await bot.stop('SIGTERM');
    expect(exit.code).toBe(0);
    // The URLs are secrets: no log line holds one.
    for (const url of Object.values(urls)) expect(bot.output()).not.toContain(new URL(url).pathname);
  });
});
