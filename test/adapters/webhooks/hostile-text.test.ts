import { describe, expect, it } from 'vitest';
import { renderDiscordWebhookMessage } from '../../../adapters/discord/webhook.js';
import { renderSlackWebhookMessage } from '../../../adapters/slack/webhook.js';
import {
  JSON_WEBHOOK,
  renderMattermostMessage,
  renderTeamsMessage,
} from '../../../adapters/webhooks/index.js';
import type { Message } from '../../../src/ports/index.js';
import { mattermostPings } from '../../fakes/webhooks/fake-mattermost.js';
import { slackPings } from '../../fakes/webhooks/fake-slack-webhooks.js';

/**
 * The hostile-text render contract, for every webhook renderer: text from the directory (titles,
 * bodies, names, fields, list entries, footers) can ping nobody, form no link or markup of its own,
 * and keeps no invisible formatting; only the configured mentions ping. Each renderer's platform
 * is checked by its own rules (Slack's `<…>` markup, Discord's allowed_mentions and `[…](…)`, Teams'
 * `<at>` tags and markdown links, Mattermost's `@name`), and the generic JSON payload passes the
 * text on as plain text, untouched, for the receiver to escape.
 */

const HOSTILE = [
  '<!channel>',
  '<!here|here>',
  '<@U123ABC>',
  '<!subteam^S123|devs>',
  '<@&112233445566778899>',
  '<@112233445566778899>',
  '@everyone',
  '@here',
  '@channel',
  '@all',
  '@alice',
  '<at>Jane</at>',
  '[Click me](https://evil.example/phish)',
  '![img](https://evil.example/x.png)',
  '**bold** _it_ `code` ~~s~~',
  '# Heading',
  '> quote',
  '{{DATE(2020-01-01T00:00:00Z, SHORT)}}',
  '<https://evil.example|Click me>',
].join(' ');

const SPOOFED = 'invoice_\u202egnp.exe Pay\u200bPal\u2060 \u2067admin\u200f \ufeff';
/** Bidi controls and invisible formatting a renderer must drop (the zero-width space after an `@` is ours). */
const INVISIBLE = /[\u061c\u200c\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[^@<]\u200b/;

function hostile(mentions?: Message['mentions']): Message {
  return {
    kind: 'comment',
    title: `Title ${HOSTILE} ${SPOOFED}`,
    url: 'https://directory.example/posts/1',
    text: `Body ${HOSTILE}\n- list\n1. item ${SPOOFED}`,
    fields: [{ name: `Name ${HOSTILE}`, value: `Value ${HOSTILE}` }],
    author: { name: `Author ${HOSTILE}` },
    footer: `Footer ${HOSTILE}`,
    timestamp: '2024-05-01T12:00:00Z',
    fallback: `Fallback ${HOSTILE}`,
    entries: [
      { title: `Entry ${HOSTILE}`, url: 'https://directory.example/posts/2', detail: `Detail ${HOSTILE}` },
    ],
    ...(mentions === undefined ? {} : { mentions }),
  };
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/** Markdown links `[label](url)` that a renderer would show: only to the directory's own pages. */
function markdownLinkTargets(text: string): string[] {
  return [...text.matchAll(/(?<!\\)\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '');
}

describe('hostile text, on every webhook renderer', () => {
  it('Discord webhooks: nothing in the text pings, and no link leaves the directory', () => {
    const body = renderDiscordWebhookMessage(hostile());
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.content).toBeUndefined();
    for (const text of strings(body.embeds)) expect(text).not.toMatch(INVISIBLE);
    // Discord renders markdown in an embed's title, description and fields (footers and author
    // names are shown as they are).
    const markdown = (body.embeds ?? []).flatMap((e) => [
      e.title ?? '',
      e.description ?? '',
      ...(e.fields ?? []).flatMap((f) => [f.name, f.value]),
    ]);
    for (const text of markdown) {
      for (const target of markdownLinkTargets(text))
        expect(target).toMatch(/^https:\/\/directory\.example\//);
    }
    // With mentions configured, the content holds them and allowed_mentions names only them.
    const pinging = renderDiscordWebhookMessage(hostile([{ kind: 'role', id: '999999999999999999' }]));
    expect(pinging.content).toBe('<@&999999999999999999>');
    expect(pinging.allowed_mentions).toEqual({ parse: [], roles: ['999999999999999999'] });
  });

  it('Slack webhooks: no <…> markup from the text, so only the configured ids notify', () => {
    const body = renderSlackWebhookMessage(hostile());
    expect(slackPings(JSON.stringify(body))).toEqual([]);
    for (const text of strings(body)) expect(text).not.toMatch(INVISIBLE);
    const pinging = renderSlackWebhookMessage(hostile([{ kind: 'group', id: 'S0ONCALL1' }]));
    expect(slackPings(JSON.stringify(pinging))).toEqual(['group:S0ONCALL1']);
  });

  it('Teams cards: no <at> tag, markdown link, date function or formatting from the text', () => {
    const card = renderTeamsMessage(hostile()).attachments[0].content;
    expect(card.msteams.entities).toBeUndefined();
    const texts = strings(card.body);
    for (const text of texts) {
      expect(text).not.toMatch(/<at>/);
      expect(text).not.toMatch(/(?<!\\)\*\*bold/);
      expect(text).not.toMatch(/(?<!\\)\{\{DATE\(2020/);
      for (const target of markdownLinkTargets(text))
        expect(target).toMatch(/^https:\/\/directory\.example\//);
      expect(text).not.toMatch(INVISIBLE);
    }
    const pinging = renderTeamsMessage(hostile([{ kind: 'user', id: 'jane@contoso.com', label: 'Jane' }]))
      .attachments[0].content;
    expect(pinging.msteams.entities?.map((e) => e.mentioned.id)).toEqual(['jane@contoso.com']);
    expect(strings(pinging.body).filter((t) => t.includes('<at>'))).toEqual(['<at>Jane</at>']);
  });

  it('Mattermost: no @name, link or formatting from the text; only the configured names notify', () => {
    const body = renderMattermostMessage(hostile());
    expect(body.text).toBeUndefined();
    for (const text of strings(body.attachments)) {
      expect(mattermostPings(text)).toEqual([]);
      expect(text).not.toMatch(INVISIBLE);
    }
    // Mattermost renders markdown in an attachment's text and its fields' values (titles, names
    // and the footer are shown as they are).
    const [attachment] = body.attachments;
    for (const text of [attachment.text ?? '', ...(attachment.fields ?? []).map((f) => f.value)]) {
      for (const target of markdownLinkTargets(text))
        expect(target).toMatch(/^https:\/\/directory\.example\//);
    }
    const pinging = renderMattermostMessage(hostile([{ kind: 'user', id: 'carol' }]));
    expect(mattermostPings(pinging.text ?? '')).toEqual(['carol']);
  });

  it('the JSON payload carries the text as the directory wrote it, and mentions only as configured', () => {
    const payload = JSON_WEBHOOK.render(hostile()) as { message: Message; mentions: unknown[] };
    expect(payload.message.title).toBe(hostile().title);
    expect(payload.mentions).toEqual([]);
  });
});
