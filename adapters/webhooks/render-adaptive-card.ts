import type { MentionTarget, Message, MessageEntry } from '../../src/ports/index.js';
import { sanitizeUrl, stripInvisibleFormatting, truncate } from '../../src/ports/index.js';
import { escapeLinkLabel, escapeWithin } from './escape-markdown.js';

/**
 * Adaptive Cards for Teams Workflows webhooks ("Post to a channel when a webhook request is
 * received"). The flow posts the first attachment's card as it is, so the card is the message.
 * Text goes in TextBlocks, whose markdown subset (bold, italic, lists, links) is escaped for every
 * string from the directory; the configured mentions are `<at>…</at>` tags backed by
 * `msteams.entities`, the only way a card pings anyone.
 */

export type CardElement = Record<string, unknown>;

export interface AdaptiveCard {
  $schema: string;
  type: 'AdaptiveCard';
  version: string;
  body: CardElement[];
  actions?: CardElement[];
  msteams: { width: 'Full'; entities?: TeamsMentionEntity[] };
}

/** A mention Teams resolves: `text` appears in a TextBlock, `mentioned` says who. */
export interface TeamsMentionEntity {
  type: 'mention';
  text: string;
  mentioned: { id: string; name: string; type?: 'tag' };
}

/** What the webhook is posted: a message whose one attachment is the card. */
export interface TeamsWebhookBody {
  type: 'message';
  attachments: [
    { contentType: 'application/vnd.microsoft.card.adaptive'; contentUrl: null; content: AdaptiveCard },
  ];
}

/**
 * Teams' limits the card is kept within: the Teams connector's post actions refuse a message over
 * "approximately 28 KB" ("Request Entity too large"), so the serialized body stays under 27,000
 * bytes; Teams shows at most six actions on a card.
 */
export const TEAMS_LIMITS = {
  bodyBytes: 27_000,
  actions: 6,
  title: 300,
  text: 4_000,
  facts: 15,
  factName: 100,
  factValue: 500,
} as const;

const BLANK = '\u00a0';

function textBlock(text: string, extra: CardElement = {}): CardElement {
  return { type: 'TextBlock', text: text === '' ? BLANK : text, wrap: true, ...extra };
}

/** A link as markdown `[label](url)`, or the label alone without a usable URL. */
function linked(label: string, url: string | undefined, max: number): string {
  const safe = sanitizeUrl(url);
  const text = escapeLinkLabel(label, max);
  // The URL is encoded where markdown could end it early (`)`, spaces, `<`, `>`).
  return safe === undefined
    ? text
    : `[${text}](${safe.replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)})`;
}

/** Teams shows a date in the reader's zone when it is written as `{{DATE(…)}}` with RFC 3339 time. */
function dateText(timestamp: string | undefined): string | undefined {
  if (timestamp === undefined) return undefined;
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) return undefined;
  const iso = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `{{DATE(${iso}, SHORT)}} {{TIME(${iso})}}`;
}

/** A mention's visible name: its configured label (plain text, no tags) or its id. */
function mentionName(target: MentionTarget): string {
  return truncate(stripInvisibleFormatting(target.label ?? target.id).replace(/[<>]/g, ''), 80);
}

/** Teams can ping a person (UPN, email or Entra object id) or a tag. */
function mentionEntities(message: Message): TeamsMentionEntity[] {
  return (message.mentions ?? [])
    .filter((m) => m.kind === 'user' || m.kind === 'tag')
    .map((m) => ({
      type: 'mention' as const,
      text: `<at>${mentionName(m)}</at>`,
      mentioned: { id: m.id, name: mentionName(m), ...(m.kind === 'tag' ? { type: 'tag' as const } : {}) },
    }));
}

function entryLine(entry: MessageEntry): string {
  const title = linked(entry.title.trim() === '' ? 'Untitled' : entry.title, entry.url, 300);
  const detail = entry.detail?.trim() ? ` — ${escapeWithin(entry.detail, 150)}` : '';
  // A list marker of our own, escaped-proof: the line starts with it, user text never does.
  return `${entry.rank === undefined ? '•' : `${entry.rank}\\.`} ${title}${detail}`;
}

interface Budget {
  text: number;
  facts: number;
  entries: number;
}

