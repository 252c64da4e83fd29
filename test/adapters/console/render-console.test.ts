import { describe, expect, it } from 'vitest';
import {
  CONSOLE_BODY_MAX,
  oneLine,
  renderConsoleMessage,
  renderConsoleReply,
  stripControls,
} from '../../../adapters/console/index.js';
import type { Message } from '../../../src/ports/index.js';

const comment: Message = {
  kind: 'comment',
  title: 'New comment on Analytical Engine',
  url: 'https://www.example-directory.test/posts/analytical-engine?comment=402133',
  text: 'Congrats on the launch!',
  fields: [
    { name: 'Votes', value: '3', inline: true },
    { name: 'Replies', value: '2', inline: true },
    { name: 'Makers', value: 'Ada Lovelace and 1 other', inline: false },
  ],
  author: { name: 'Ada Lovelace', url: 'https://www.example-directory.test/@ada' },
  timestamp: '2017-03-09T08:29:11.627Z',
  color: '#4b86d4',
  footer: 'Directory · new comment',
  fallback: 'New comment by Ada Lovelace on "Analytical Engine": Congrats on the launch!',
};

// biome-ignore lint/suspicious/noControlCharactersInRegex: the assertion is about control characters
const ANY_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('renderConsoleMessage', () => {
  it('lays out title, author, body, fields, link and time', () => {
    expect(renderConsoleMessage(comment)).toBe(
      [
        'New comment on Analytical Engine',
        '  by Ada Lovelace',
        '',
        '  Congrats on the launch!',
        '',
        '  Votes: 3 · Replies: 2',
        '  Makers: Ada Lovelace and 1 other',
        '',
        '  → https://www.example-directory.test/posts/analytical-engine?comment=402133',
        '  Directory · new comment · 2017-03-09 08:29 UTC',
      ].join('\n'),
    );
  });

  it('renders a one-line (compact or title) message as the line and its link, on one line', () => {
    const line: Message = {
      kind: 'comment',
      layout: 'line',
      title: 'New comment by \u001b[31mAda\u001b[0m\non "Engine": @everyone <!channel>',
      url: comment.url!,
      fallback: 'x',
    };
    expect(renderConsoleMessage(line)).toBe(
      'New comment by Ada on "Engine": @everyone <!channel> → https://www.example-directory.test/posts/analytical-engine?comment=402133',
    );
    const { url: _url, ...unlinked } = line;
    expect(renderConsoleMessage({ ...unlinked, title: 'Only a title' })).toBe('Only a title');
  });

  it('prints the commands behind the buttons as one hint line, and nothing for link buttons', () => {
    const text = renderConsoleMessage({
      kind: 'post',
      title: 'Buttons',
      fallback: 'Buttons',
      actions: [
        { kind: 'command', label: 'Comments', verb: 'comments', target: '7', command: 'comments 7' },
        { kind: 'link', label: 'Open', url: 'https://directory.example/posts/7' },
      ],
    });
    expect(text.split('\n')).toEqual(['Buttons', '  buttons — Comments: /directory comments 7']);
  });

  it('renders a bare message as just its title', () => {
    expect(renderConsoleMessage({ kind: 'info', title: 'Hello', fallback: 'Hello' })).toBe('Hello');
  });

  it('wraps the body to the width and cuts it near 1,000 characters', () => {
    const text = 'lorem ipsum dolor sit amet '.repeat(300);
    const rendered = renderConsoleMessage({ ...comment, text }, { width: 60 });
    const bodyLines = rendered
      .split('\n')
      .filter((line) => line.startsWith('  lorem') || line.includes('ipsum'));
    for (const line of bodyLines) expect([...line].length).toBeLessThanOrEqual(60);
    const body = bodyLines.join(' ');
    expect(body.length).toBeLessThan(CONSOLE_BODY_MAX + bodyLines.length * 3);
    expect(body.trimEnd().endsWith('…')).toBe(true);
  });

  it("shows the bot's own info text whole, keeping its indentation when wrapping", () => {
    const entries = Array.from(
      { length: 40 },
      (_, i) => `command-${i} [--flag N]\n    What command ${i} does, in words`,
    );
    const rendered = renderConsoleMessage(
      { kind: 'info', title: 'Commands', text: entries.join('\n'), fallback: 'Commands' },
      { width: 40 },
    );
    expect(entries.join('\n').length).toBeGreaterThan(CONSOLE_BODY_MAX);
    expect(rendered).not.toContain('…');
    expect(rendered).toContain('  command-39 [--flag N]\n      What command 39 does, in words');
  });

  it('caps the indentation a body keeps, so spaces cannot push text off screen', () => {
    const rendered = renderConsoleMessage(
      { ...comment, text: `first\n${' '.repeat(500)}hidden` },
      { width: 60 },
    );
    expect(rendered).toContain(`\n${' '.repeat(2 + 8)}hidden`);
  });

  it('hard-breaks a word longer than a line', () => {
    const rendered = renderConsoleMessage({ ...comment, text: 'x'.repeat(100) }, { width: 40 });
    expect(rendered).toContain(`  ${'x'.repeat(38)}\n  ${'x'.repeat(38)}\n  ${'x'.repeat(24)}`);
  });

  it('strips escape sequences and control characters from every piece of user text', () => {
    const hostile =
      'red\u001b[31mALERT\u001b[0m\u001b]0;pwned title\u0007 bell\u0007 back\rover \u202eevil\u202c \u009b2J';
    const rendered = renderConsoleMessage({
      ...comment,
      title: hostile,
      text: hostile,
      author: { name: hostile },
      fields: [{ name: hostile, value: hostile }],
      footer: hostile,
    });
    expect(rendered).not.toMatch(ANY_CONTROL);
    expect(rendered).toContain('redALERT bell back');
    expect(rendered).not.toContain('pwned');
  });

  it('keeps RTL text, emoji and mentions readable as plain text', () => {
    const text = 'مرحبا بالعالم 🚀 👩‍💻 <!channel> @everyone <@U123ABC>';
    expect(renderConsoleMessage({ ...comment, text })).toContain(`  ${text}`);
  });

  it('adds its own bold and dim codes only when colour is asked for', () => {
    expect(renderConsoleMessage(comment)).not.toContain('\u001b');
    const coloured = renderConsoleMessage({ ...comment, title: 'T\u001b[5m' }, { color: true });
    expect(coloured.startsWith('\u001b[1mT\u001b[22m')).toBe(true);
  });

  it('never shows a link that is not http(s)', () => {
    const rendered = renderConsoleMessage({ ...comment, url: '[REDACTED]', imageUrl: 'javascript:alert(1)' });
    expect(rendered).not.toContain('→');
    expect(rendered).not.toContain('javascript');
  });
});

