import { describe, expect, it } from 'vitest';
import { renderSlackMessage, renderSlackReply } from '../../../adapters/slack/index.js';
import type { Message } from '../../../src/ports/index.js';
import { blockKitViolations } from '../../fakes/slack/block-kit-limits.js';

const HOSTILE = [
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<!here|here>',
  '<@U123ABC>',
  '<@U123ABC|bob>',
  '<#C024BE7LR|general>',
  '<!subteam^S123|devs>',
  '<https://evil.example|Click me>',
  '<!date^0^{date}|x>',
];

function hostileMessage(): Message {
  const all = HOSTILE.join(' ');
  return {
    kind: 'comment',
    title: `Title ${all}`,
    url: 'https://directory.example/posts/1',
    text: `Body ${all} & more`,
    fields: [{ name: `Name ${all}`, value: `Value ${all}` }],
    author: { name: `Author ${all}`, iconUrl: 'https://img.example/a.png' },
    timestamp: '2024-05-01T12:00:00Z',
    footer: `Footer ${all}`,
    fallback: `Fallback ${all} @here @channel`,
  };
}

/**
 * A file name spoofed with a right-to-left override (reads as "invoice_exe.png"), a name split by
 * zero-width characters, an isolate left open, a BOM, and a legitimate emoji ZWJ sequence.
 */
const SPOOFED =
  'invoice_\u202egnp.exe from Pay\u200bPal\u2060 \u2067admin\u200f \ufeff@\u200beveryone 👩\u200d💻';
