import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../../adapters/slack/index.js';
import type { ChatAdapter } from '../../../src/ports/index.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { FakeCommandHandler } from '../../support/fake-command-handler.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';
import { slackScript } from '../../support/slack-command-script.js';

describe('Slack Socket Mode', () => {
  let slack: FakeSlackApi;
  let server: MountServer;
  let adapter: ChatAdapter;
  let handler: FakeCommandHandler;

  beforeEach(async () => {
    slack = await new FakeSlackApi().start();
    slack.addToken('xoxb-test', 'T1');
    slack.enableSocketMode('xapp-test');
    server = await startMountServer();
    handler = new FakeCommandHandler(slackScript);
    adapter = createSlackAdapter({
      botToken: 'xoxb-test',
      signingSecret: 'unused-in-socket-mode',
      appToken: 'xapp-test',
      apiUrl: slack.apiUrl,
      logger: createCapturingLogger(),
    });
    await adapter.start({ http: server.http, commands: handler, logger: createCapturingLogger() });
  });

  afterEach(async () => {
    await adapter.stop();
    await server.close();
    await slack.close();
  });

  it('connects through apps.connections.open and answers /directory in the envelope ack', async () => {
    await slack.waitForSocket();
    expect(slack.callsTo('apps.connections.open')[0]?.token).toBe('xapp-test');
    const ack = await slack.sendEnvelope('slash_commands', {
      team_id: 'T1',
      channel_id: 'C1',
      user_id: 'U1',
      user_name: 'alice',
      command: '/directory',
      text: 'post 1',
      api_app_id: 'A1',
      response_url: slack.responseUrl(),
      trigger_id: '1',
    });
    expect(ack).toMatchObject({ response_type: 'ephemeral', text: 'Found 1 post' });
    expect(handler.invocations).toHaveLength(1);
    // No HTTP routes of ours in Socket Mode.
    expect((await fetch(`${server.url}/slack/events`, { method: 'POST' })).status).toBe(404);
  });
});

describe('Slack Socket Mode without a connection', () => {
  it('does not hang start() when Slack refuses the app token, and reports not ready', async () => {
    const slack = await new FakeSlackApi().start();
    slack.addToken('xoxb-test', 'T1');
    const server = await startMountServer();
    const adapter = createSlackAdapter({
      botToken: 'xoxb-test',
      signingSecret: 'unused',
      appToken: 'xapp-unknown',
      apiUrl: slack.apiUrl,
      logger: createCapturingLogger(),
      socketConnectTimeoutMs: 200,
    });
    try {
      await adapter.start({
        http: server.http,
        commands: new FakeCommandHandler(slackScript),
        logger: createCapturingLogger(),
      });
      expect(adapter.health()).toMatchObject({
        ready: false,
        reason: expect.stringContaining('Socket Mode'),
      });
      expect(slack.callsTo('apps.connections.open').length).toBeGreaterThan(0);
    } finally {
      await adapter.stop();
      await server.close();
      await slack.close();
    }
  });
});
