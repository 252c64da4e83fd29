import { describe, expect, it } from 'vitest';
import {
  DISCORD_LIMITS,
  escapeMarkdown,
  renderDiscordMessage,
  renderDiscordReply,
} from '../../../adapters/discord/index.js';
import { REQUEST_SCHEMAS, validateAgainstSpec } from '../../fakes/discord/discord-spec.js';
import { documentedLimitProblems } from '../../fakes/discord/fake-discord-rest.js';
import { sampleMessage } from '../../support/discord-interactions.js';

const HOSTILE =
  '@everyone @here <@123456789012345678> <@&123456789012345678> <#123456789012345678> [click](https://evil.example) **bold** `code` ||spoiler|| > quote';

/**
 * A file name spoofed with a right-to-left override (reads as "invoice_exe.png"), a name split by
 * zero-width characters, an isolate left open, a BOM, and a legitimate emoji ZWJ sequence.
 */
const SPOOFED =
  'invoice\u202egnp.exe from Pay\u200bPal\u2060 \u2067admin\u200f \ufeff@\u200beveryone 👩\u200d💻';
/** Bidi controls and invisible formatting, except the zero-width space we put after an `@` or `<` ourselves. */
const INVISIBLE = /[\u061c\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[^@<]\u200b/;

/** Every string Discord would show from a body: content and every embed text. */
function shownTexts(body: ReturnType<typeof renderDiscordMessage>): string[] {
  return [
    body.content ?? '',
    ...(body.embeds ?? []).flatMap((e) => [
      e.title ?? '',
      e.description ?? '',
      e.footer?.text ?? '',
      e.author?.name ?? '',
      ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
    ]),
  ];
}

function allText(body: ReturnType<typeof renderDiscordMessage>): number {
  return (body.embeds ?? []).reduce(
    (sum, e) =>
      sum +
      (e.title?.length ?? 0) +
      (e.description?.length ?? 0) +
      (e.footer?.text.length ?? 0) +
      (e.author?.name.length ?? 0) +
      (e.fields ?? []).reduce((s, f) => s + f.name.length + f.value.length, 0),
    0,
  );
}

describe('renderDiscordMessage', () => {
  it('renders a feed message as one embed with colour, link, timestamp, thumbnail and no mentions', () => {
    const body = renderDiscordMessage(
      sampleMessage({
        thumbnailUrl: 'https://img.example/t.png',
        author: { name: 'Alice', url: 'https://directory.example/@alice' },
      }),
    );
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.embeds).toHaveLength(1);
    const [embed] = body.embeds!;
    expect(embed).toMatchObject({
      title: 'Directory Bot',
      url: 'https://directory.example/posts/directory-bot',
      color: 0xda552f,
      timestamp: '2025-01-02T03:04:05.000Z',
      thumbnail: { url: 'https://img.example/t.png' },
      author: { name: 'Alice', url: 'https://directory.example/@alice' },
      footer: { text: 'Directory · new post' },
      fields: [{ name: 'Votes', value: '42', inline: true }],
    });
    expect(validateAgainstSpec(REQUEST_SCHEMAS.createMessage, body)).toEqual([]);
  });

  it('keeps a 5,000+ character body and 40 huge fields within every embed limit', () => {
    const huge = sampleMessage({
      title: 'T'.repeat(400),
      text: 'word '.repeat(1200),
      footer: 'F'.repeat(3000),
      author: { name: 'A'.repeat(400) },
      fields: Array.from({ length: 40 }, (_, i) => ({ name: `N${i}`.repeat(200), value: 'v'.repeat(2000) })),
    });
    const body = renderDiscordMessage(huge);
    expect(documentedLimitProblems(body)).toEqual([]);
    expect(validateAgainstSpec(REQUEST_SCHEMAS.createMessage, body)).toEqual([]);
    const [embed] = body.embeds!;
    expect(embed!.title!.length).toBe(DISCORD_LIMITS.title);
    expect(embed!.title!.endsWith('…')).toBe(true);
    expect(embed!.description!.length).toBeGreaterThan(500);
    expect(embed!.description!.endsWith('…')).toBe(true);
    expect(embed!.fields!.length).toBeLessThanOrEqual(DISCORD_LIMITS.fields);
    expect(allText(body)).toBeLessThanOrEqual(DISCORD_LIMITS.embedTotal);
  });

  it('escapes hostile user text so it cannot fake links, mentions or formatting', () => {
    const body = renderDiscordMessage(
      sampleMessage({ title: HOSTILE, text: HOSTILE, fields: [{ name: HOSTILE, value: HOSTILE }] }),
    );
    const [embed] = body.embeds!;
    for (const text of [
      embed!.title!,
      embed!.description!,
      embed!.fields![0]!.name,
      embed!.fields![0]!.value,
    ]) {
      expect(text).not.toMatch(/(^|[^\\])<@/);
      expect(text).not.toMatch(/(^|[^\\])<#/);
      expect(text).not.toMatch(/(^|[^\\])\[click(\\)?\]\(/);
      expect(text).not.toContain('@everyone');
      expect(text).not.toContain('@here');
      expect(text).toContain('\\*\\*bold\\*\\*');
      expect(text).toContain('\\|\\|spoiler\\|\\|');
    }
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });

  it('neutralises mentions in the footer and author name without adding visible backslashes', () => {
    const body = renderDiscordMessage(
      sampleMessage({ footer: 'by @everyone *star*', author: { name: '<@123456789012345678>' } }),
    );
    const [embed] = body.embeds!;
    expect(embed!.footer!.text).toBe('by @\u200beveryone *star*');
    expect(embed!.author!.name).toBe('<\u200b@123456789012345678>');
  });

  it('drops bidi overrides and invisible characters from every shown string, keeping emoji sequences whole', () => {
    const body = renderDiscordMessage(
      sampleMessage({
        title: SPOOFED,
        text: SPOOFED,
        fields: [{ name: SPOOFED, value: SPOOFED }],
        footer: SPOOFED,
        author: { name: SPOOFED },
      }),
    );
    const texts = shownTexts(body);
    for (const text of texts) expect(text).not.toMatch(INVISIBLE);
    const [embed] = body.embeds!;
    expect(embed!.footer!.text).toBe('invoicegnp.exe from PayPal admin @\u200beveryone 👩\u200d💻');
    expect(embed!.author!.name).toBe('invoicegnp.exe from PayPal admin @\u200beveryone 👩\u200d💻');
    expect(embed!.description).toBe('invoicegnp.exe from PayPal admin @\u200beveryone 👩\u200d💻');
  });

  it('drops a bidi override hidden inside a bare URL, which is otherwise left as written', () => {
    expect(escapeMarkdown('get https://files.example/invoice\u202egnp.exe')).toBe(
      'get https://files.example/invoicegnp.exe',
    );
  });

  it('drops links that are not absolute http(s) URLs, like a redacted profile', () => {
    const body = renderDiscordMessage(
      sampleMessage({
        url: '[REDACTED]',
        thumbnailUrl: 'javascript:alert(1)',
        author: { name: 'someone', url: '[REDACTED]' },
      }),
    );
    const [embed] = body.embeds!;
    expect(embed!.url).toBeUndefined();
    expect(embed!.thumbnail).toBeUndefined();
    expect(embed!.author).toEqual({ name: 'someone' });
  });

  it('leaves bare URLs in text intact so they still link', () => {
    expect(escapeMarkdown('see https://x.example/a_b_c now_ok')).toBe('see https://x.example/a_b_c now\\_ok');
  });
});

describe('renderDiscordMessage of a one-line (compact or title) message', () => {
  it('is one embed holding only the escaped title, its link and colour: no body, fields or buttons', () => {
    const body = renderDiscordMessage({
      kind: 'comment',
      layout: 'line',
      title: `New comment by ${HOSTILE}`,
      url: 'https://directory.example/posts/1',
      color: '#4b86d4',
      fallback: 'x',
    });
    expect(body.components).toBeUndefined();
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.embeds).toHaveLength(1);
    const [embed] = body.embeds!;
    expect(Object.keys(embed!).sort()).toEqual(['color', 'title', 'url']);
    expect(embed!.url).toBe('https://directory.example/posts/1');
    expect(embed!.title).not.toContain('@everyone');
    expect(embed!.title).not.toMatch(/(^|[^\\])<@/);
    expect(embed!.title).toContain('\\*\\*bold\\*\\*');
    expect(validateAgainstSpec(REQUEST_SCHEMAS.createMessage, body)).toEqual([]);
  });
});

describe('renderDiscordReply', () => {
  it('is ephemeral by default with a share button carrying the command text', () => {
    const body = renderDiscordReply(
      { visibility: 'ephemeral', text: 'Here you go', messages: [sampleMessage()], shareable: true },
      { commandText: 'post 42' },
    );
    expect(body.flags).toBe(64);
    expect(body.content).toBe('Here you go');
    expect(body.components?.[0]?.components[0]).toMatchObject({
      type: 2,
      label: 'Share in channel',
      custom_id: 'directory:share:post 42',
    });
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(validateAgainstSpec('IncomingWebhookRequestPartial', body)).toEqual([]);
  });

  it('drops bidi overrides and invisible characters from the lead text and the results', () => {
    const body = renderDiscordReply(
      {
        visibility: 'ephemeral',
        text: SPOOFED,
        messages: [sampleMessage({ title: SPOOFED })],
        shareable: true,
      },
      { commandText: 'post 42' },
    );
    for (const text of shownTexts(body)) expect(text).not.toMatch(INVISIBLE);
    expect(body.content).toBe('invoicegnp.exe from PayPal admin @\u200beveryone 👩\u200d💻');
  });

  it('shows errors ephemerally with usage, even when the reply asked for the channel', () => {
    const body = renderDiscordReply({
      visibility: 'in_channel',
      text: 'Unknown feed',
      messages: [],
      shareable: true,
      error: { code: 'command_usage', usage: 'subscribe <feed> `x`' },
    });
    expect(body.flags).toBe(64);
    expect(body.content).toBe("Unknown feed\nUsage: `subscribe <feed> 'x'`");
    expect(body.components).toBeUndefined();
  });

  it('fits twelve long results into ten embeds and 6,000 characters, saying how many were left out', () => {
    const messages = Array.from({ length: 12 }, (_, i) =>
      sampleMessage({ title: `Post ${i}`, text: 'x'.repeat(3000) }),
    );
    const body = renderDiscordReply({
      visibility: 'in_channel',
      text: 'x'.repeat(2500),
      messages,
      shareable: false,
    });
    expect(body.embeds).toHaveLength(10);
    expect(body.content!.length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
    expect(body.content!.endsWith('…')).toBe(true);
    expect(documentedLimitProblems(body)).toEqual([]);
    expect(body.flags).toBeUndefined();
    const withNote = renderDiscordReply({ visibility: 'ephemeral', text: 'Top', messages, shareable: false });
    expect(withNote.content).toBe('Top\n…and 2 more');
  });

  it('escapes a body of many blank lines at once, still escaping line-start markers', () => {
    expect(escapeMarkdown('a\n  > quote\r\n# head')).toBe('a\n  \\> quote\r\n\\# head');
    // A scan from every line start (the old pattern took 1 s on 68k characters) would need
    // about a minute on 480k and trip the timeout; one pass takes milliseconds.
    const blank = ' \n\t'.repeat(160_000);
    expect(escapeMarkdown(blank)).toBe(blank);
  }, 10_000);
});