const SPOOF_FREE = 'invoice_gnp.exe from PayPal admin @\u200beveryone 👩\u200d💻';
/** Bidi controls and invisible formatting, except the zero-width space we put after an `@` ourselves. */
const INVISIBLE = /[\u061c\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[^@]\u200b/;

/** Every string in the payload, wherever it sits. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('renderSlackMessage of a one-line (compact or title) message', () => {
  const line = (title: string, url?: string): Message => ({
    kind: 'comment',
    layout: 'line',
    title,
    ...(url === undefined ? {} : { url }),
    fallback: title,
  });

  it('is one section linking the escaped line: no header, no button, and nothing in it can ping', () => {
    const title = `New comment by @everyone: ${HOSTILE.join(' ')} @here`;
    const payload = renderSlackMessage(line(title, 'https://directory.example/posts/1'));
    expect(payload.blocks).toHaveLength(1);
    const [block] = payload.blocks;
    expect(block).toMatchObject({ type: 'section', text: { type: 'mrkdwn', verbatim: true } });
    const text = (block?.['text'] as { text: string } | undefined)?.text ?? '';
    expect(
      text.startsWith('<https://directory.example/posts/1|New comment by @\u200beveryone: &lt;!channel&gt;'),
    ).toBe(true);
    expect(text.endsWith('@\u200bhere>')).toBe(true);
    // Our link markup is the only raw `<` and `>`: the title can neither close it nor open a mention.
    expect(text.slice(1, -1)).not.toMatch(/[<>]/);
    for (const sequence of HOSTILE) expect(JSON.stringify(payload)).not.toContain(sequence);
    expect(payload.text).not.toMatch(/@(here|everyone)\b/);
    expect(blockKitViolations(payload.blocks)).toEqual([]);
  });

  it('keeps a huge line within the section limit, never cutting an entity, and a | in the URL out of the markup', () => {
    const payload = renderSlackMessage(line('a&<'.repeat(2500), 'https://directory.example/p?x=a|b'));
    const text = (payload.blocks[0]?.['text'] as { text: string } | undefined)?.text ?? '';
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(text.startsWith('<https://directory.example/p?x=a%7Cb|a&amp;&lt;')).toBe(true);
    expect(text).toMatch(/…>$/);
    expect(text).not.toMatch(/&(a|am|l|lt|g)?…>$/);
    expect(blockKitViolations(payload.blocks)).toEqual([]);
  });

  it('shows the line unlinked when there is no usable link', () => {
    const payload = renderSlackMessage(line('<!channel> title', 'javascript:alert(1)'));
    expect(payload.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: '&lt;!channel&gt; title', verbatim: true } },
    ]);
  });
});

describe('renderSlackMessage', () => {
  it('escapes every hostile control sequence in every user-supplied string', () => {
    const payload = renderSlackMessage(hostileMessage());
    const texts = strings(payload);
    for (const text of texts) {
      for (const sequence of HOSTILE) expect(text).not.toContain(sequence);
      // The only raw `<` we emit is our own date token.
      expect(text.replace(/<!date\^\d+\^\{date_short_pretty\} at \{time\}\|[^<>]*>/g, '')).not.toMatch(
        /[<>]/,
      );
    }
    expect(payload.blocks[0]).toMatchObject({ type: 'header', text: { type: 'plain_text' } });
    expect(JSON.stringify(payload)).toContain('&lt;!channel&gt;');
    expect(JSON.stringify(payload)).toContain('&lt;@U123ABC&gt;');
    expect(payload.text).toContain('&lt;!here&gt;');
  });

  it('defuses plain @here and @channel in the fallback text', () => {
    const payload = renderSlackMessage(hostileMessage());
    expect(payload.text).not.toMatch(/@(here|channel)\b/);
    expect(payload.text).toContain('@\u200bhere');
  });

  it('drops bidi overrides and invisible characters from every string, keeping emoji sequences whole', () => {
    const payload = renderSlackMessage({
      kind: 'comment',
      title: SPOOFED,
      url: 'https://directory.example/posts/1',
      text: SPOOFED,
      fields: [{ name: SPOOFED, value: SPOOFED }],
      author: { name: SPOOFED },
      timestamp: '2024-05-01T12:00:00Z',
      footer: SPOOFED,
      fallback: SPOOFED,
    });
    const texts = strings(payload);
    for (const text of texts) expect(text).not.toMatch(INVISIBLE);
    expect(payload.text).toBe(SPOOF_FREE);
    expect(payload.blocks[0]).toMatchObject({ type: 'header', text: { text: SPOOF_FREE } });
    expect(JSON.stringify(payload.blocks)).toContain(`*${SPOOF_FREE}*\\n${SPOOF_FREE}`);
  });

  it('does not cut text that only invisible characters made look too long', () => {
    const padded = `${'\u200b'.repeat(200)}Short title`;
    const payload = renderSlackMessage({ kind: 'post', title: padded, fallback: padded });
    expect(payload.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Short title' } });
  });

  it('marks user text verbatim so Slack does not auto-link it', () => {
    const payload = renderSlackMessage(hostileMessage());
    const section = payload.blocks.find((b) => b['type'] === 'section' && b['text'] !== undefined);
    expect(section?.['text']).toMatchObject({ type: 'mrkdwn', verbatim: true });
  });

  it('returns exactly the chat.postMessage arguments with unfurls off and no link_names', () => {
    const payload = renderSlackMessage(hostileMessage());
    expect(Object.keys(payload).sort()).toEqual(['blocks', 'text', 'unfurl_links', 'unfurl_media']);
    expect(payload.unfurl_links).toBe(false);
    expect(payload.unfurl_media).toBe(false);
  });

  it('keeps a 5,000+ character body and long everything else within Block Kit limits', () => {
    const long = 'a&<'.repeat(2500);
    const message: Message = {
      kind: 'post',
      title: long,
      url: 'https://directory.example/p/1',
      text: long,
      fields: Array.from({ length: 600 }, (_, i) => ({ name: `${i} ${long}`, value: long })),
      imageUrl: 'https://img.example/big.png',
      thumbnailUrl: 'https://img.example/small.png',
      author: { name: long },
      footer: long,
      fallback: long,
    };
    const payload = renderSlackMessage(message);
    expect(blockKitViolations(payload.blocks)).toEqual([]);
    expect(payload.blocks.length).toBeLessThanOrEqual(50);
    const section = payload.blocks.find((b) => b['type'] === 'section' && b['text'] !== undefined);
    const text = (section?.['text'] as { text: string } | undefined)?.text ?? '';
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(text.endsWith('…')).toBe(true);
    // Never cut an entity in half.
    expect(text).not.toMatch(/&(a|am|l|lt|g)?…$/);
    expect(payload.blocks.at(-1)).toMatchObject({ type: 'actions' });
    expect(payload.text.length).toBeLessThanOrEqual(3000);
  });

  it('drops URLs Slack would refuse instead of failing the post', () => {
    const payload = renderSlackMessage({
      kind: 'user',
      title: 'someone',
      url: '[REDACTED]',
      imageUrl: `https://img.example/${'x'.repeat(3100)}`,
      thumbnailUrl: 'javascript:alert(1)',
      fallback: 'someone',
    });
    expect(payload.blocks).toEqual([
      { type: 'header', text: { type: 'plain_text', text: 'someone', emoji: true } },
    ]);
  });

  it('renders the time as a Slack date token in the reader time zone', () => {
    const payload = renderSlackMessage({
      kind: 'post',
      title: 't',
      timestamp: '2024-05-01T12:00:00Z',
      fallback: 't',
    });
    const context = payload.blocks.find((b) => b['type'] === 'context');
    expect(JSON.stringify(context)).toContain(
      '<!date^1714564800^{date_short_pretty} at {time}|2024-05-01T12:00:00Z>',
    );
  });
});

describe('renderSlackReply', () => {
  const result: Message = { kind: 'post', title: 'A post', url: 'https://d.example/1', fallback: 'A post' };

  it('offers a Share in channel button carrying the command text on shareable ephemeral results', () => {
    const reply = renderSlackReply(
      { visibility: 'ephemeral', text: 'Found 1', messages: [result], shareable: true },
      { shareValue: 'post 1' },
    );
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.blocks.at(-1)).toMatchObject({
      type: 'actions',
      elements: [{ action_id: 'directory_share', value: 'post 1' }],
    });
  });

  it('answers errors ephemerally with the escaped usage and no share button', () => {
    const reply = renderSlackReply(
      {
        visibility: 'in_channel',
        text: 'Unknown <!channel> command',
        messages: [],
        shareable: true,
        error: { code: 'command_usage', usage: '/directory post <slug>' },
      },
      { shareValue: 'bad' },
    );
    expect(reply.response_type).toBe('ephemeral');
    expect(JSON.stringify(reply)).not.toContain('<!channel>');
    expect(JSON.stringify(reply.blocks)).toContain('/directory post &lt;slug&gt;');
    expect(JSON.stringify(reply.blocks)).not.toContain('directory_share');
  });

  it('drops bidi overrides and invisible characters from the lead line and the results', () => {
    const reply = renderSlackReply(
      { visibility: 'ephemeral', text: SPOOFED, messages: [{ ...result, title: SPOOFED }], shareable: true },
      { shareValue: 'post 1' },
    );
    for (const text of strings(reply)) expect(text).not.toMatch(INVISIBLE);
    expect(reply.text).toBe(SPOOF_FREE);
  });

  it('fits many results in 50 blocks and says how many were left out', () => {
    const messages = Array.from({ length: 40 }, () => result);
    const reply = renderSlackReply(
      { visibility: 'ephemeral', text: 'Many', messages, shareable: true },
      { shareValue: 'posts' },
    );
    expect(reply.blocks.length).toBeLessThanOrEqual(50);
    expect(blockKitViolations(reply.blocks)).toEqual([]);
    expect(JSON.stringify(reply.blocks)).toMatch(/…and \d+ more/);
  });
});
