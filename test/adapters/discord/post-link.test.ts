import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_WEB_URL } from '../../../src/emulator/index.js';
import { type Harness, startHarness } from '../../support/command-harness.js';
import { type DiscordEndpoint, startDiscordEndpoint } from '../../support/discord-endpoint.js';
import { commandInteraction } from '../../support/discord-interactions.js';

/**
 * Discord gives bots no hook on links pasted in a conversation (Slack's link_shared), so what a
 * Slack unfurl shows is `/directory post <link>` on Discord: the real Discord adapter, a signed
 * interaction, the real command handler against the directory emulator.
 */
describe('Discord: /directory post <link> in place of link previews', () => {
  let h: Harness;
  let discord: DiscordEndpoint;
  const now = Date.now();

  beforeAll(async () => {
    h = await startHarness();
    discord = await startDiscordEndpoint(h.handler, () => now);
  });
  afterAll(async () => {
    await discord.close();
    await h.close();
  });

  it('answers a pasted post link with the post card', async () => {
    const added = h.emulator.admin.addPost({ name: 'Atlas Maps' });
    const link = `${EMULATOR_WEB_URL}/posts/${String(added['slug'])}`;
    const res = await discord.post(commandInteraction('post', [{ name: 'post', type: 3, value: link }]));
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      type: number;
      data: { embeds?: { title?: string; url?: string }[] };
    };
    expect(body.type).toBe(4);
    expect(body.data.embeds?.[0]).toMatchObject({ title: 'Atlas Maps', url: link });
  });
});
