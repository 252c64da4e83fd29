import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../../adapters/discord/index.js';
import { EMULATOR_WEB_URL } from '../../../src/emulator/index.js';
import type { ChatAdapter } from '../../../src/ports/index.js';
import { FakeDiscordRest } from '../../fakes/discord/fake-discord-rest.js';
import { discordKeyPair, discordSignature } from '../../fakes/discord/signing.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { type Harness, startHarness } from '../../support/command-harness.js';
import { APP_ID, commandInteraction } from '../../support/discord-interactions.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';

/**
 * Discord gives bots no hook on links pasted in a conversation (Slack's link_shared), so what a
 * Slack unfurl shows is `/directory post <link>` on Discord: the real Discord adapter, a signed
 * interaction, the real command handler against the directory emulator.
 */
describe('Discord: /directory post <link> in place of link previews', () => {
  let h: Harness;
  let rest: FakeDiscordRest;
  let server: MountServer;
  let adapter: ChatAdapter;
  const keys = discordKeyPair();
  const now = Date.now();

  beforeAll(async () => {
    h = await startHarness();
    rest = new FakeDiscordRest();
    await rest.listen();
    server = await startMountServer();
    adapter = createDiscordAdapter({
      applicationId: APP_ID,
      publicKey: keys.publicHex,
      apiUrl: rest.url,
      logger: createCapturingLogger(),
      now: () => now,
    });
    await adapter.start({ http: server.http, commands: h.handler, logger: createCapturingLogger() });
  });
  afterAll(async () => {
    await adapter.stop();
    await server.close();
    await rest.close();
    await h.close();
  });

  it('answers a pasted post link with the post card', async () => {
    const added = h.emulator.admin.addPost({ name: 'Atlas Maps' });
    const link = `${EMULATOR_WEB_URL}/posts/${String(added['slug'])}`;
    const raw = JSON.stringify(commandInteraction('post', [{ name: 'post', type: 3, value: link }]));
    const timestamp = String(Math.floor(now / 1000));
    const res = await fetch(`${server.url}/discord/interactions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature-timestamp': timestamp,
        'x-signature-ed25519': discordSignature(keys.privateKey, timestamp, raw),
      },
      body: raw,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      type: number;
      data: { embeds?: { title?: string; url?: string }[] };
    };
    expect(body.type).toBe(4);
    expect(body.data.embeds?.[0]).toMatchObject({ title: 'Atlas Maps', url: link });
  });
});
