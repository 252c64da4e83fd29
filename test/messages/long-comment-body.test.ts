import { describe, expect, it } from 'vitest';
import { renderDiscordMessage } from '../../adapters/discord/index.js';
import { renderSlackMessage } from '../../adapters/slack/index.js';
import { composeCommentMessage } from '../../src/messages/index.js';
import { comment } from '../fixtures/parsed-records.js';

/**
 * A comment whose body is `length` characters: a greeting, then a flood of invisible characters
 * (bidi overrides, joiners, tag characters) and whitespace. The directory puts no limit on a body.
 */
function floodedComment(length: number) {
  const unit = '\u202e\u200d \u{e0041}\n\t';
  const body = `Congrats on the launch! ${unit.repeat(Math.ceil(length / unit.length))}`;
  return { ...comment, body };
}

/** What a chat sees of the comment: Slack's and Discord's whole request bodies. */
function renderBoth(record: typeof comment): { slack: string; discord: string } {
  const message = composeCommentMessage(record);
  return {
    slack: JSON.stringify(renderSlackMessage(message)),
    discord: JSON.stringify(renderDiscordMessage(message)),
  };
}

describe('a comment with an enormous body', () => {
  it('is summarised and rendered, greeting first and small, from a 4,000,000-character body', () => {
    const large = floodedComment(4_000_000);
    const shown = renderBoth(large);
    expect(shown.slack).toContain('Congrats on the launch!');
    expect(shown.discord).toContain('Congrats on the launch!');
    expect(shown.slack.length).toBeLessThan(20_000);
    expect(shown.discord.length).toBeLessThan(20_000);
  }, 10_000);
});
