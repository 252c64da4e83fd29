import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeDiscordRest } from '../../fakes/discord/fake-discord-rest.js';
import { discordSignature } from '../../fakes/discord/signing.js';
import { type DiscordEndpoint, startDiscordEndpoint } from '../../support/discord-endpoint.js';
import {
  APP_ID,
  CHANNEL_ID,
  commandInteraction,
  discordScript,
  MANAGER_PERMISSIONS,
} from '../../support/discord-interactions.js';
import { FakeCommandHandler } from '../../support/fake-command-handler.js';
import type { MountServer } from '../../support/mount-server.js';

describe('Discord HTTP interactions endpoint', () => {
  let discord: DiscordEndpoint;
  let rest: FakeDiscordRest;
  let server: MountServer;
  let commands: FakeCommandHandler;
  let keys: DiscordEndpoint['keys'];

  /** The adapter's clock; requests are signed at this time unless a test says otherwise. */
  let now = 1_750_000_000_000;

  async function post(
    body: unknown,
    tamper?: 'body' | 'signature' | 'missing',
    timestamp = String(Math.floor(now / 1000)),
  ): Promise<Response> {
    const raw = JSON.stringify(body);
    const signature = discordSignature(keys.privateKey, timestamp, raw);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (tamper !== 'missing') {
      headers['x-signature-timestamp'] = timestamp;
      headers['x-signature-ed25519'] =
        tamper === 'signature' ? (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1) : signature;
    }
    const sent = tamper === 'body' ? raw.replace('"type":1', '"type":2') : raw;
    return fetch(`${server.url}/discord/interactions`, { method: 'POST', headers, body: sent });
  }

  beforeEach(async () => {
    now = 1_750_000_000_000;
    commands = new FakeCommandHandler(discordScript);
    discord = await startDiscordEndpoint(commands, () => now, { deferAfterMs: 100 });
    ({ rest, server, keys } = discord);
  });

  afterEach(async () => {
    commands.releaseSlow();
    await discord.close();
  });

  it('answers a signed PING with PONG', async () => {
    const res = await post({ id: '1', application_id: APP_ID, type: 1, token: 't' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({ type: 1 });
  });

  it.each([
    ['a tampered body', 'body'],
    ['a tampered signature', 'signature'],
    ['no signature', 'missing'],
  ] as const)('refuses %s with 401', async (_name, tamper) => {
    const res = await post({ id: '1', application_id: APP_ID, type: 1, token: 't' }, tamper);
    expect(res.status).toBe(401);
    expect(commands.invocations).toHaveLength(0);
  });

  it.each([
    ['more than five minutes old', -(5 * 60 + 1)],
    ['more than five minutes ahead', 5 * 60 + 1],
  ])(
    'refuses a correctly signed request whose timestamp is %s with 401 (a replay)',
    async (_name, offset) => {
      const signedAt = String(Math.floor(now / 1000) + offset);
      const res = await post(commandInteraction('post'), undefined, signedAt);
      expect(res.status).toBe(401);
      expect(commands.invocations).toHaveLength(0);
    },
  );

  it('accepts a request signed just inside the five-minute window', async () => {
    const res = await post(
      { id: '1', application_id: APP_ID, type: 1, token: 't' },
      undefined,
      String(Math.floor(now / 1000) - (5 * 60 - 1)),
    );
    expect(res.status).toBe(200);
  });

  it('refuses a correctly signed request whose timestamp is not Unix seconds', async () => {
    const res = await post({ id: '1', application_id: APP_ID, type: 1, token: 't' }, undefined, 'yesterday');
    expect(res.status).toBe(401);
  });

  it('answers a quick command inline, ephemeral with a share button, as the core text', async () => {
    const res = await post(commandInteraction('post', [{ name: 'post', type: 3, value: 'directory-bot' }]));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { type: number; data: Record<string, unknown> };
    expect(body.type).toBe(4);
    expect(body.data).toMatchObject({ flags: 64, allowed_mentions: { parse: [] } });
    expect(JSON.stringify(body.data['components'])).toContain('directory:share:post directory-bot');
    expect(commands.invocations[0]).toMatchObject({
      platform: 'discord',
      channelId: CHANNEL_ID,
      text: 'post directory-bot',
      actor: { userId: '100000000000000010', displayName: 'Alice', canManageChannel: false },
    });
  });

  it('defers a slow lookup and then edits the original response', async () => {
    const res = await post(commandInteraction('slow'));
    expect(await res.json()).toEqual({ type: 5, data: { flags: 64 } });
    commands.releaseSlow();
    const edit = await rest.waitForCall((c) => c.method === 'PATCH');
    expect(edit.path).toMatch(new RegExp(`^/webhooks/${APP_ID}/token-\\d+/messages/@original$`));
    expect(edit.body).toMatchObject({ content: 'Finally.', allowed_mentions: { parse: [] } });
    expect(edit.body).not.toHaveProperty('flags');
    expect(rest.problems).toEqual([]);
  });

  it('re-runs a shared result publicly when the share button is pressed', async () => {
    const click = {
      ...commandInteraction('post'),
      type: 3,
      data: { custom_id: 'directory:share:post directory-bot', component_type: 2 },
    };
    const res = await post(click);
    const body = (await res.json()) as { type: number; data: Record<string, unknown> };
    expect(body.type).toBe(4);
    expect(body.data['flags']).toBeUndefined();
    expect(body.data['components']).toBeUndefined();
    expect(commands.invocations.at(-1)?.text).toBe('post directory-bot');
  });

  it('passes Manage Channels through to the core, which decides', async () => {
    const res = await post(
      commandInteraction(
        'subscribe',
        [
          { name: 'feed', type: 3, value: 'comments' },
          { name: 'keyword', type: 3, value: 'machine learning' },
          { name: 'video', type: 5, value: true },
          { name: 'min-votes', type: 4, value: 10 },
        ],
        { permissions: MANAGER_PERMISSIONS },
      ),
    );
    const body = (await res.json()) as { type: number; data: Record<string, unknown> };
    expect(body.data['flags']).toBeUndefined();
    expect(commands.invocations.at(-1)).toMatchObject({
      text: 'subscribe comments --keyword "machine learning" --video --min-votes 10',
      actor: { canManageChannel: true },
      workspaceId: '100000000000000002',
    });
  });

  it('shows a refusal ephemerally with usage', async () => {
    const res = await post(commandInteraction('subscribe', [{ name: 'feed', type: 3, value: 'posts' }]));
    const body = (await res.json()) as { type: number; data: Record<string, unknown> };
    expect(body.data['flags']).toBe(64);
    expect(body.data['content']).toContain('Usage: `subscribe <feed> [--keyword WORD]`');
  });

  it('answers a failing core with an ephemeral apology instead of leaving the interaction to time out', async () => {
    const res = await post(commandInteraction('explode'));
    const body = (await res.json()) as { type: number; data: Record<string, unknown> };
    expect(body.type).toBe(4);
    expect(body.data['flags']).toBe(64);
    expect(String(body.data['content'])).toMatch(/went wrong/);
  });

  it('offers autocomplete suggestions from the core', async () => {
    const res = await post(
      commandInteraction('post', [{ name: 'post', type: 3, value: 'direc', focused: true }], { type: 4 }),
    );
    const body = (await res.json()) as { type: number; data: { choices: { name: string; value: string }[] } };
    expect(body.type).toBe(8);
    expect(body.data.choices.map((c) => c.value)).toEqual(['directory-bot', 'directory-cli', 'direc-x']);
    expect(commands.completions).toEqual([{ command: 'post', option: 'post', partial: 'direc' }]);
  });
});
