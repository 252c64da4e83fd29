import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatAdapter } from '../../../src/ports/index.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { postSlashCommand } from '../../fakes/slack/slash-command.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { FakeCommandHandler } from '../../support/fake-command-handler.js';
import { createMemoryStore } from '../../support/memory-store.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';
import { slackScript } from '../../support/slack-command-script.js';
import { createOAuthSlackAdapter, createTestSealer } from '../../support/slack-oauth.js';

const SECRET = 'signing-secret';

describe('Slack multi-workspace install', () => {
  let slack: FakeSlackApi;
  let server: MountServer;
  let adapter: ChatAdapter;
  let handler: FakeCommandHandler;
  const store = createMemoryStore();
  const sealer = createTestSealer();

  beforeEach(async () => {
    store.data.clear();
    slack = await new FakeSlackApi().start();
    slack.addChannel('C1');
    slack.oauthGrants.set('code-1', {
      teamId: 'T2',
      teamName: 'Team Two',
      botToken: 'xoxb-two',
      userId: 'UINSTALLER',
    });
    server = await startMountServer();
    handler = new FakeCommandHandler(slackScript);
    adapter = createOAuthSlackAdapter(slack.apiUrl, store, sealer, SECRET);
    await adapter.start({ http: server.http, commands: handler, logger: createCapturingLogger() });
  });

  afterEach(async () => {
    await adapter.stop();
    await server.close();
    await slack.close();
  });

  async function install(): Promise<Response> {
    const start = await fetch(`${server.url}/slack/install`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    const location = new URL(start.headers.get('location') ?? '');
    expect(location.origin + location.pathname).toBe('https://slack.com/oauth/v2/authorize');
    expect(location.searchParams.get('client_id')).toBe('client-id');
    expect(location.searchParams.get('scope')?.split(',').sort()).toEqual(
      [
        'channels:join',
        'chat:write',
        'chat:write.public',
        'commands',
        'users:read',
        'links:read',
        'links:write',
        'im:write',
      ].sort(),
    );
    const state = location.searchParams.get('state') ?? '';
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    return fetch(`${server.url}/slack/oauth_redirect?code=code-1&state=${encodeURIComponent(state)}`, {
      headers: { cookie },
      redirect: 'manual',
    });
  }

  it('installs through /slack/install and /slack/oauth_redirect and keeps the install in the store, its token sealed', async () => {
    const done = await install();
    expect(done.status).toBe(200);
    expect(slack.callsTo('oauth.v2.access')).toHaveLength(1);
    const saved = store.data.get('slack:installation:team:T2') as
      | { team?: { id?: string }; bot?: { token?: string } }
      | undefined;
    expect(saved?.team?.id).toBe('T2');
    expect(saved?.bot?.token).toMatch(new RegExp(`^v1:${sealer.keyId}:`));
    expect(JSON.stringify(saved)).not.toContain('xoxb-two');
    expect(sealer.open(saved?.bot?.token ?? '').plaintext).toBe('xoxb-two');
  });

  it('delivers to an installed workspace with its own token', async () => {
    await install();
    const outcome = await adapter.deliver(
      { platform: 'slack', channelId: 'C1', workspaceId: 'T2' },
      { kind: 'info', title: 'Hello', fallback: 'Hello' },
      { idempotencyKey: 'k' },
    );
    expect(outcome.status).toBe('delivered');
    expect(slack.callsTo('chat.postMessage')[0]?.token).toBe('xoxb-two');
  });

  it('refuses a redirect whose state was not issued by us', async () => {
    const res = await fetch(`${server.url}/slack/oauth_redirect?code=code-1&state=forged`, {
      redirect: 'manual',
    });
    expect(res.status).not.toBe(200);
    expect(slack.callsTo('oauth.v2.access')).toHaveLength(0);
    expect(store.data.size).toBe(0);
  });

  it('answers commands from an installed workspace with that workspace as the invocation workspace', async () => {
    await install();
    const res = await postSlashCommand(server.url, SECRET, {
      teamId: 'T2',
      userId: 'U5',
      userName: 'eve',
      text: 'post 1',
      responseUrl: slack.responseUrl(),
    });
    expect(res.status).toBe(200);
    expect(handler.invocations[0]).toMatchObject({ workspaceId: 'T2', text: 'post 1' });
  });
});
