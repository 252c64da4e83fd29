import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { findButton, postBlockAction } from '../fakes/slack/block-actions.js';
import { FakeSlackApi, type RecordedCall } from '../fakes/slack/fake-slack-api.js';
import { startWorld } from '../support/engine-harness.js';
import { Cleanup, pollAndDeliver, silentLogger, startPipeline } from '../support/pipeline-harness.js';

const TOKEN = 'xoxb-e2e-buttons';
const TEAM = 'T0BUTTONS';
const SIGNING_SECRET = 'e2e-buttons-signing-secret';
const CHANNEL = 'C0BUTTONS';

const world = await startWorld();
afterAll(() => world.close());
const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/** Emulator → engine → outbox → the real Slack adapter → a fake Slack, and clicks coming back. */
async function slackBot() {
  const logger = silentLogger();
  const slack = await new FakeSlackApi({ burst: 3 }).start();
  cleanup.add(() => slack.close());
  slack.addToken(TOKEN, TEAM);
  slack.addChannel(CHANNEL);
  slack.addUser('U0ADMIN', { is_admin: true });
  const adapter = createSlackAdapter({
    botToken: TOKEN,
    signingSecret: SIGNING_SECRET,
    apiUrl: slack.apiUrl,
    logger,
  });
  const { bot, url } = await startPipeline(world, cleanup, adapter, { namespace: 'e2e-buttons', logger });

  return {
    slack,
    bot,
    pollAndDeliver: () => pollAndDeliver(bot),
    posted(): RecordedCall[] {
      return slack
        .callsTo('chat.postMessage')
        .filter((c) => c.params['channel'] === CHANNEL && c.response['ok']);
    },
    /** A workspace admin presses `label` on a message the channel received; resolves with the answer. */
    async press(call: RecordedCall, label: string) {
      const responseUrl = slack.responseUrl();
      const res = await postBlockAction(url, SIGNING_SECRET, {
        button: findButton(call.params['blocks'], label),
        userId: 'U0ADMIN',
        channelId: CHANNEL,
        teamId: TEAM,
        responseUrl,
      });
      expect(res.status).toBe(200);
      return slack.waitForResponse((r) => responseUrl.endsWith(r.path));
    },
  };
}

describe('Slack buttons end to end: a delivered message → a click → the channel changes', () => {
  it('Follow comments on a delivered post brings that post’s comments; Mute on one of them stops them', async () => {
    const e2e = await slackBot();
    await e2e.bot.engine.subscriptions.add({
      platform: 'slack',
      channelId: CHANNEL,
      workspaceId: TEAM,
      feed: 'posts',
      filters: {},
      createdBy: 'e2e',
    });
    await e2e.bot.engine.pollAllOnce(); // seeds the cursors: history is never posted

    const post = world.emulator.admin.addPost({ name: 'Buttons end to end' });
    await e2e.pollAndDeliver();
    const [card] = e2e.posted();
    expect(JSON.stringify(card?.params['blocks'])).toContain('Buttons end to end');
    if (card === undefined) throw new Error('the post was not delivered');

    const followed = await e2e.press(card, 'Follow comments');
    expect(String(followed.body['text'])).toMatch(/^Subscribed this channel to comments/);
    await e2e.bot.engine.pollAllOnce(); // the comments feed is new: its first poll seeds its cursor

    world.emulator.admin.addComment({ postId: post.id, body: 'On the followed post' });
    world.emulator.admin.addComment({ body: 'On some other post' });
    await e2e.pollAndDeliver();
    const comments = e2e.posted().slice(1);
    expect(comments.map((c) => c.params['text'])).toEqual([expect.stringContaining('On the followed post')]);
    const comment = comments[0];
    if (comment === undefined) throw new Error('the comment was not delivered');

    // Mute names the subscription that delivered the comment: the comments one, not the posts one.
    const muted = await e2e.press(comment, 'Mute this subscription');
    expect(String(muted.body['text'])).toMatch(/^Paused s[0-9a-f]+: comments/);
    world.emulator.admin.addComment({ postId: post.id, body: 'After the mute' });
    await e2e.pollAndDeliver();
    expect(e2e.posted().map((c) => String(c.params['text']))).not.toContainEqual(
      expect.stringContaining('After the mute'),
    );
    const subscriptions = await e2e.bot.engine.subscriptions.list();
    expect(subscriptions.map((s) => [s.feed, s.paused === undefined ? 'active' : 'paused'])).toEqual([
      ['posts', 'active'],
      ['comments', 'paused'],
    ]);
    expect(e2e.slack.violations).toEqual([]);
  });
});