describe('stripControls and oneLine', () => {
  it('turns carriage returns and odd line breaks into newlines and tabs into spaces', () => {
    expect(stripControls('a\r\nb\rc\u2028d\te')).toBe('a\nb\nc\nd  e');
  });

  it('collapses everything onto one line', () => {
    expect(oneLine('  a\n\n b\u001b[2K\tc ')).toBe('a b c');
  });
});

describe('renderConsoleReply', () => {
  it('prints the lead line followed by each message', () => {
    const rendered = renderConsoleReply({
      visibility: 'ephemeral',
      text: 'Found 2 results',
      messages: [comment, { kind: 'info', title: 'Second', fallback: 'Second' }],
      shareable: true,
    });
    expect(rendered.startsWith('Found 2 results\n\nNew comment on Analytical Engine\n')).toBe(true);
    expect(rendered.endsWith('\n\nSecond')).toBe(true);
  });

  it('marks a failed command with its sentence and usage, not its internal code', () => {
    const rendered = renderConsoleReply({
      visibility: 'ephemeral',
      text: 'Unknown command "frob"',
      messages: [],
      shareable: false,
      error: { code: 'command_usage', usage: '/directory post <id|slug>' },
    });
    expect(rendered).toBe('✗ Unknown command "frob"\nUsage: /directory post <id|slug>');
  });

  it('prints a failed command without usage as just its sentence', () => {
    const rendered = renderConsoleReply({
      visibility: 'ephemeral',
      text: '',
      messages: [],
      shareable: false,
      error: { code: 'internal' },
    });
    expect(rendered).toBe('✗ The command failed.');
  });
});
