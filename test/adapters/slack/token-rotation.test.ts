import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../../adapters/slack/index.js';
import type { ChatAdapter, DeliveryOutcome } from '../../../src/ports/index.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { postSlashCommand } from '../../fakes/slack/slash-command.js';
import { type CapturedLine, createCapturingLogger } from '../../support/capturing-logger.js';
import { FakeCommandHandler } from '../../support/fake-command-handler.js';
import { createMemoryStore } from '../../support/memory-store.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';
import { eventually } from '../../support/polling.js';
import { slackScript } from '../../support/slack-command-script.js';
import { createOAuthSlackAdapter, createTestSealer, startAndInstall } from '../../support/slack-oauth.js';

const SECRET = 'signing-secret';
const HOUR = 60 * 60_000;
/** The fake's first install hands out `xoxe.xoxb-two-1` and refresh token `xoxe-1-T2-refresh-1`. */
const FIRST_TOKEN = 'xoxe.xoxb-two-1';
const FIRST_REFRESH = 'xoxe-1-T2-refresh-1';

type StoredHolder = { token?: string; refreshToken?: string; expiresAt?: number };

describe('Slack token rotation', () => {
  // One clock for the bot and the fake, so "12 hours later" holds on both sides.
  let clock: number;
  const now = () => clock;
  let slack: FakeSlackApi;
  let server: MountServer;
  let adapter: ChatAdapter;
  let logger: ReturnType<typeof createCapturingLogger>;
  const store = createMemoryStore();
  const sealer = createTestSealer();
  const others: { adapter: ChatAdapter; server: MountServer }[] = [];

  beforeEach(async () => {
    clock = Date.now();
    store.data.clear();
    slack = await new FakeSlackApi({ now, tokenRotation: true, burst: 5 }).start();
    slack.addChannel('C1');
    slack.addChannel('C2');
    slack.addUser('UADMIN', { is_admin: true });
    slack.oauthGrants.set('code-1', {
      teamId: 'T2',
      teamName: 'Team Two',
      botToken: 'xoxb-two',
      userId: 'U1',
    });
    server = await startMountServer();
    logger = createCapturingLogger();
    adapter = createOAuthSlackAdapter(slack.apiUrl, store, sealer, SECRET, { now, logger });
    await startAndInstall(adapter, server);
  });

  afterEach(async () => {
    for (const other of others.splice(0)) {
      await other.adapter.stop();
      await other.server.close();
    }
    await adapter.stop();
    await server.close();
    await slack.close();
  });

  function deliver(channelId = 'C1', via = adapter): Promise<DeliveryOutcome> {
    return via.deliver(
      { platform: 'slack', channelId, workspaceId: 'T2' },
      { kind: 'info', title: 'Hello', fallback: 'Hello' },
      { idempotencyKey: `k-${channelId}` },
    );
  }

  /** The stored bot credentials, raw (sealed) and opened. */
  function stored(): { raw: string; bot: StoredHolder } {
    const saved = store.data.get('slack:installation:team:T2') as { bot?: StoredHolder } | undefined;
    const bot = saved?.bot ?? {};
    const open = (value: string | undefined) =>
      value === undefined ? undefined : sealer.open(value).plaintext;
    return {
      raw: JSON.stringify(saved),
      bot: { ...bot, token: open(bot.token), refreshToken: open(bot.refreshToken) },
    } as { raw: string; bot: StoredHolder };
  }

  const postsWith = (token: string) => slack.callsTo('chat.postMessage').filter((c) => c.token === token);
  const logged = (lines: CapturedLine[]) => JSON.stringify(lines);

  it('installs with a 12-hour rotating token and its refresh token, both sealed', () => {
    const { raw, bot } = stored();
    expect(bot).toMatchObject({ token: FIRST_TOKEN, refreshToken: FIRST_REFRESH });
    // Bolt stamps an install's expiry with the real clock, a moment after the test's started.
    const twelveHours = Math.floor(clock / 1000) + 12 * 60 * 60;
    expect(bot.expiresAt).toBeGreaterThanOrEqual(twelveHours);
    expect(bot.expiresAt).toBeLessThan(twelveHours + 60);
    expect(raw).not.toContain(FIRST_TOKEN);
    expect(raw).not.toContain(FIRST_REFRESH);
  });

  it('refreshes an expired token before delivering, posts with the new one only, and stores it sealed', async () => {
    clock += 12 * HOUR + 60_000;
    expect(await deliver()).toMatchObject({ status: 'delivered' });

    const [refresh] = slack.refreshCalls();
    expect(slack.refreshCalls()).toHaveLength(1);
    expect(refresh?.params).toMatchObject({ refresh_token: FIRST_REFRESH, client_id: 'client-id' });
    const newToken = refresh?.response['access_token'] as string;
    expect(newToken).toMatch(/^xoxe\.xoxb-/);
    const posts = slack.callsTo('chat.postMessage');
    expect(posts.map((c) => c.token)).toEqual([newToken]);
    expect(postsWith(FIRST_TOKEN)).toEqual([]);
    expect(slack.calls.indexOf(refresh ?? posts[0]!)).toBeLessThan(slack.calls.indexOf(posts[0]!));

    const { raw, bot } = stored();
    expect(bot).toMatchObject({ token: newToken, refreshToken: refresh?.response['refresh_token'] });
    expect(bot.expiresAt).toBe(Math.floor(clock / 1000) + 12 * 60 * 60);
    for (const secret of [FIRST_TOKEN, FIRST_REFRESH, newToken, bot.refreshToken ?? '-'])
      expect(raw).not.toContain(secret);
    expect(logged(logger.lines)).not.toContain('xoxe');

    // The new token is good for hours: the next delivery uses it without another refresh.
    expect(await deliver('C2')).toMatchObject({ status: 'delivered' });
    expect(slack.refreshCalls()).toHaveLength(1);
  });

  it('refreshes ahead of expiry, so a token about to run out is never posted with', async () => {
    clock += 11 * HOUR;
    expect(await deliver()).toMatchObject({ status: 'delivered' });
    expect(slack.refreshCalls()).toHaveLength(1);
    expect(postsWith(FIRST_TOKEN)).toEqual([]);
  });

  it('two concurrent deliveries to the workspace share one refresh', async () => {
    clock += 13 * HOUR;
    const outcomes = await Promise.all([deliver('C1'), deliver('C2')]);
    expect(outcomes.map((o) => o.status)).toEqual(['delivered', 'delivered']);
    expect(slack.refreshCalls()).toHaveLength(1);
    const newToken = slack.refreshCalls()[0]?.response['access_token'];
    expect(slack.callsTo('chat.postMessage').map((c) => c.token)).toEqual([newToken, newToken]);
  });

  it('a token Slack says expired before our clock does is refreshed once and the post retried', async () => {
    slack.expireAccessTokens('T2');
    expect(await deliver()).toMatchObject({ status: 'delivered' });
    const posts = slack.callsTo('chat.postMessage');
    expect(posts.map((c) => c.response['error'] ?? 'ok')).toEqual(['token_expired', 'ok']);
    expect(slack.refreshCalls()).toHaveLength(1);
    expect(posts[1]?.token).toBe(slack.refreshCalls()[0]?.response['access_token']);
    expect(stored().bot.token).toBe(posts[1]?.token);
  });

  it('a refused refresh token stops the workspace like a revoked token, logged once and without a secret', async () => {
    slack.revokeRefreshTokens('T2');
    clock += 13 * HOUR;
    const first = await deliver('C1');
    expect(first).toMatchObject({ status: 'rejected', code: 'invalid_refresh_token', scope: 'destination' });
    // Asked again, the bot does not spend another refresh or log again: the answer stands.
    expect(await deliver('C2')).toMatchObject({ status: 'rejected', code: 'invalid_refresh_token' });
    expect(slack.refreshCalls()).toHaveLength(1);
    expect(slack.callsTo('chat.postMessage')).toEqual([]);
    const warnings = logger.lines.filter((line) => line.message.includes('refresh token'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warn', fields: { workspace: 'team:T2' } });
    expect(logged(logger.lines)).not.toContain('xoxe');
    // Nothing was thrown away: the install (and its refresh token) is still there for a reinstall to replace.
    expect(stored().bot.refreshToken).toBe(FIRST_REFRESH);
  });

  it('two instances sharing the store both deliver when one of them burns the single-use refresh token first', async () => {
    const second = createOAuthSlackAdapter(slack.apiUrl, store, sealer, SECRET, { now });
    const secondServer = await startMountServer();
    others.push({ adapter: second, server: secondServer });
    await second.start({
      http: secondServer.http,
      commands: new FakeCommandHandler(slackScript),
      logger: createCapturingLogger(),
    });
    clock += 13 * HOUR;
    const outcomes = await Promise.all([deliver('C1', adapter), deliver('C2', second)]);
    expect(outcomes.map((o) => o.status)).toEqual(['delivered', 'delivered']);
    // Both instances found the token expired and spent the same refresh token; Slack took it once.
    expect(
      slack
        .refreshCalls()
        .map((c) => c.response['error'] ?? 'ok')
        .sort(),
    ).toEqual(['invalid_refresh_token', 'ok']);
    const granted = slack.refreshCalls().filter((c) => c.response['ok'] === true);
    const newToken = granted[0]?.response['access_token'];
    expect(slack.callsTo('chat.postMessage').map((c) => c.token)).toEqual([newToken, newToken]);
    expect(stored().bot.token).toBe(newToken);
    expect(postsWith(FIRST_TOKEN)).toEqual([]);
  });

  it('an uninstall while Slack answers the refresh is not undone by the refreshed tokens', async () => {
    slack.slowDown('oauth.v2.access', 2000);
    const reads: string[] = [];
    const get = store.get;
    store.get = async (key) => {
      reads.push(key);
      return get(key);
    };
    try {
      clock += 13 * HOUR;
      const outcome = deliver();
      // The refresh has read the installation and is waiting for Slack when the workspace leaves.
      await eventually(() => reads.length >= 2, 5000, 'the refresh read the installation');
      store.data.delete('slack:installation:team:T2');
      expect(await outcome).toMatchObject({ status: 'rejected', code: 'not_installed' });
      expect(slack.refreshCalls().map((c) => c.response['ok'])).toEqual([true]);
      expect(store.data.has('slack:installation:team:T2')).toBe(false);
    } finally {
      store.get = get;
    }
  });

  it('a /directory command after expiry checks the admin with the refreshed token', async () => {
    clock += 13 * HOUR;
    const res = await postSlashCommand(server.url, SECRET, {
      teamId: 'T2',
      userId: 'UADMIN',
      userName: 'ada',
      text: 'subscribe news',
      responseUrl: slack.responseUrl(),
    });
    expect(res.status).toBe(200);
    const lookup = await slack.waitForCall((c) => c.method === 'users.info');
    expect(slack.refreshCalls()).toHaveLength(1);
    expect(lookup.token).toBe(slack.refreshCalls()[0]?.response['access_token']);
    expect(lookup.response['ok']).toBe(true);
  });
});

describe('a rotating token as SLACK_BOT_TOKEN', () => {
  it('is a configuration error naming the variable, since nothing could refresh it', () => {
    const configure = () =>
      createSlackAdapter({
        botToken: 'xoxe.xoxb-1-pasted',
        signingSecret: SECRET,
        logger: createCapturingLogger(),
      });
    expect(configure).toThrow(expect.objectContaining({ code: 'config_invalid' }));
    expect(configure).toThrow(/SLACK_BOT_TOKEN.*token_rotation_enabled: false/);
  });
});
