import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../../adapters/slack/index.js';
import type { ChatAdapter } from '../../../src/ports/index.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { createMemoryStore } from '../../support/memory-store.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';
import { createOAuthSlackAdapter, createTestSealer, startAndInstall } from '../../support/slack-oauth.js';

describe("a Slack workspace's default time zone: its installer's tz", () => {
  let slack: FakeSlackApi;
  let server: MountServer;
  let adapter: ChatAdapter;
  const now = { value: 1_000_000 };

  beforeEach(async () => {
    slack = await new FakeSlackApi().start();
    slack.oauthGrants.set('code-1', {
      teamId: 'T2',
      teamName: 'Team Two',
      botToken: 'xoxb-two',
      userId: 'UINSTALLER',
    });
    slack.addUser('UINSTALLER', { tz: 'Europe/Berlin' });
    server = await startMountServer();
    adapter = createOAuthSlackAdapter(
      slack.apiUrl,
      createMemoryStore(),
      createTestSealer(),
      'signing-secret',
      {
        now: () => now.value,
      },
    );
    await startAndInstall(adapter, server);
  });

  afterEach(async () => {
    await adapter.stop();
    await server.close();
    await slack.close();
  });

  it('asks users.info for the installer with the workspace’s token, once per six hours', async () => {
    expect(await adapter.workspaceTimeZone?.('T2')).toBe('Europe/Berlin');
    const [call] = slack.callsTo('users.info');
    expect(call).toMatchObject({ token: 'xoxb-two', params: { user: 'UINSTALLER' } });
    // The installer moves; the cached answer holds until it expires.
    slack.addUser('UINSTALLER', { tz: 'Asia/Tokyo' });
    expect(await adapter.workspaceTimeZone?.('T2')).toBe('Europe/Berlin');
    expect(slack.callsTo('users.info')).toHaveLength(1);
    now.value += 6 * 60 * 60_000;
    expect(await adapter.workspaceTimeZone?.('T2')).toBe('Asia/Tokyo');
    expect(slack.callsTo('users.info')).toHaveLength(2);
  });

  it('answers none for a workspace that never installed, an installer with no tz, or a failed call', async () => {
    expect(await adapter.workspaceTimeZone?.('T9')).toBeUndefined();
    expect(await adapter.workspaceTimeZone?.(undefined)).toBeUndefined();
    slack.addUser('UINSTALLER', {});
    expect(await adapter.workspaceTimeZone?.('T2')).toBeUndefined();
  });

  it('answers none after users.info fails, and asks again five minutes later', async () => {
    slack.users.delete('UINSTALLER');
    expect(await adapter.workspaceTimeZone?.('T2')).toBeUndefined();
    slack.addUser('UINSTALLER', { tz: 'America/New_York' });
    expect(await adapter.workspaceTimeZone?.('T2')).toBeUndefined();
    now.value += 5 * 60_000;
    expect(await adapter.workspaceTimeZone?.('T2')).toBe('America/New_York');
  });

  it('keeps the zone it last knew through a failed call, so schedules never jump to UTC for a blip', async () => {
    expect(await adapter.workspaceTimeZone?.('T2')).toBe('Europe/Berlin');
    slack.users.delete('UINSTALLER');
    now.value += 6 * 60 * 60_000;
    expect(await adapter.workspaceTimeZone?.('T2')).toBe('Europe/Berlin');
    expect(slack.callsTo('users.info')).toHaveLength(2);
  });
});

describe('a single-token Slack install', () => {
  it('records no installer, so it gives no zone and asks Slack nothing', async () => {
    const slack = await new FakeSlackApi().start();
    slack.addToken('xoxb-one', 'T1');
    const adapter = createSlackAdapter({
      botToken: 'xoxb-one',
      signingSecret: 'signing-secret',
      apiUrl: slack.apiUrl,
      logger: createCapturingLogger(),
    });
    try {
      expect(await adapter.workspaceTimeZone?.('T1')).toBeUndefined();
      expect(slack.callsTo('users.info')).toEqual([]);
    } finally {
      await slack.close();
    }
  });
});
