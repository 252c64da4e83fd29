import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { startWorld } from '../support/engine-harness.js';
import { botInstallationStore, Cleanup, pollAndDeliver, startPipeline } from '../support/pipeline-harness.js';
import { completeOAuthInstall, createOAuthSlackAdapter, createTestSealer } from '../support/slack-oauth.js';

const TEAM = 'T0ROT';
const HOUR = 60 * 60_000;

const world = await startWorld();
afterAll(() => world.close());
const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/**
 * Emulator → engine → outbox → the OAuth Slack adapter → a fake Slack with token rotation, the
 * workspace installed through /slack/install; the adapter and the fake share a clock.
 */
async function rotatingBot(channelId: string) {
  const clock = { now: Date.now() };
  const slack = await new FakeSlackApi({ now: () => clock.now, tokenRotation: true, burst: 3 }).start();
  cleanup.add(() => slack.close());
  slack.oauthGrants.set('code-1', { teamId: TEAM, teamName: 'Rotating', botToken: 'xoxb-rot', userId: 'U1' });
  // The installs live in the bot's own store, which exists once the instance has started.
  const installs = botInstallationStore();
  const adapter = createOAuthSlackAdapter(slack.apiUrl, installs, createTestSealer(), 'secret', {
    now: () => clock.now,
  });
  const { bot, url } = await startPipeline(world, cleanup, adapter, {
    namespace: `e2e-rotation-${clock.now}`,
    installs,
  });
  expect((await completeOAuthInstall(url)).status).toBe(200);
  slack.addChannel(channelId);
  await bot.engine.subscriptions.add({
    platform: 'slack',
    channelId,
    workspaceId: TEAM,
    feed: 'comments',
    filters: {},
    createdBy: 'e2e',
  });
  await bot.engine.pollAllOnce(); // seeds the cursor: history is never posted
  return {
    slack,
    bot,
    clock,
    /** New comments in the directory, polled and delivered to the end. */
    async deliverNew(...bodies: string[]) {
      for (const body of bodies) world.emulator.admin.addComment({ body });
      await pollAndDeliver(bot);
    },
  };
}

describe('Slack token rotation end to end: emulator → engine → outbox → fake Slack', () => {
  it('delivers new comments after the access token expired, each post with the refreshed token', async () => {
    const { slack, clock, deliverNew } = await rotatingBot('C0ROT');
    const installed = slack.callsTo('oauth.v2.access')[0]?.response['access_token'];

    clock.now += 13 * HOUR;
    await deliverNew('after twelve hours', 'and another');

    const posts = slack.callsTo('chat.postMessage');
    expect(posts.map((c) => c.response['ok'])).toEqual([true, true]);
    expect(slack.refreshCalls()).toHaveLength(1);
    const refreshed = slack.refreshCalls()[0]?.response['access_token'];
    expect(posts.map((c) => c.token)).toEqual([refreshed, refreshed]);
    expect(posts.map((c) => c.token)).not.toContain(installed);
  });

  it('a refused refresh token pauses the workspace channel instead of losing it silently', async () => {
    const { slack, bot, clock, deliverNew } = await rotatingBot('C0DEAD');
    slack.revokeRefreshTokens(TEAM);
    clock.now += 13 * HOUR;
    await deliverNew('nobody can post this');

    expect(slack.callsTo('chat.postMessage')).toEqual([]);
    const [subscription] = await bot.engine.subscriptions.forChannel('slack', 'C0DEAD');
    expect(subscription?.paused).toMatchObject({ code: 'invalid_refresh_token' });
  });
});
