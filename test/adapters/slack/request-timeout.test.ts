import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../../adapters/slack/index.js';
import type { ChatAdapter, Message } from '../../../src/ports/index.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { postSlashCommand } from '../../fakes/slack/slash-command.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { FakeCommandHandler } from '../../support/fake-command-handler.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';
import { slackScript } from '../../support/slack-command-script.js';

const TOKEN = 'xoxb-test';
const SECRET = 'signing-secret';
const KEY = { idempotencyKey: 'k1' };
const message: Message = {
  kind: 'post',
  title: 'A new post',
  url: 'https://directory.example/posts/1',
  text: 'Hello',
  fallback: 'A new post',
};

describe('Slack Web API calls that never get an answer', () => {
  let slack: FakeSlackApi;
  let server: MountServer;
  let bot: ChatAdapter;

  beforeEach(async () => {
    slack = await new FakeSlackApi().start();
    slack.addToken(TOKEN, 'T1');
    slack.addChannel('C1');
    server = await startMountServer();
    // Production waits 10 s. Each hung call below costs this long, and every answered call must
    // come back within it even on a loaded machine: a second is ample for a call to 127.0.0.1.
    // Nothing is timed against it: the tests wait for the fake to see the client give up.
    bot = createSlackAdapter({
      botToken: TOKEN,
      signingSecret: SECRET,
      apiUrl: slack.apiUrl,
      logger: createCapturingLogger(),
      requestTimeoutMs: 1_000,
    });
  });
  afterEach(async () => {
    await bot.stop();
    await server.close();
    await slack.close();
  });

  it('gives up on a hung chat.postMessage as a transient failure, and the next post goes through', async () => {
    slack.hangNext('chat.postMessage');
    const outcome = bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY);
    // The fake holds the call unanswered until the adapter gives up on it and drops the connection.
    expect(await slack.gaveUpOn('chat.postMessage')).toBe(slack.callsTo('chat.postMessage')[0]);
    expect(await outcome).toEqual({
      status: 'failed',
      code: 'timeout',
      reason: 'Slack did not answer in time',
    });
    expect((await bot.deliver({ platform: 'slack', channelId: 'C1' }, message, KEY)).status).toBe(
      'delivered',
    );
  });

  it('gives up on a hung conversations.join after not_in_channel without pausing the channel', async () => {
    slack.addChannel('C2', { requiresMembership: true });
    slack.hangNext('conversations.join');
    const outcome = bot.deliver({ platform: 'slack', channelId: 'C2' }, message, KEY);
    // The post was answered not_in_channel, and the join it led to is the call given up on.
    await slack.gaveUpOn('conversations.join');
    expect(slack.callsTo('chat.postMessage').map((c) => c.response['error'])).toEqual(['not_in_channel']);
    expect(await outcome).toMatchObject({ status: 'failed', code: 'timeout' });
  });

  it('starts when the start-up auth.test hangs, and still answers a command afterwards', async () => {
    slack.hangNext('auth.test');
    const handler = new FakeCommandHandler(slackScript);
    await bot.start({ http: server.http, commands: handler, logger: createCapturingLogger() });
    await slack.gaveUpOn('auth.test');
    expect(bot.health()).toEqual({ ready: true });

    const res = await postSlashCommand(server.url, SECRET, {
      text: 'help',
      responseUrl: slack.responseUrl(),
    });
    expect(res.status).toBe(200);
    expect(handler.invocations.map((i) => i.text)).toEqual(['help']);
    // Only the hung start-up check: a command never waits on an auth.test of its own.
    expect(slack.callsTo('auth.test').map((c) => c.hung ?? false)).toEqual([true]);
  });
});
