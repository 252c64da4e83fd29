import { describe, expect, it } from 'vitest';
import { renderConsoleReply } from '../../adapters/console/index.js';
import { renderDiscordReply } from '../../adapters/discord/render-message.js';
import { renderSlackReply } from '../../adapters/slack/render-reply.js';
import { helpReply } from '../../src/commands/help.js';
import { COMMAND_SPECS } from '../../src/commands/index.js';

/** Every piece of text a rendered payload would show, whatever its shape. */
function shownText(payload: unknown): string {
  if (typeof payload === 'string') return payload;
  if (Array.isArray(payload)) return payload.map(shownText).join('\n');
  if (payload !== null && typeof payload === 'object')
    return Object.values(payload).map(shownText).join('\n');
  return '';
}

const help = helpReply(COMMAND_SPECS, undefined);

describe('help, on every surface', () => {
  it.each([
    ['console', () => renderConsoleReply(help, { width: 80 })],
    ['slack', () => renderSlackReply(help)],
    ['discord', () => renderDiscordReply(help)],
  ])('lists every command with its description on %s, cut nowhere', (_surface, render) => {
    // Markdown escapes (`\*`, `\(`) are how Discord shows the plain character.
    const text = shownText(render()).replace(/\\(.)/g, '$1');
    for (const spec of COMMAND_SPECS) {
      // Descriptions may wrap on a terminal; compare them word for word.
      expect(text.replace(/\s+/g, ' '), spec.name).toContain(spec.description.replace(/\s+/g, ' '));
    }
    expect(text).not.toContain('…');
  });
});
