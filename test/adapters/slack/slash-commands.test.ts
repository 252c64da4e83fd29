import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapterEvent } from '../../../adapters/slack/index.js';
import type { ChatAdapter } from '../../../src/ports/index.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { signedHeaders } from '../../fakes/slack/signing.js';
import { newTriggerId } from '../../fakes/slack/trigger-id.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { FakeCommandHandler } from '../../support/fake-command-handler.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';
import { slackScript } from '../../support/slack-command-script.js';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const TOKEN = 'xoxb-test';

describe('Slack /directory over the HTTP receiver', () => {
  let slack: FakeSlackApi;
  let server: MountServer;
  let handler: FakeCommandHandler;
  let adapter: ChatAdapter;
  let events: SlackAdapterEvent[];

  beforeEach(async () => {
    slack = await new FakeSlackApi().start();
    slack.addToken(TOKEN, 'T1');
    slack.addChannel('C1');
    slack.addUser('U1');
    slack.addUser('UADMIN', { is_admin: true });
    slack.addUser('UOWNER', { is_owner: true });
    server = await startMountServer();
    handler = new FakeCommandHandler(slackScript);
    events = [];
    adapter = createSlackAdapter({
      botToken: TOKEN,
      signingSecret: SECRET,
      apiUrl: slack.apiUrl,
      logger: createCapturingLogger(),
      onEvent: (e) => events.push(e),
      // Long enough for a local users.info, short enough to keep the deferred test quick.
      ackBudgetMs: 300,
    });
    await adapter.start({ http: server.http, commands: handler, logger: createCapturingLogger() });
  });

  afterEach(async () => {
    handler.releaseSlow();
    await adapter.stop();
    await server.close();
    await slack.close();
  });

  function commandBody(text: string, userId = 'U1'): { body: string; responseUrl: string } {
    const responseUrl = slack.responseUrl();
    const body = new URLSearchParams({
      token: 'legacy',
      team_id: 'T1',
      team_domain: 'fake',
      channel_id: 'C1',
      channel_name: 'general',
      user_id: userId,
      user_name: 'alice',
      command: '/directory',
      text,
      api_app_id: 'A1',
      is_enterprise_install: 'false',
      response_url: responseUrl,
      trigger_id: newTriggerId(),
    }).toString();
    return { body, responseUrl };
  }

  async function post(body: string, headers: Record<string, string>): Promise<Response> {
    return fetch(`${server.url}/slack/events`, { method: 'POST', body, headers });
  }

  const nowSeconds = (): number => Math.floor(Date.now() / 1000);

  it('answers a validly signed command in the ack, ephemeral with a Share in channel button', async () => {
    const { body } = commandBody('post 1');
    const res = await post(body, signedHeaders(SECRET, body, nowSeconds()));
    expect(res.status).toBe(200);
    const reply = (await res.json()) as { response_type: string; blocks: unknown[]; text: string };
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toBe('Found 1 post');
    expect(JSON.stringify(reply.blocks)).toContain('Post one &lt;!here&gt;');
    expect(reply.blocks.at(-1)).toMatchObject({
      type: 'actions',
      elements: [{ action_id: 'directory_share', value: 'post 1' }],
    });
    expect(handler.invocations).toEqual([
      {
        platform: 'slack',
        channelId: 'C1',
        workspaceId: 'T1',
        actor: { userId: 'U1', displayName: 'alice', canManageChannel: false },
        text: 'post 1',
        // A slash command has a trigger_id: a command with a form may open it.
        canOpenForm: true,
      },
    ]);
    // Lookups need no users.info call.
    expect(slack.callsTo('users.info')).toEqual([]);
    expect(events).toContainEqual({ type: 'command', deferred: false, failed: false });
  });

  it('refuses a bad signature with 401 and never runs the command', async () => {
    const { body } = commandBody('post 1');
    const headers = signedHeaders('wrong-secret', body, nowSeconds());
    expect((await post(body, headers)).status).toBe(401);
    expect(handler.invocations).toEqual([]);
  });

  it('refuses a body tampered with after signing', async () => {
    const { body } = commandBody('post 1');
    const headers = signedHeaders(SECRET, body, nowSeconds());
    expect((await post(body.replace('post+1', 'post+2'), headers)).status).toBe(401);
    expect(handler.invocations).toEqual([]);
  });

  it('refuses a request without the signature headers', async () => {
    const { body } = commandBody('post 1');
    const res = await post(body, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(401);
    expect(handler.invocations).toEqual([]);
  });

  it('refuses a replayed request signed more than five minutes ago', async () => {
    const { body } = commandBody('post 1');
    const res = await post(body, signedHeaders(SECRET, body, nowSeconds() - 301));
    expect(res.status).toBe(401);
    expect(handler.invocations).toEqual([]);
  });

  it('acks a slow command with Working on it and answers through response_url', async () => {
    const { body, responseUrl } = commandBody('slow');
    const res = await post(body, signedHeaders(SECRET, body, nowSeconds()));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ response_type: 'ephemeral', text: 'Working on it…' });
    expect(slack.responses).toEqual([]);

    handler.releaseSlow();
    const answer = await slack.waitForResponse((r) => responseUrl.endsWith(r.path));
    expect(answer.body).toMatchObject({
      response_type: 'ephemeral',
      text: 'Slow answer',
      replace_original: true,
    });
    expect(JSON.stringify(answer.body['blocks'])).toContain('directory_share');
    expect(slack.violations).toEqual([]);
  });

  it('answers a failing command ephemerally with its usage', async () => {
    const { body } = commandBody('bad <!channel>');
    const res = await post(body, signedHeaders(SECRET, body, nowSeconds()));
    const reply = (await res.json()) as { response_type: string; blocks: unknown[]; text: string };
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toBe('Unknown command bad &lt;!channel&gt;');
    expect(JSON.stringify(reply.blocks)).toContain('/directory post &lt;id&gt;');
    expect(events).toContainEqual({ type: 'command', deferred: false, failed: true });
  });

  it('lets workspace admins and owners manage the channel, and caches the users.info answer', async () => {
    const texts: string[] = [];
    for (const user of ['UADMIN', 'UOWNER', 'U1', 'UADMIN']) {
      const { body } = commandBody('subscribe posts', user);
      const res = await post(body, signedHeaders(SECRET, body, nowSeconds()));
      texts.push(((await res.json()) as { text: string }).text);
    }
    expect(texts).toEqual([
      'canManageChannel=true',
      'canManageChannel=true',
      'canManageChannel=false',
      'canManageChannel=true',
    ]);
    expect(slack.callsTo('users.info').map((c) => c.params['user'])).toEqual(['UADMIN', 'UOWNER', 'U1']);
  });

  function actionBody(value: string, responseUrl: string): string {
    const payload = {
      type: 'block_actions',
      user: { id: 'U1', username: 'alice', name: 'alice', team_id: 'T1' },
      api_app_id: 'A1',
      token: 'legacy',
      container: { type: 'message', message_ts: '1.1', channel_id: 'C1', is_ephemeral: true },
      trigger_id: newTriggerId(),
      team: { id: 'T1', domain: 'fake' },
      channel: { id: 'C1', name: 'general' },
      response_url: responseUrl,
      actions: [
        {
          type: 'button',
          action_id: 'directory_share',
          block_id: 'b1',
          value,
          text: { type: 'plain_text', text: 'Share in channel' },
          action_ts: '1.2',
        },
      ],
    };
    return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  }

  it('re-runs the lookup and posts it in the channel when Share in channel is pressed', async () => {
    const responseUrl = slack.responseUrl();
    const body = actionBody('post 1', responseUrl);
    const res = await post(body, signedHeaders(SECRET, body, nowSeconds()));
    expect(res.status).toBe(200);
    const shared = await slack.waitForResponse((r) => r.body['response_type'] === 'in_channel');
    expect(shared.body).toMatchObject({ response_type: 'in_channel', replace_original: false });
    const blocks = JSON.stringify(shared.body['blocks']);
    expect(blocks).toContain('Shared by <@U1>');
    expect(blocks).not.toContain('directory_share');
    await slack.waitForResponse((r) => r.body['delete_original'] === true);
    expect(handler.invocations.map((i) => i.text)).toEqual(['post 1']);
    expect(slack.violations).toEqual([]);
  });

  it('never replays a channel-managing command from a share button', async () => {
    const responseUrl = slack.responseUrl();
    const body = actionBody('subscribe posts', responseUrl);
    await post(body, signedHeaders(SECRET, body, nowSeconds()));
    const answer = await slack.waitForResponse();
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', text: 'This result cannot be shared.' });
    expect(handler.invocations).toEqual([]);
  });

  it('leaves paths it does not own to a 404 and reports ready', async () => {
    expect((await fetch(`${server.url}/slack/install`)).status).toBe(404);
    expect((await fetch(`${server.url}/slack/nothing`, { method: 'POST' })).status).toBe(404);
    expect(adapter.health()).toEqual({ ready: true });
  });

  it('stops taking requests after stop()', async () => {
    await adapter.stop();
    const { body } = commandBody('post 1');
    expect((await post(body, signedHeaders(SECRET, body, nowSeconds()))).status).toBe(503);
    expect(adapter.health().ready).toBe(false);
    expect(handler.invocations).toEqual([]);
  });
});
