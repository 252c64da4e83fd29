import type {
  DeliveryOutcome,
  MentionSupport,
  Message,
  WebhookKind,
  WebhookResponse,
} from '../../src/ports/index.js';
import {
  outcomeOfRefusal,
  postWithoutId,
  quoted,
  sanitizeUrl,
  stripInvisibleFormatting,
  truncate,
} from '../../src/ports/index.js';
import { escapeWithin } from './escape-markdown.js';

/** `https://mattermost.example.com/hooks/<26 lower-case letters and digits>`. */
const PATH = /^(?:\/[^/]+)*\/hooks\/[a-z0-9]{26}\/?$/;
/** Mattermost user names and group names: lower-case letters, digits, `.`, `_` and `-`. */
const NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

const MATTERMOST_MENTIONS: MentionSupport = {
  kinds: ['user', 'group'],
  hint: 'user:<username> or group:<group name>',
  problem: (target) =>
    NAME.test(target.id) ? undefined : 'a Mattermost name is lower-case letters, digits, . _ -',
};

/** Mattermost's Slack-compatible message attachment (the parts we send). */
export interface MattermostAttachment {
  fallback: string;
  color?: string;
  author_name?: string;
  author_link?: string;
  author_icon?: string;
  title?: string;
  title_link?: string;
  text?: string;
  fields?: { title: string; value: string; short: boolean }[];
  image_url?: string;
  thumb_url?: string;
  footer?: string;
}

export interface MattermostWebhookBody {
  /** The configured mentions: a message's `text` is what Mattermost notifies for. */
  text?: string;
  username?: string;
  icon_url?: string;
  attachments: [MattermostAttachment];
}

/** Limits kept within: the attachment text well under a post's 16,383 characters, 20 fields. */
const LIMITS = {
  title: 300,
  text: 4_000,
  fields: 20,
  fieldTitle: 100,
  fieldValue: 1_000,
  plain: 300,
} as const;

/**
 * Text Mattermost shows without markdown (titles, names, the footer): no invisible formatting, and
 * a zero-width space after every `@`, so it can never notify (`@channel`, `@all`, `@someone`).
 */
function plain(raw: string, max: number): string {
  return truncate(stripInvisibleFormatting(raw).replace(/@/g, '@\u200b').replace(/\s+/g, ' ').trim(), max);
}

function mentionLine(message: Message): string | undefined {
  const names = (message.mentions ?? [])
    .filter((m) => (m.kind === 'user' || m.kind === 'group') && NAME.test(m.id))
    .map((m) => `@${m.id}`);
  return names.length === 0 ? undefined : names.join(' ');
}

/**
 * A message as a Mattermost incoming webhook posts it: one Slack-compatible attachment holding the
 * card (title linked to the item, text and fields as escaped markdown, author, image, footer),
 * the configured mentions as the post's text, and the subscription's name and icon (shown when
 * the server lets integrations override them).
 */
export function renderMattermostMessage(message: Message): MattermostWebhookBody {
  const title = message.title.trim() === '' ? message.fallback : message.title;
  const attachment: MattermostAttachment = { fallback: plain(message.fallback || title, LIMITS.plain) };
  if (message.color !== undefined && /^#[0-9a-f]{6}$/i.test(message.color)) attachment.color = message.color;
  attachment.title = plain(title, LIMITS.title);
  const link = sanitizeUrl(message.url);
  if (link !== undefined) attachment.title_link = link;
  if (message.layout !== 'line') {
    if (message.author !== undefined && message.author.name.trim() !== '') {
      attachment.author_name = plain(message.author.name, LIMITS.plain);
      const authorLink = sanitizeUrl(message.author.url);
      if (authorLink !== undefined) attachment.author_link = authorLink;
      const icon = sanitizeUrl(message.author.iconUrl);
      if (icon !== undefined) attachment.author_icon = icon;
    }
    const parts: string[] = [];
    if (message.text !== undefined && message.text.trim() !== '')
      parts.push(escapeWithin(message.text, LIMITS.text));
    for (const entry of message.entries ?? []) {
      const url = sanitizeUrl(entry.url);
      const label = escapeWithin(entry.title.trim() === '' ? 'Untitled' : entry.title, 300).replace(
        /:\/\//g,
        ':\\/\\/',
      );
      const line =
        url === undefined
          ? label
          : `[${label}](${url.replace(/[()]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)})`;
      const detail = entry.detail?.trim() ? ` — ${escapeWithin(entry.detail, 150)}` : '';
      parts.push(`${entry.rank === undefined ? '•' : `${entry.rank}\\.`} ${line}${detail}`);
    }
    if (parts.length > 0) attachment.text = parts.join('\n');
    const fields = (message.fields ?? []).slice(0, LIMITS.fields).map((field) => ({
      title: plain(field.name, LIMITS.fieldTitle),
      value: escapeWithin(field.value, LIMITS.fieldValue) || '—',
      short: field.inline === true,
    }));
    if (fields.length > 0) attachment.fields = fields;
    const image = sanitizeUrl(message.imageUrl);
    if (image !== undefined) attachment.image_url = image;
    const thumb = sanitizeUrl(message.thumbnailUrl);
    if (thumb !== undefined) attachment.thumb_url = thumb;
    if (message.footer !== undefined && message.footer.trim() !== '') {
      attachment.footer = plain(message.footer, LIMITS.plain);
    }
  }
  const body: MattermostWebhookBody = { attachments: [attachment] };
  const mentions = mentionLine(message);
  if (mentions !== undefined) body.text = mentions;
  const name = message.sender?.name?.trim();
  if (name) body.username = truncate(stripInvisibleFormatting(name), 64);
  const icon = sanitizeUrl(message.sender?.avatarUrl);
  if (icon !== undefined) body.icon_url = icon;
  return body;
}

/**
 * Mattermost answers "ok" and no post id (incoming webhooks cannot edit what they posted), and an
 * unknown hook id with a 400 naming it, which pauses the webhook like a 404.
 */
function refused(answer: WebhookResponse): DeliveryOutcome {
  const unknown = /invalid_webhook|incoming_webhook\.invalid|Invalid webhook/i.test(quoted(answer));
  const rules = { title: 'Mattermost webhook', messageStatuses: [413] };
  return outcomeOfRefusal(unknown && answer.status === 400 ? { ...answer, status: 404 } : answer, rules);
}

/**
 * Mattermost incoming webhooks. Mattermost publishes no per-webhook limit; its server-wide API
 * rate limiting, when an administrator turns it on, defaults to 10 requests a second with bursts
 * of 100 (the "Rate limiting" configuration settings), so the webhooks of one server share that.
 */
export const MATTERMOST_WEBHOOK: WebhookKind = {
  kind: 'mattermost',
  platform: 'mattermost-webhook',
  title: 'Mattermost webhook',
  recognizes: (url) => PATH.test(url.pathname),
  workspaceOf: (url) => url.host,
  edits: false,
  // Shown when the server lets integrations override their name and profile picture.
  takesSender: true,
  pacing: { perWorkspace: { ratePerSecond: 10, burst: 100 } },
  mentions: MATTERMOST_MENTIONS,
  redact: (url) => `${url.origin}${url.pathname.replace(/\/hooks\/[a-z0-9]{26}\/?$/, '/hooks/****')}`,
  render: renderMattermostMessage,
  post: (endpoint, _destination, message, _options, context) =>
    postWithoutId(endpoint, renderMattermostMessage(message), context, refused),
};
