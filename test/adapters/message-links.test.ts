import { describe, expect, it } from 'vitest';
import { createChannelServers, discordMessageLink } from '../../adapters/discord/message-link.js';
import { createWorkspaceAddresses, slackMessageLink } from '../../adapters/slack/message-link.js';

describe('links to posted messages', () => {
  it('Slack: the permalink shape chat.getPermalink returns, in the workspace auth.test named', () => {
    const channel = { platform: 'slack', channelId: 'C1H9RESGA' };
    expect(
      slackMessageLink('https://ghostbusters.slack.com/', channel, { messageId: '1358546515.000008' }),
    ).toBe('https://ghostbusters.slack.com/archives/C1H9RESGA/p1358546515000008');
    // A reply opens in its thread.
    expect(
      slackMessageLink('https://ghostbusters.slack.com/', channel, {
        messageId: '1358546600.000100',
        threadId: '1358546515.000008',
      }),
    ).toBe(
      'https://ghostbusters.slack.com/archives/C1H9RESGA/p1358546600000100?thread_ts=1358546515.000008&cid=C1H9RESGA',
    );
  });

  it('Slack: no link when the workspace address is unknown or the id is not a message timestamp', () => {
    const channel = { platform: 'slack', channelId: 'C1' };
    expect(slackMessageLink(undefined, channel, { messageId: '1358546515.000008' })).toBeUndefined();
    expect(slackMessageLink('https://acme.slack.com/', channel, { messageId: 'x/../y' })).toBeUndefined();
    expect(slackMessageLink('http://acme.slack.com/', channel, { messageId: '1.2' })).toBeUndefined();
  });

  it("Discord: the server, the channel the message lives in (a thread's), and the message", () => {
    const channel = { platform: 'discord', channelId: '111', workspaceId: '999' };
    expect(discordMessageLink(channel, { messageId: '555' })).toBe(
      'https://discord.com/channels/999/111/555',
    );
    expect(discordMessageLink(channel, { messageId: '556', threadId: '222', channelId: '222' })).toBe(
      'https://discord.com/channels/999/222/556',
    );
    expect(
      discordMessageLink({ platform: 'discord', channelId: '111' }, { messageId: '555' }),
    ).toBeUndefined();
  });

  it("Slack: each workspace's address from the requests it sends, for a multi-workspace install", () => {
    const addresses = createWorkspaceAddresses();
    expect(addresses.of('T9')).toBeUndefined();
    // A slash command names team_id and team_domain; a button press or form names team.id and team.domain.
    addresses.learn({ team_id: 'T9', team_domain: 'Widgets', channel_id: 'C9', text: 'why comment 1' });
    addresses.learn({ type: 'block_actions', team: { id: 'T8', domain: 'gadgets' } });
    expect(addresses.of('T9')).toBe('https://widgets.slack.com/');
    expect(addresses.of('T8')).toBe('https://gadgets.slack.com/');
    expect(
      slackMessageLink(addresses.of('T9'), { platform: 'slack', channelId: 'C9' }, { messageId: '1.2' }),
    ).toBe('https://widgets.slack.com/archives/C9/p12');
    // A domain that is not one cannot point a link elsewhere.
    addresses.learn({ team_id: 'T7', team_domain: 'evil.example/x' });
    addresses.learn({ team_id: 'T6' });
    expect(addresses.of('T7')).toBeUndefined();
    expect(addresses.of('T6')).toBeUndefined();
  });

  it("Discord: the server of a channel its route does not name, from the gateway's cache or an interaction there", () => {
    const cache = new Map([['201', '101']]);
    const servers = createChannelServers((channel) => cache.get(channel));
    const link = (channelId: string) =>
      discordMessageLink(servers.withServer({ platform: 'discord', channelId }), { messageId: '7' });
    expect(link('201')).toBe('https://discord.com/channels/101/201/7');
    expect(link('202')).toBeUndefined();
    servers.learn({ guild_id: '102', channel_id: '202' });
    expect(link('202')).toBe('https://discord.com/channels/102/202/7');
    // A destination that names its server keeps it; a direct message has none.
    expect(
      servers.withServer({ platform: 'discord', channelId: '202', workspaceId: '103' }).workspaceId,
    ).toBe('103');
    expect(
      servers.withServer({ platform: 'discord', channelId: '202', direct: true }).workspaceId,
    ).toBeUndefined();
  });
});
