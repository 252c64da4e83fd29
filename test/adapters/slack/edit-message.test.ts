import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../../adapters/slack/index.js';
import { type ChatAdapter, DELETE_REFUSED, type Message } from '../../../src/ports/index.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';

const TOKEN = 'xoxb-test';
const C1 = { platform: 'slack', channelId: 'C1' };
const posted: Message = {
  kind: 'post',
  title: 'Widget',
  fallback: 'New post: Widget',
  fields: [{ name: 'Votes', value: '3' }],
};
const edited: Message = { ...posted, title: 'Widget <!channel>', fields: [{ name: 'Votes', value: '9' }] };

describe('Slack edits in place (chat.update) and deletes (chat.delete)', () => {
  let slack: FakeSlackApi;
  let bot: ChatAdapter;

  beforeEach(async () => {
    slack = await new FakeSlackApi({ now: () => 1_700_000_000_000 }).start();
    slack.addToken(TOKEN, 'T1');
    slack.addChannel('C1');
    bot = createSlackAdapter({
      botToken: TOKEN,
      signingSecret: 'secret',
      apiUrl: slack.apiUrl,
      logger: createCapturingLogger(),
    });
  });
  afterEach(() => slack.close());

  async function post(): Promise<string> {
    const outcome = await bot.deliver(C1, posted, { idempotencyKey: 'k' });
    if (outcome.status !== 'delivered' || outcome.platformMessageId === undefined)
      throw new Error('not posted');
    return outcome.platformMessageId;
  }

  it('replaces the posted message under its ts, escaped and within the spec', async () => {
    const ts = await post();
    expect(await bot.edit?.(C1, { messageId: ts }, edited)).toEqual({
      status: 'delivered',
      platformMessageId: ts,
    });
    const shown = slack.updates.message('C1', ts);
    expect(shown?.edits).toBe(1);
    expect(JSON.stringify(shown?.blocks)).toContain('9');
    expect(JSON.stringify(shown?.blocks)).not.toContain('<!channel>');
    expect(slack.callsTo('chat.postMessage')).toHaveLength(1);
    expect(slack.violations).toEqual([]);
  });

  it('drops an edit of a deleted or uneditable message for that message only', async () => {
    const ts = await post();
    slack.updates.forget('C1', ts);
    expect(await bot.edit?.(C1, { messageId: ts }, edited)).toMatchObject({
      status: 'rejected',
      code: 'message_not_found',
      scope: 'message',
    });
    slack.refuseNext('chat.update', 'cant_update_message');
    expect(await bot.edit?.(C1, { messageId: ts }, edited)).toMatchObject({
      status: 'rejected',
      code: 'cant_update_message',
      scope: 'message',
    });
  });

  it('reports a channel the bot lost as the channel’s, and a 429 as a wait', async () => {
    const ts = await post();
    slack.refuseNext('chat.update', 'channel_not_found');
    expect(await bot.edit?.(C1, { messageId: ts }, edited)).toMatchObject({
      status: 'rejected',
      scope: 'destination',
    });
    slack.failNext('chat.update', 429, 1, 3);
    expect(await bot.edit?.(C1, { messageId: ts }, edited)).toMatchObject({
      status: 'failed',
      retryAfterMs: 3000,
    });
  });

  it('deletes it under its ts within the spec, and counts one already gone as done', async () => {
    const ts = await post();
    expect(await bot.delete?.(C1, { messageId: ts })).toEqual({ status: 'delivered', platformMessageId: ts });
    expect(slack.updates.deleted).toEqual([`C1 ${ts}`]);
    expect(slack.updates.message('C1', ts)).toBeUndefined();
    // message_not_found: someone deleted it first, nothing is left to do.
    expect(await bot.delete?.(C1, { messageId: ts })).toMatchObject({ status: 'delivered' });
    expect(slack.callsTo('chat.delete')).toHaveLength(2);
    expect(slack.violations).toEqual([]);
  });

  it('reports a refusal (cant_delete_message) as DELETE_REFUSED for that message only', async () => {
    const ts = await post();
    slack.refuseNext('chat.delete', 'cant_delete_message');
    expect(await bot.delete?.(C1, { messageId: ts })).toMatchObject({
      status: 'rejected',
      code: DELETE_REFUSED,
      scope: 'message',
    });
    expect(slack.updates.message('C1', ts)).toBeDefined();
  });

  it('reports a channel the bot lost as the channel’s, and a 429 as a wait', async () => {
    const ts = await post();
    slack.refuseNext('chat.delete', 'channel_not_found');
    expect(await bot.delete?.(C1, { messageId: ts })).toMatchObject({
      status: 'rejected',
      scope: 'destination',
    });
    slack.failNext('chat.delete', 429, 1, 3);
    expect(await bot.delete?.(C1, { messageId: ts })).toMatchObject({ status: 'failed', retryAfterMs: 3000 });
  });
});
