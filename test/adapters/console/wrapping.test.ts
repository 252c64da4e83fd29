import { describe, expect, it } from 'vitest';
import { renderConsoleReply } from '../../../adapters/console/index.js';
import { wrap } from '../../../adapters/console/terminal-text.js';
import { helpReply } from '../../../src/commands/help.js';
import { COMMAND_SPECS } from '../../../src/commands/index.js';
import { errorReply } from '../../../src/commands/replies.js';

const SUBSCRIBE_USAGE = COMMAND_SPECS.find((spec) => spec.name === 'subscribe')?.usage ?? '';

/** The innermost `[…]` and `<…>` groups of a usage: an option with its value, like `[--top N]`. */
function innermostGroups(usage: string): string[] {
  return [...usage.matchAll(/\[[^[\]<>]*\]|<[^<>[\]]*>/g)].map((m) => m[0]);
}

/** The words of `usage` (its choices apart) that no line of `text` holds whole: cut mid-word. */
function cutWords(text: string, usage: string): string[] {
  const lines = text.split('\n');
  const words = usage.split(/[\s|[\]<>]+/).filter((word) => word !== '');
  return words.filter((word) => !lines.some((line) => line.split(/[\s|[\]<>]+/).includes(word)));
}

/** The groups of `usage` that no single line of `text` holds whole: each was cut across lines. */
function cutGroups(text: string, usage: string): string[] {
  const lines = text.split('\n');
  return innermostGroups(usage).filter((group) => !lines.some((line) => line.includes(group)));
}

describe('the bot’s own text on a terminal of any width', () => {
  it.each([100, 80, 60, 44])(
    'help at %i columns: no line longer, none cut inside an option, remind’s forms each a line of its own',
    (width) => {
      const text = renderConsoleReply(helpReply(COMMAND_SPECS, undefined), { width });
      const lines = text.split('\n');
      // Every line but the lead sentence (prose, left to the terminal) fits the width.
      for (const line of lines.slice(1)) expect([...line].length, line).toBeLessThanOrEqual(width);
      // The terminal would otherwise cut `full|co` / `mpact` itself: no word is cut, and where
      // the width allows, no option from its value.
      for (const spec of COMMAND_SPECS) {
        expect(cutWords(text, spec.usage)).toEqual([]);
        if (width >= 60) expect(cutGroups(text, spec.usage)).toEqual([]);
      }
      expect(text).toContain('[--format full|compact|title]');
      // `cancel <id>` is never a line of its own: each form of remind is a line starting with remind.
      expect(lines.map((line) => line.trim())).toContain('remind cancel <id>');
      expect(lines.map((line) => line.trim())).not.toContain('cancel <id>');
    },
  );

  it('indents what a usage line wraps onto, below its command and above its description', () => {
    const lines = renderConsoleReply(helpReply(COMMAND_SPECS, undefined), { width: 80 }).split('\n');
    const first = lines.findIndex((line) => line.startsWith('  subscribe <posts|'));
    const description = lines.findIndex((line) => line.includes('Follow a feed in this channel'));
    expect(first).toBeGreaterThan(-1);
    expect(description).toBeGreaterThan(first + 1);
    for (const line of lines.slice(first + 1, description)) expect(line).toMatch(/^ {4}\[/);
    expect(lines[description]).toMatch(/^ {6}Follow/);
  });

  it('wraps a refused command’s Usage line at the width, whole words and options only', () => {
    const reply = errorReply('command_usage', 'Unknown feed "tweets".', SUBSCRIBE_USAGE, 'feed');
    const text = renderConsoleReply(reply, { width: 70 });
    const usage = text.slice(text.indexOf('Usage: '));
    for (const line of usage.split('\n')) expect([...line].length, line).toBeLessThanOrEqual(70);
    expect(cutGroups(usage, SUBSCRIBE_USAGE)).toEqual([]);
    // Read back as one line, it is the usage, every word whole.
    expect(usage.replace(/\n\s+/g, ' ')).toBe(`Usage: ${SUBSCRIBE_USAGE}`);
  });

  it('reads the terminal’s width when it prints, not when it started', () => {
    let columns = 120;
    const reply = errorReply('command_usage', 'No.', SUBSCRIBE_USAGE, 'feed');
    const wide = renderConsoleReply(reply, { width: () => columns });
    columns = 50;
    const narrow = renderConsoleReply(reply, { width: () => columns });
    expect(narrow.split('\n').length).toBeGreaterThan(wide.split('\n').length);
    for (const line of narrow.split('\n')) expect([...line].length).toBeLessThanOrEqual(50);
  });

  it('still hard-breaks a word longer than the line, and wraps prose as before', () => {
    expect(wrap('a https://example.com/a-very-long-link', 12)).toEqual([
      'a',
      'https://exam',
      'ple.com/a-ve',
      'ry-long-link',
    ]);
    expect(wrap('one two three four', 9)).toEqual(['one two', 'three', 'four']);
    expect(wrap('one two three four', 9, { hang: 2 })).toEqual(['one two', 'three', 'four']);
    expect(wrap('aaa bbb ccc ddd eee fff ggg hhh', 14, { hang: 2 })).toEqual([
      'aaa bbb ccc',
      '  ddd eee fff',
      '  ggg hhh',
    ]);
  });
});
