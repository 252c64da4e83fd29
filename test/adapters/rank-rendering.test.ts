import { describe, expect, it } from 'vitest';
import { renderConsoleMessage } from '../../adapters/console/render-console-message.js';
import { renderEmbed } from '../../adapters/discord/render-embed.js';
import { renderMessageBlocks } from '../../adapters/slack/render-message.js';
import { composePostMessage } from '../../src/messages/index.js';

const post = {
  id: '42',
  name: 'Analytical Engine',
  tagline: 'A general-purpose computer',
  votesCount: 128,
  commentsCount: 7,
  makers: [],
  topics: ['Hardware'],
  url: 'https://www.example-directory.test/posts/analytical-engine',
};

describe("a post's rank of the day on each platform", () => {
  const ranked = composePostMessage(post, { rankToday: 3 });
  const unranked = composePostMessage(post);

  it('is one more field beside votes and comments on the console', () => {
    expect(renderConsoleMessage(ranked)).toContain('Votes: 128 · Comments: 7 · Rank: #3 today\n');
    expect(renderConsoleMessage(unranked)).toContain('Votes: 128 · Comments: 7\n');
  });

  it('is one more field of the section on Slack', () => {
    const texts = JSON.stringify(renderMessageBlocks(ranked));
    expect(texts).toContain('"*Comments*\\n7","verbatim":true},{"type":"mrkdwn","text":"*Rank*\\n#3 today"');
    expect(JSON.stringify(renderMessageBlocks(unranked))).not.toContain('Rank');
  });

  it('is one more inline field of the embed on Discord', () => {
    const fields = renderEmbed(ranked).fields ?? [];
    // `#` is escaped so Discord never reads it as a heading; it shows as "#3 today".
    expect(fields.slice(0, 3)).toEqual([
      { name: 'Votes', value: '128', inline: true },
      { name: 'Comments', value: '7', inline: true },
      { name: 'Rank', value: '\\#3 today', inline: true },
    ]);
    expect((renderEmbed(unranked).fields ?? []).map((f) => f.name)).not.toContain('Rank');
  });
});
