import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapterEvent } from '../../../adapters/slack/index.js';
import type { ChatAdapter, Message } from '../../../src/ports/index.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { FakeCommandHandler } from '../../support/fake-command-handler.js';
import { createMemoryStore } from '../../support/memory-store.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';
import { slackScript } from '../../support/slack-command-script.js';
import { createOAuthSlackAdapter, createTestSealer, storeInstallations } from '../../support/slack-oauth.js';

const TOKEN = 'xoxb-test';
const KEY = { idempotencyKey: 'k1' };
const message: Message = {
  kind: 'post',
  title: 'A new post <!channel>',
  url: 'https://directory.example/posts/1',
  text: 'Hello <@U123ABC>',
  fallback: 'A new post',
};

describe('Slack delivery', () => {
  let now = 1_700_000_000_000;
  let slack: FakeSlackApi;
  let events: SlackAdapterEvent[];

  beforeEach(async () => {
    now = 1_700_000_000_000;
    slack = await new FakeSlackApi({ now: () => now }).start();
    slack.addToken(TOKEN, 'T1');
    slack.addChannel('C1');
    events = [];
  });
  afterEach(async () => {
    await slack.close();
  });

  function adapter() {
    return createSlackAdapter({
      botToken: TOKEN,
      signingSecret: 'secret',
      apiUrl: slack.apiUrl,
      logger: createCapturingLogger(),
      onEvent: (e) => events.push(e),
    });
  }

  it('posts the rendered message with unfurls off and reports the message ts', async () => {
    const outcome = await adapter().deliver({ platform: 'slack', channelId: 'C1' }, message, KEY);
    expect(outcome).toMatchObject({ status: 'delivered', platformMessageId: expect.any(String) });
    const [call] = slack.callsTo('chat.postMessage');
    expect(call?.token).toBe(TOKEN);
    expect(call?.params).toMatchObject({ channel: 'C1', unfurl_links: 'false', unfurl_media: 'false' });
    expect(call?.params['link_names']).toBeUndefined();
    expect(JSON.stringify(call?.params)).not.toContain('<!channel>');
    expect(slack.violations).toEqual([]);
    expect(events).toContainEqual({ type: 'delivered', channelId: 'C1' });
  });

  it('reports the thread a reply went into, so a link to it opens it there', async () => {
    const bot = adapter();
    const parent = await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY);
    if (parent.status !== 'delivered' || parent.platformMessageId === undefined)
      throw new Error('not posted');
    expect(parent).not.toHaveProperty('threadId');
    now += 1000; // Slack's one message a second per channel
    const reply = await bot.deliver(
      { platform: 'slack', channelId: 'C1', thread: { parentMessageId: parent.platformMessageId } },
      message,
      { idempotencyKey: 'k2' },
    );
    expect(reply).toMatchObject({ status: 'delivered', threadId: parent.platformMessageId });
    expect(slack.callsTo('chat.postMessage')[1]?.params['thread_ts']).toBe(parent.platformMessageId);
    expect(slack.violations).toEqual([]);
  });

  it('turns a 429 into a transient failure with Retry-After and does not retry it itself', async () => {
    const bot = adapter();
    expect((await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY)).status).toBe(
      'delivered',
    );
    const limited = await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY);
    expect(limited).toEqual({
      status: 'failed',
      code: 'rate_limited',
      reason: 'Slack answered 429',
      retryAfterMs: 1000,
    });
    expect(slack.callsTo('chat.postMessage')).toHaveLength(2);
    expect(events).toContainEqual({ type: 'rate_limited', method: 'chat.postMessage', retryAfterMs: 1000 });
    now += 1000;
    expect((await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY)).status).toBe(
      'delivered',
    );
  });

  it('reports a Retry-After storm with the seconds Slack asked for', async () => {
    slack.failNext('chat.postMessage', 429, 3, 7);
    const bot = adapter();
    for (let i = 0; i < 3; i += 1) {
      expect(await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY)).toMatchObject({
        status: 'failed',
        retryAfterMs: 7000,
      });
    }
    expect((await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY)).status).toBe(
      'delivered',
    );
  });

  it('rejects posts to an archived channel and to a deleted one', async () => {
    const bot = adapter();
    slack.addChannel('C2');
    slack.archiveChannel('C1');
    slack.deleteChannel('C2');
    expect(await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY)).toMatchObject({
      status: 'rejected',
      code: 'is_archived',
      scope: 'destination',
    });
    expect(await bot.deliver({ platform: 'slack', channelId: 'C2' }, message, KEY)).toMatchObject({
      status: 'rejected',
      code: 'channel_not_found',
      scope: 'destination',
    });
    expect(events).toContainEqual({
      type: 'rejected',
      channelId: 'C1',
      code: 'is_archived',
      scope: 'destination',
    });
  });

  it.each([
    'invalid_blocks',
    'invalid_blocks_format',
    'msg_too_long',
    'invalid_arguments',
    'no_text',
    'too_many_attachments',
  ])(
    'drops only the message when Slack refuses its payload with %s, and the channel keeps taking posts',
    async (code) => {
      slack.refuseNext('chat.postMessage', code);
      const bot = adapter();
      expect(await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY)).toEqual({
        status: 'rejected',
        code,
        reason: `Slack refused this message: ${code}`,
        scope: 'message',
      });
      expect(events).toContainEqual({ type: 'rejected', channelId: 'C1', code, scope: 'message' });
      expect((await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY)).status).toBe(
        'delivered',
      );
      // Refused once, not retried by the client.
      expect(slack.callsTo('chat.postMessage')).toHaveLength(2);
    },
  );

  it('keeps an unknown Slack error transient rather than dropping the message or pausing the channel', async () => {
    slack.refuseNext('chat.postMessage', 'some_new_error');
    expect(await adapter().deliver({ platform: 'slack', channelId: 'C1' }, message, KEY)).toMatchObject({
      status: 'failed',
      code: 'some_new_error',
    });
  });

  it('joins a public channel once on not_in_channel and retries the post once', async () => {
    slack.addChannel('C3', { requiresMembership: true });
    const outcome = await adapter().deliver({ platform: 'slack', channelId: 'C3' }, message, KEY);
    expect(outcome.status).toBe('delivered');
    expect(slack.calls.map((c) => `${c.method}:${String(c.response['ok'])}`)).toEqual([
      'chat.postMessage:false',
      'conversations.join:true',
      'chat.postMessage:true',
    ]);
    expect(events.map((e) => e.type)).toEqual(['joined', 'retry', 'delivered']);
  });

  it('rejects not_in_channel when the join fails, without posting again', async () => {
    slack.addChannel('G1', { isPrivate: true });
    const outcome = await adapter().deliver({ platform: 'slack', channelId: 'G1' }, message, KEY);
    expect(outcome).toMatchObject({ status: 'rejected', code: 'not_in_channel', scope: 'destination' });
    expect(slack.callsTo('chat.postMessage')).toHaveLength(1);
    expect(slack.callsTo('conversations.join')).toHaveLength(1);
  });

  it('treats a Slack 5xx as transient and leaves the retry to the outbox', async () => {
    slack.failNext('chat.postMessage', 503);
    const outcome = await adapter().deliver({ platform: 'slack', channelId: 'C1' }, message, KEY);
    expect(outcome).toMatchObject({ status: 'failed', code: 'http_503' });
    expect(slack.callsTo('chat.postMessage')).toHaveLength(1);
  });

  describe('when Slack refuses the bot token', () => {
    let server: MountServer;
    beforeEach(async () => {
      server = await startMountServer();
    });
    afterEach(async () => {
      await server.close();
    });

    async function started(bot: ChatAdapter): Promise<ChatAdapter> {
      await bot.start({
        http: server.http,
        commands: new FakeCommandHandler(slackScript),
        logger: createCapturingLogger(),
      });
      return bot;
    }

    it('fails transiently instead of pausing the channel, is not ready until a post goes through again', async () => {
      const bot = await started(adapter());
      expect(bot.health()).toEqual({ ready: true });
      slack.revokeToken(TOKEN);
      expect(await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY)).toEqual({
        status: 'failed',
        code: 'token_revoked',
        reason: 'Slack rejected the bot token (token_revoked)',
      });
      expect(bot.health()).toEqual({ ready: false, reason: 'Slack rejected the bot token (token_revoked)' });
      slack.restoreToken(TOKEN);
      expect((await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY)).status).toBe(
        'delivered',
      );
      expect(bot.health()).toEqual({ ready: true });
      await bot.stop();
    });

    it.each(['invalid_auth', 'not_authed', 'account_inactive', 'token_expired'])(
      'treats %s as the bot’s problem, not the channel’s',
      async (code) => {
        const bot = await started(adapter());
        slack.refuseNext('chat.postMessage', code);
        expect(await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY)).toMatchObject({
          status: 'failed',
          code,
        });
        expect(bot.health()).toEqual({ ready: false, reason: `Slack rejected the bot token (${code})` });
        await bot.stop();
      },
    );

    it('does not give up on a channel when the join after not_in_channel meets a refused token', async () => {
      slack.addChannel('C3', { requiresMembership: true });
      slack.refuseNext('conversations.join', 'invalid_auth');
      const bot = await started(adapter());
      expect(await bot.deliver({ platform: 'slack', channelId: 'C3' }, message, KEY)).toMatchObject({
        status: 'failed',
        code: 'invalid_auth',
      });
      expect(bot.health().ready).toBe(false);
      await bot.stop();
    });

    it('with OAuth, rejects only the channels of a workspace whose token was revoked, and stays ready', async () => {
      const store = createMemoryStore();
      await storeInstallations(slack, store, { T2: 'xoxb-two', T3: 'xoxb-three' });
      const bot = await started(createOAuthSlackAdapter(slack.apiUrl, store, createTestSealer()));
      slack.revokeToken('xoxb-two');
      expect(
        await bot.deliver({ platform: 'slack', channelId: 'C1', workspaceId: 'T2' }, message, KEY),
      ).toMatchObject({ status: 'rejected', code: 'token_revoked', scope: 'destination' });
      slack.refuseNext('chat.postMessage', 'account_inactive');
      expect(
        await bot.deliver({ platform: 'slack', channelId: 'C1', workspaceId: 'T3' }, message, KEY),
      ).toMatchObject({ status: 'rejected', code: 'account_inactive', scope: 'destination' });
      // Another kind of token trouble in one workspace is transient, and never the whole bot's.
      slack.refuseNext('chat.postMessage', 'invalid_auth');
      expect(
        await bot.deliver({ platform: 'slack', channelId: 'C1', workspaceId: 'T3' }, message, KEY),
      ).toMatchObject({ status: 'failed', code: 'invalid_auth' });
      expect(bot.health()).toEqual({ ready: true });
      await bot.stop();
    });
  });

  it('fails transiently when Slack cannot be reached', async () => {
    const url = slack.apiUrl;
    await slack.close();
    const bot = createSlackAdapter({
      botToken: TOKEN,
      signingSecret: 'secret',
      apiUrl: url,
      logger: createCapturingLogger(),
    });
    expect(await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY)).toMatchObject({
      status: 'failed',
      code: 'network',
    });
    slack = await new FakeSlackApi().start();
  });

  it('uses the bot token of the destination workspace when installed through OAuth', async () => {
    const store = createMemoryStore();
    slack.addToken('xoxb-team2', 'T2');
    await store.set('slack:installation:team:T2', {
      team: { id: 'T2', name: 'Two' },
      enterprise: undefined,
      isEnterpriseInstall: false,
      bot: { token: 'xoxb-team2', scopes: ['chat:write'], id: 'B2', userId: 'U2' },
    });
    const bot = createOAuthSlackAdapter(slack.apiUrl, store, createTestSealer());
    expect(
      (await bot.deliver({ platform: 'slack', channelId: 'C1', workspaceId: 'T2' }, message, KEY)).status,
    ).toBe('delivered');
    expect(slack.callsTo('chat.postMessage')[0]?.token).toBe('xoxb-team2');
    // Written in plain text (as before encryption): sealed once read.
    expect(JSON.stringify(store.data.get('slack:installation:team:T2'))).toMatch(/"token":"v1:/);
    expect(JSON.stringify(store.data.get('slack:installation:team:T2'))).not.toContain('xoxb-team2');
    expect(
      await bot.deliver({ platform: 'slack', channelId: 'C1', workspaceId: 'T9' }, message, KEY),
    ).toMatchObject({
      status: 'rejected',
      code: 'not_installed',
    });
  });

  it('paces to one message per second per channel with a short burst, and each workspace on its own', () => {
    expect(adapter().pacing).toEqual({
      perDestination: { ratePerSecond: 1, burst: 3 },
      perWorkspace: { ratePerSecond: 4, burst: 20 },
    });
  });

  it('paces each workspace to SLACK_WORKSPACE_MESSAGES_PER_MINUTE, with five seconds of burst', () => {
    const faster = createSlackAdapter({
      botToken: TOKEN,
      signingSecret: 'secret',
      apiUrl: slack.apiUrl,
      logger: createCapturingLogger(),
      workspaceMessagesPerMinute: 600,
    });
    expect(faster.pacing.perWorkspace).toEqual({ ratePerSecond: 10, burst: 50 });
  });

  describe('direct messages (reminders)', () => {
    const dm = { platform: 'slack', channelId: 'U0ALICE', direct: true } as const;

    it('opens the DM with conversations.open and posts the card into it', async () => {
      const outcome = await adapter().deliverDirect?.(dm, message, KEY);
      expect(outcome).toMatchObject({ status: 'delivered' });
      const [open] = slack.callsTo('conversations.open');
      expect(open?.params).toMatchObject({ users: 'U0ALICE' });
      expect(open?.token).toBe(TOKEN);
      const [post] = slack.callsTo('chat.postMessage');
      expect(post?.params['channel']).toBe(slack.dms.opened.get('T1:U0ALICE'));
      expect(JSON.stringify(post?.params)).not.toContain('<!channel>');
      expect(slack.violations).toEqual([]);
    });

    it('drops the DM of a person Slack does not know, and without im:write, never retrying', async () => {
      slack.dms.unknownUsers.add('U0ALICE');
      expect(await adapter().deliverDirect?.(dm, message, KEY)).toMatchObject({
        status: 'rejected',
        code: 'user_not_found',
        scope: 'message',
      });
      slack.dms.unknownUsers.clear();
      slack.dms.missingScope = true;
      expect(await adapter().deliverDirect?.(dm, message, KEY)).toMatchObject({
        status: 'rejected',
        code: 'missing_scope',
        scope: 'message',
      });
      expect(slack.callsTo('chat.postMessage')).toEqual([]);
    });
  });
});
