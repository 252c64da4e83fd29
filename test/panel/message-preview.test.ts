import { describe, expect, it } from 'vitest';
import { renderDiscordMessage } from '../../adapters/discord/render-message.js';
import { renderSlackMessage } from '../../adapters/slack/render-message.js';
import { discordPreview, slackPreview } from '../../src/panel/message-preview.js';
import type { Message } from '../../src/ports/index.js';

const comment: Message = {
  kind: 'comment',
  title: 'New comment on Clever Relay 61',
  text: 'Is there an API?',
  url: 'https://directory.example/posts/61#comment-7',
  fallback: 'New comment on Clever Relay 61',
  author: { name: 'Ada Dubois' },
  timestamp: '2026-11-21T09:41:08Z',
};

describe('previews show when an item happened as a person reads it', () => {
  it('draws Slack’s date token as a UTC time, not its ISO fallback', () => {
    const preview = slackPreview(renderSlackMessage(comment));
    const shown = JSON.stringify(preview.blocks);
    expect(shown).toContain('21 Nov 2026, 09:41 UTC');
    expect(shown).not.toContain('2026-11-21T09:41:08Z');
  });

  it('draws a Discord embed’s timestamp the same way', () => {
    const preview = discordPreview(renderDiscordMessage(comment));
    expect(preview.embeds[0]?.timestamp).toBe('21 Nov 2026, 09:41 UTC');
  });
});
