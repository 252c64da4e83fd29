import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type KeyvPostgres from '@keyv/postgres';
import type KeyvRedis from '@keyv/redis';
import type { Installation } from '@slack/bolt';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKeyValueInstallationStore } from '../../../adapters/slack/installation-store.js';
import type { BotStore } from '../../../src/store/bot-store.js';
import { createStore } from '../../../src/store/create-store.js';
import { createSecretSealer } from '../../../src/store/sealed-values.js';
import { resealStoredSecrets } from '../../../src/store/secret-keys.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { storeBackends } from '../../support/backends.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { FakeCommandHandler } from '../../support/fake-command-handler.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';
import { slackScript } from '../../support/slack-command-script.js';
import {
  completeOAuthInstall,
  createOAuthSlackAdapter,
  createTestSealer,
} from '../../support/slack-oauth.js';
import { makeTempDir } from '../../support/temp-dir.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());
const backends = await storeBackends(join(temp.path, 'at-rest.sqlite'));

const TOKENS = [
  'xoxb-oauth-installed-bot',
  'xoxb-enterprise-bot',
  'xoxe-refresh-bot',
  'xoxp-user-token',
  'xoxe-refresh-user',
];

/** Everything the backend holds under the namespace, as the operator's own tools would show it. */
async function rawDump(store: BotStore, namespace: string, sqlitePath: string): Promise<string> {
  if (store.kind === 'sqlite') {
    await store.close();
    // The file and any journal beside it: whatever is on the disk.
    const dir = join(sqlitePath, '..');
    return readdirSync(dir)
      .filter((name) => name.startsWith('at-rest.sqlite'))
      .map((name) => readFileSync(join(dir, name)).toString('latin1'))
      .join('\n');
  }
  if (store.kind === 'redis') {
    const client = (await (store.keyv.store as KeyvRedis<string>).getClient()) as unknown as {
      keys(pattern: string): Promise<string[]>;
      get(key: string): Promise<string | null>;
    };
    const keys = (await client.keys('*')).filter((key) => key.includes(namespace));
    const values = await Promise.all(keys.map((key) => client.get(key)));
    return keys.map((key, i) => `${key} ${values[i]}`).join('\n');
  }
  const rows = (await (store.keyv.store as KeyvPostgres).query(
    'SELECT key, value FROM directory_bot_kv WHERE key LIKE $1',
    [`${namespace}:%`],
  )) as { key: string; value: string }[];
  return rows.map((row) => `${row.key} ${row.value}`).join('\n');
}

