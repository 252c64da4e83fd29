import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { createManualClock } from '../../src/emulator/index.js';
import { COMMENT_CHECK_EVERY_POLLS } from '../../src/feeds/comment-check.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { EDIT_MIN_INTERVAL_MS, waitUntil } from '../support/edits-bot.js';
import { startInstance, startWorld } from '../support/engine-harness.js';
import { silentLogger } from '../support/pipeline-harness.js';

const clock = createManualClock(Date.parse('2026-11-23T12:00:00Z'));
const world = await startWorld({ clock });
afterAll(() => world.close());
const { admin } = world.emulator;
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

const TOKEN = 'xoxb-removal';
const [DELETING, MARKING] = ['C0DELETES', 'C0MARKS1'];

/**
 * The engine with edits on, the real Slack adapter and a fake Slack on the emulator's manual clock:
 * comments go to #DELETING (`--on-removal delete`) and #MARKING (the default, mark).
 */
async function slackBot(namespace: string) {
  const slack = await new FakeSlackApi({ now: () => clock.now(), burst: 10 }).start();
  closing.push(() => slack.close());
  slack.addToken(TOKEN, 'T0REMOVAL');
  const adapter = createSlackAdapter({
    botToken: TOKEN,
    signingSecret: 'secret',
    apiUrl: slack.apiUrl,
    logger: silentLogger(),
  });
  const bot = await startInstance({
    emulator: world.emulator,
    storeUrl: world.sqliteUrl(),
    namespace,
    clock,
    adapters: [adapter],
    settings: { edits: { maxAgeMs: 24 * 3_600_000, minIntervalMs: EDIT_MIN_INTERVAL_MS } },
  });
  closing.unshift(() => bot.close());
  for (const [channelId, onRemoval] of [
    [DELETING, 'delete'],
    [MARKING, undefined],
  ] as const) {
    slack.addChannel(channelId);
    await bot.engine.subscriptions.add({
      platform: 'slack',
      channelId,
      feed: 'comments',
      filters: {},
      createdBy: 't',
      ...(onRemoval ? { onRemoval } : {}),
    });
  }
  await bot.engine.pollAllOnce();
  bot.engine.dispatcher.start();
  const pollAndSend = async (times = 1) => {
    for (let i = 0; i < times; i += 1) {
      clock.advance(60_000);
      await bot.engine.pollAllOnce();
      bot.engine.dispatcher.wake();
      await waitUntil(() => bot.engine.outbox.heads().every((e) => e.notBefore > clock.now()));
    }
  };
  const calls = (method: string, channel: string) =>
    slack.callsTo(method).filter((c) => c.params['channel'] === channel && c.response['ok']);
  return { slack, bot, pollAndSend, calls };
}

describe('--on-removal delete', () => {
  it('deletes the removed comment’s message where asked, marks it elsewhere, and never touches it again', async () => {
    const { slack, pollAndSend, calls } = await slackBot('removal-delete');
    const doomed = admin.addComment({ body: 'Soon gone' });
    await pollAndSend();
    const [posted] = calls('chat.postMessage', DELETING);
    const ts = String(posted?.response['ts']);

    admin.removeComment(doomed.id as number);
    await pollAndSend(COMMENT_CHECK_EVERY_POLLS);
    expect(calls('chat.delete', DELETING).map((c) => c.params['ts'])).toEqual([ts]);
    expect(slack.updates.message(DELETING, ts)).toBeUndefined();
    expect(calls('chat.update', DELETING)).toEqual([]);
    const [marked] = calls('chat.update', MARKING);
    expect(JSON.stringify(marked?.params['blocks'])).toContain('Removed from the directory');

    // Later checks find it missing still: the ledger says it is deleted, so nothing more is sent.
    await pollAndSend(COMMENT_CHECK_EVERY_POLLS * 2);
    expect(slack.callsTo('chat.delete')).toHaveLength(1);
    expect(calls('chat.update', DELETING)).toEqual([]);
    expect(slack.violations).toEqual([]);
  });

  it('marks the message instead when Slack refuses the delete, and says why on the subscription', async () => {
    const { slack, bot, pollAndSend, calls } = await slackBot('removal-delete-refused');
    const doomed = admin.addComment({ body: 'Soon gone, refused' });
    await pollAndSend();
    const ts = String(calls('chat.postMessage', DELETING)[0]?.response['ts']);

    slack.refuseNext('chat.delete', 'cant_delete_message');
    admin.removeComment(doomed.id as number);
    await pollAndSend(COMMENT_CHECK_EVERY_POLLS);
    expect(slack.updates.message(DELETING, ts)).toBeDefined();
    const [marked] = calls('chat.update', DELETING);
    expect(marked?.params['ts']).toBe(ts);
    expect(JSON.stringify(marked?.params['blocks'])).toContain('Removed from the directory');
    const [subscription] = await bot.engine.subscriptions.forChannel('slack', DELETING);
    expect(subscription?.removalProblem?.reason).toContain('cant_delete_message');
  });
});