function card(message: Message, budget: Budget): AdaptiveCard {
  const body: CardElement[] = [];
  const entities = mentionEntities(message);
  if (entities.length > 0) body.push(textBlock(entities.map((e) => e.text).join(' ')));
  if (message.author !== undefined && message.author.name.trim() !== '') {
    body.push(
      textBlock(escapeWithin(message.author.name, 200), { size: 'small', isSubtle: true, spacing: 'none' }),
    );
  }
  const title = message.title.trim() === '' ? message.fallback : message.title;
  if (message.layout === 'line') {
    body.push(textBlock(linked(title, message.url, TEAMS_LIMITS.title)));
  } else {
    body.push(
      textBlock(linked(title, message.url, TEAMS_LIMITS.title), { size: 'medium', weight: 'bolder' }),
    );
    if (message.text !== undefined && message.text.trim() !== '' && budget.text > 0) {
      body.push(textBlock(escapeWithin(message.text, budget.text)));
    }
    for (const entry of (message.entries ?? []).slice(0, budget.entries)) {
      body.push(textBlock(entryLine(entry), { spacing: 'small' }));
    }
    const left = (message.entries?.length ?? 0) - budget.entries;
    if (left > 0) body.push(textBlock(`…and ${left} more`, { isSubtle: true }));
    const facts = (message.fields ?? []).slice(0, budget.facts).map((field) => ({
      title: escapeWithin(field.name, TEAMS_LIMITS.factName) || BLANK,
      value: escapeWithin(field.value, TEAMS_LIMITS.factValue) || BLANK,
    }));
    if (facts.length > 0) body.push({ type: 'FactSet', facts });
    const image = sanitizeUrl(message.imageUrl) ?? sanitizeUrl(message.thumbnailUrl);
    if (image !== undefined) {
      // Alt text is read out as is, never as markdown: plain, without invisible characters.
      const altText = truncate(stripInvisibleFormatting(title).replace(/\s+/g, ' ').trim(), 200);
      body.push({ type: 'Image', url: image, altText });
    }
  }
  const small = [
    message.footer === undefined || message.footer.trim() === ''
      ? undefined
      : escapeWithin(message.footer, 300),
    dateText(message.timestamp),
  ].filter((part) => part !== undefined);
  if (small.length > 0) body.push(textBlock(small.join(' · '), { size: 'small', isSubtle: true }));

  const actions: CardElement[] = [];
  const open = sanitizeUrl(message.url);
  if (open !== undefined && message.layout !== 'line') {
    actions.push({ type: 'Action.OpenUrl', title: 'Open', url: open });
  }
  for (const action of message.actions ?? []) {
    const url = action.kind === 'link' ? sanitizeUrl(action.url) : undefined;
    if (url !== undefined && url !== open) {
      actions.push({
        type: 'Action.OpenUrl',
        title: truncate(stripInvisibleFormatting(action.label), 40),
        url,
      });
    }
  }
  return {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body,
    ...(actions.length > 0 ? { actions: actions.slice(0, TEAMS_LIMITS.actions) } : {}),
    msteams: { width: 'Full', ...(entities.length > 0 ? { entities } : {}) },
  };
}

function wrapCard(content: AdaptiveCard): TeamsWebhookBody {
  return {
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content }],
  };
}

/**
 * A message as a Teams Workflows webhook posts it: one Adaptive Card with every part of the
 * message (a line for compact and title formats, the list of a digest, the fields as facts), kept
 * within Teams' size limit by shortening the body text, then the facts, then the list.
 */
export function renderTeamsMessage(message: Message): TeamsWebhookBody {
  const budget: Budget = {
    text: TEAMS_LIMITS.text,
    facts: TEAMS_LIMITS.facts,
    entries: message.entries?.length ?? 0,
  };
  for (;;) {
    const body = wrapCard(card(message, budget));
    if (Buffer.byteLength(JSON.stringify(body)) <= TEAMS_LIMITS.bodyBytes) return body;
    if (budget.text > 200) budget.text = Math.floor(budget.text / 2);
    else if (budget.facts > 0) budget.facts -= 1;
    else if (budget.entries > 0) budget.entries -= 1;
    else if (budget.text > 0) budget.text = 0;
    else return body;
  }
}