describe.each(backends)('Slack tokens at rest in the $name store', (backend) => {
  let store: BotStore;
  let namespace: string;
  let slack: FakeSlackApi;
  let server: MountServer;
  beforeEach(async (context) => {
    if (backend.unavailable) context.skip(backend.unavailable);
    namespace = `at-rest-${randomUUID()}`;
    store = createStore({ url: backend.url, namespace });
    slack = await new FakeSlackApi().start();
    server = await startMountServer();
  });
  afterEach(async () => {
    await server?.close();
    await slack?.close();
    if (store === undefined) return;
    const reopened = createStore({ url: backend.url, namespace });
    await reopened.keyv.clear().catch(() => {});
    await reopened.close();
    await store.close();
  });

  it('a raw dump of the store holds no token, after an OAuth install and a stored user install', async () => {
    const sealer = createTestSealer();
    slack.oauthGrants.set('code-1', {
      teamId: 'T2',
      teamName: 'Team Two',
      botToken: 'xoxb-oauth-installed-bot',
      userId: 'UINSTALLER',
    });
    const adapter = createOAuthSlackAdapter(slack.apiUrl, store.keyv, sealer);
    await adapter.start({
      http: server.http,
      commands: new FakeCommandHandler(slackScript),
      logger: createCapturingLogger(),
    });
    try {
      const done = await completeOAuthInstall(server.url);
      expect(done.status).toBe(200);
    } finally {
      await adapter.stop();
    }

    // Bolt's installation store, as the OAuth flow uses it: an org-wide install with user and
    // refresh tokens (token rotation), every credential an Installation can carry.
    const installations = createKeyValueInstallationStore(store.keyv, sealer);
    const orgInstall = {
      team: undefined,
      enterprise: { id: 'E1', name: 'Org' },
      isEnterpriseInstall: true,
      bot: {
        token: 'xoxb-enterprise-bot',
        refreshToken: 'xoxe-refresh-bot',
        expiresAt: 1,
        scopes: [],
        id: 'B1',
        userId: 'U1',
      },
      user: {
        token: 'xoxp-user-token',
        refreshToken: 'xoxe-refresh-user',
        expiresAt: 1,
        scopes: [],
        id: 'U9',
      },
    } as unknown as Installation;
    await installations.storeInstallation(orgInstall);
    const back = await installations.fetchInstallation({
      isEnterpriseInstall: true,
      enterpriseId: 'E1',
      teamId: undefined,
    });
    expect(back.user?.refreshToken).toBe('xoxe-refresh-user');
    expect(back.bot?.token).toBe('xoxb-enterprise-bot');

    const dump = await rawDump(store, namespace, join(temp.path, 'at-rest.sqlite'));
    // The dump has the installs (their metadata is readable) but not one token.
    expect(dump).toContain('slack:installation:team:T2');
    expect(dump).toContain('slack:installation:enterprise:E1');
    expect(dump).toContain('Team Two');
    expect(dump).toContain(`v1:${sealer.keyId}:`);
    for (const token of TOKENS) expect(dump).not.toContain(token);
  });

  it('after Slack token rotation the refreshed access and refresh tokens are sealed too', async () => {
    let clock = Date.now();
    const rotating = await new FakeSlackApi({ now: () => clock, tokenRotation: true }).start();
    rotating.addChannel('C1');
    rotating.oauthGrants.set('code-1', {
      teamId: 'T2',
      teamName: 'Team Two',
      botToken: 'xoxb-r',
      userId: 'U1',
    });
    const sealer = createTestSealer();
    const adapter = createOAuthSlackAdapter(rotating.apiUrl, store.keyv, sealer, 'signing-secret', {
      now: () => clock,
    });
    await adapter.start({
      http: server.http,
      commands: new FakeCommandHandler(slackScript),
      logger: createCapturingLogger(),
    });
    try {
      expect((await completeOAuthInstall(server.url)).status).toBe(200);
      clock += 13 * 60 * 60_000;
      const outcome = await adapter.deliver(
        { platform: 'slack', channelId: 'C1', workspaceId: 'T2' },
        { kind: 'info', title: 'Hello', fallback: 'Hello' },
        { idempotencyKey: 'k' },
      );
      expect(outcome.status).toBe('delivered');
    } finally {
      await adapter.stop();
      await rotating.close();
    }
    const [refresh] = rotating.refreshCalls();
    const issued = [
      refresh?.params['refresh_token'],
      refresh?.response['access_token'],
      refresh?.response['refresh_token'],
    ];
    expect(issued.every((token) => typeof token === 'string' && token.startsWith('xoxe'))).toBe(true);

    const dump = await rawDump(store, namespace, join(temp.path, 'at-rest.sqlite'));
    expect(dump).toContain('slack:installation:team:T2');
    for (const token of issued) expect(dump).not.toContain(String(token));
  });

  it('after a key rotation (one install re-sealed as it is read, the rest by rotate-key) nothing is under the old key', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = createKeyValueInstallationStore(store.keyv, createSecretSealer({ current: oldKey }));
    for (const team of ['T1', 'T2', 'T3']) {
      await before.storeInstallation({
        team: { id: team },
        enterprise: undefined,
        isEnterpriseInstall: false,
        bot: { token: `xoxb-rotated-${team}`, scopes: [], id: `B${team}`, userId: `U${team}` },
      } as unknown as Installation);
    }
    const rotating = createSecretSealer({ current: newKey, previous: oldKey });
    const after = createKeyValueInstallationStore(store.keyv, rotating);
    const query = { teamId: 'T1', enterpriseId: undefined, isEnterpriseInstall: false };
    expect((await after.fetchInstallation(query)).bot?.token).toBe('xoxb-rotated-T1');
    expect(await resealStoredSecrets(store.keyv, rotating)).toMatchObject({ resealed: 2, alreadyCurrent: 1 });
    // Only the new key is needed from now on.
    const onlyNew = createKeyValueInstallationStore(store.keyv, createSecretSealer({ current: newKey }));
    expect((await onlyNew.fetchInstallation({ ...query, teamId: 'T3' })).bot?.token).toBe('xoxb-rotated-T3');

    // Every live value opens with the new key alone (a value under the old key would throw).
    expect(await resealStoredSecrets(store.keyv, createSecretSealer({ current: newKey }))).toMatchObject({
      resealed: 0,
      alreadyCurrent: 3,
    });

    const dump = await rawDump(store, namespace, join(temp.path, 'at-rest.sqlite'));
    expect(dump).toContain(`v1:${rotating.keyId}:`);
    // SQLite may keep an overwritten row's old bytes in a free page (sealed, so no token); the
    // servers show only live values.
    if (backend.name !== 'sqlite')
      expect(dump).not.toContain(`v1:${createSecretSealer({ current: oldKey }).keyId}:`);
    expect(dump).not.toContain('xoxb-rotated');
  });

  it('rotate-key seals the tokens of installations an older version stored in plain text', async () => {
    // As a version before encryption wrote them: the whole installation, tokens as they are.
    for (const team of ['T7', 'T8'])
      await store.keyv.set(`slack:installation:team:${team}`, {
        team: { id: team, name: `Old ${team}` },
        isEnterpriseInstall: false,
        bot: { token: `xoxb-plain-${team}`, refreshToken: `xoxe-plain-${team}`, scopes: ['chat:write'] },
        user: { id: `U${team}`, token: `xoxp-plain-${team}` },
        incomingWebhook: { url: `https://hooks.slack.com/services/plain-${team}`, channel: '#news' },
      });
    const sealer = createSecretSealer({ current: randomBytes(32) });
    expect(await resealStoredSecrets(store.keyv, sealer)).toMatchObject({
      sealedFromPlainText: 8,
      keysWithSecrets: 2,
    });
    expect(await resealStoredSecrets(store.keyv, sealer)).toMatchObject({
      sealedFromPlainText: 0,
      alreadyCurrent: 8,
    });
    const installs = createKeyValueInstallationStore(store.keyv, sealer);
    const query = { teamId: 'T8', enterpriseId: undefined, isEnterpriseInstall: false };
    expect((await installs.fetchInstallation(query)).user?.token).toBe('xoxp-plain-T8');

    const dump = await rawDump(store, namespace, join(temp.path, 'at-rest.sqlite'));
    expect(dump).toContain('Old T7');
    expect(dump).not.toContain('-plain-');
  });
});
