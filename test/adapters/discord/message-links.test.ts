import { describe, expect, it } from 'vitest';
import { createDiscordMessageLinks } from '../../../adapters/discord/message-links.js';

describe('links to Discord messages', () => {
  it("are Discord's message links, in the thread a reply or forum post lives in", () => {
    const links = createDiscordMessageLinks(() => undefined);
    const destination = { platform: 'discord', channelId: '200', workspaceId: '100' };
    expect(links.link(destination, { messageId: '300' })).toBe('https://discord.com/channels/100/200/300');
    expect(links.link(destination, { messageId: '301', channelId: '250' })).toBe(
      'https://discord.com/channels/100/250/301',
    );
  });

  it("find a channel's server in the gateway's cache or from an interaction there, and link nothing without one", () => {
    const cache = new Map([['201', '101']]);
    const links = createDiscordMessageLinks((channel) => cache.get(channel));
    expect(links.link({ platform: 'discord', channelId: '201' }, { messageId: '1' })).toBe(
      'https://discord.com/channels/101/201/1',
    );
    const seeded = { platform: 'discord', channelId: '202' };
    expect(links.link(seeded, { messageId: '2' })).toBeUndefined();
    links.learn({ guild_id: '102', channel_id: '202' });
    expect(links.link(seeded, { messageId: '2' })).toBe('https://discord.com/channels/102/202/2');
    expect(links.link({ ...seeded, direct: true }, { messageId: '2' })).toBeUndefined();
  });
});
