import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderConsoleMessage } from '../../adapters/console/render-console-message.js';
import { renderDiscordMessage } from '../../adapters/discord/render-message.js';
import { renderSlackMessage } from '../../adapters/slack/render-message.js';
import { withMuteActions } from '../../src/delivery/mute-actions.js';
import { composeDigest } from '../../src/messages/index.js';
import type { Message } from '../../src/ports/index.js';
import { BUSY_HOUR, DIGEST_EXAMPLES } from './digest-examples.js';

const commands = readFileSync(new URL('../../docs/commands.md', import.meta.url), 'utf8');
/** JSON in the docs is wrapped and trimmed with "…"; compare the strings in it, spaced as JSON.stringify would. */
const jsonText = (value: string) => JSON.stringify(value);

function example(name: keyof typeof DIGEST_EXAMPLES): Message {
  const [message, ...rest] = composeDigest(DIGEST_EXAMPLES[name]);
  expect(rest).toEqual([]);
  if (message === undefined) throw new Error(`no ${name} digest`);
  return message;
}

describe('docs/commands.md shows the digests the renderers draw', () => {
  for (const name of Object.keys(DIGEST_EXAMPLES) as (keyof typeof DIGEST_EXAMPLES)[]) {
    it(`the ${name} example, as the console prints it`, () => {
      expect(commands).toContain(`\`\`\`\n${renderConsoleMessage(example(name))}\n\`\`\``);
    });

    it(`the ${name} example, on Slack and Discord`, () => {
      const message = withMuteActions(example(name), ['s1a2b3c']);
      const slack = renderSlackMessage(message);
      // The headline and the text section, exactly.
      for (const block of slack.blocks.slice(0, 2)) {
        expect(commands).toContain(jsonText((block['text'] as { text: string }).text));
      }
      // The first line of the list, exactly (the docs elide the rest).
      const list = (slack.blocks[2]?.['text'] as { text: string } | undefined)?.text ?? '';
      expect(commands).toContain(jsonText(list.split('\n')[0] as string).slice(0, -1));
      const embed = renderDiscordMessage(message).embeds?.[0];
      expect(commands).toContain(jsonText(embed?.title ?? ''));
      const description = embed?.description ?? '';
      expect(commands).toContain(jsonText(description.split('\n\n')[0] as string).slice(0, -1));
    });
  }

  it('the Slack and Discord top 5 in full, with the Mute button delivery adds', () => {
    const message = withMuteActions(example('daily top 5'), ['s1a2b3c']);
    const slack = renderSlackMessage(message);
    expect(commands).toContain(
      JSON.stringify(slack.blocks.at(-1)?.['elements']).replaceAll('":', '": ').replaceAll(',"', ', "'),
    );
    const discord = renderDiscordMessage(message);
    expect(commands).toContain(`"timestamp": "${discord.embeds?.[0]?.timestamp}"`);
    expect(commands).toContain(`"color": ${discord.embeds?.[0]?.color}`);
  });
});

describe('docs/commands.md shows a digest longer than one message as the one message it is', () => {
  const [head, ...replies] = composeDigest(BUSY_HOUR, { rest: 'thread' });
  const [summary, ...more] = composeDigest(BUSY_HOUR, {
    rest: 'summary',
    seeMore: '/directory digest s1a2b3c 2',
  });

  it('has a thread on Slack and Discord, and says so in the message', () => {
    expect(replies.length).toBeGreaterThan(0);
    const section = renderSlackMessage(head!).blocks[1]?.['text'] as { text: string };
    expect(commands).toContain(`"text": ${jsonText(section.text)}}`);
    const description = renderDiscordMessage(head!).embeds?.[0]?.description ?? '';
    expect(commands).toContain(
      `"description": ${jsonText(description.split('\n\n')[0] as string).slice(0, -1)}`,
    );
  });

  it('is counted on the message where there is no thread, naming where to see the rest', () => {
    expect(more).toEqual([]);
    const printed = renderConsoleMessage(summary!).split('\n');
    // Up to its first line, as the docs show it before eliding the rest of the list.
    const shown = printed.slice(0, printed.findIndex((line) => line.includes('→')) + 1);
    expect(commands).toContain(shown.map((line) => (line === '' ? '' : `  ${line}`)).join('\n'));
  });
});
