import { describe, expect, it } from 'vitest';
import { discordMessageLink } from '../../adapters/discord/message-link.js';
import { slackMessageLink } from '../../adapters/slack/message-link.js';

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
});
