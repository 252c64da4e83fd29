import { type Message, precut, sanitizeUrl, truncate } from '../../src/ports/index.js';
import { escapeMarkdown, neutralizeMentions } from './escape-markdown.js';
import { DISCORD_LIMITS } from './limits.js';
import { renderEntryLines } from './render-entries.js';

/** The subset of Discord's embed object the bot sends. */
export interface DiscordEmbed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  timestamp?: string;
  fields?: { name: string; value: string; inline?: boolean }[];
  author?: { name: string; url?: string; icon_url?: string };
  footer?: { text: string };
  thumbnail?: { url: string };
  image?: { url: string };
}

/** Field name and value must be non-empty; a zero-width space is Discord's accepted "blank". */
const BLANK = '\u200b';

/** Characters of an embed that count toward the 6000 total (docs: title, description, field names/values, footer, author). */
export function embedLength(embed: DiscordEmbed): number {
  let total = (embed.title?.length ?? 0) + (embed.description?.length ?? 0);
  total += (embed.footer?.text.length ?? 0) + (embed.author?.name.length ?? 0);
  for (const field of embed.fields ?? []) total += field.name.length + field.value.length;
  return total;
}

function link(value: string | undefined): string | undefined {
  const url = sanitizeUrl(value);
  return url !== undefined && url.length <= DISCORD_LIMITS.url ? url : undefined;
}

function colour(hex: string | undefined): number | undefined {
  if (hex === undefined || !/^#[0-9a-f]{6}$/i.test(hex)) return undefined;
  return Number.parseInt(hex.slice(1), 16);
}

function isoTimestamp(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** Discord trims leading/trailing whitespace before measuring, so measure what it will see. */
function clean(text: string): string {
  return text.trim();
}

/**
 * Renders one Message as one rich embed that fits every per-field limit and at most `budget`
 * characters of the 6000 a message may hold across its embeds. Headline parts (title, author,
 * footer) are kept first; fields are kept in order while they fit; the description gets what
 * is left. Text is truncated with an ellipsis, never rejected.
 */
export function renderEmbed(message: Message, budget: number = DISCORD_LIMITS.embedTotal): DiscordEmbed {
  let remaining = Math.max(0, Math.min(budget, DISCORD_LIMITS.embedTotal));
  const take = (text: string, max: number): string => {
    const cut = truncate(clean(text), Math.min(max, remaining));
    remaining -= cut.length;
    return cut;
  };

  const embed: DiscordEmbed = {};
  const title = take(escapeMarkdown(message.title || message.fallback), DISCORD_LIMITS.title);
  if (title) embed.title = title;
  const url = link(message.url);
  if (url) embed.url = url;
  const color = colour(message.color);
  if (color !== undefined) embed.color = color;
  const timestamp = isoTimestamp(message.timestamp);
  if (timestamp) embed.timestamp = timestamp;

  if (message.author) {
    // Author names are shown without markdown, so only mentions need neutralising.
    const name = take(neutralizeMentions(message.author.name), DISCORD_LIMITS.author);
    if (name) {
      embed.author = { name };
      const authorUrl = link(message.author.url);
      if (authorUrl) embed.author.url = authorUrl;
      const icon = link(message.author.iconUrl);
      if (icon) embed.author.icon_url = icon;
    }
  }
  if (message.footer) {
    const text = take(neutralizeMentions(message.footer), DISCORD_LIMITS.footer);
    if (text) embed.footer = { text };
  }

  const thumbnail = link(message.thumbnailUrl);
  if (thumbnail) embed.thumbnail = { url: thumbnail };
  const image = link(message.imageUrl);
  if (image) embed.image = { url: image };

  // Reserve room for a short description before fields eat the budget: the body is usually
  // the point of the message (a comment), fields are supporting detail.
  // A comment body can be any length: cut it near the limit before escaping the whole of it.
  let body = message.text ? clean(escapeMarkdown(precut(message.text, DISCORD_LIMITS.description))) : '';
  if (message.entries !== undefined && message.entries.length > 0) {
    // A digest's list goes under its text, in whole lines: the text gets at most a quarter.
    const room = Math.min(remaining, DISCORD_LIMITS.description);
    const text = truncate(body, Math.floor(room / 4));
    const list = renderEntryLines(message.entries, room - text.length - (text === '' ? 0 : 2));
    body = text === '' ? list : `${text}\n\n${list}`;
  }
  const reserved = Math.min(body.length, DISCORD_LIMITS.description, Math.floor(remaining / 2));
  remaining -= reserved;

  const fields: NonNullable<DiscordEmbed['fields']> = [];
  for (const field of (message.fields ?? []).slice(0, DISCORD_LIMITS.fields)) {
    // A field needs at least a character of name and value plus room for an ellipsis to be useful.
    if (remaining < 4) break;
    // Leave at least one character for the value, which must not be empty.
    const name = take(escapeMarkdown(field.name), Math.min(DISCORD_LIMITS.fieldName, remaining - 1)) || BLANK;
    if (name === BLANK) remaining -= 1;
    const value = take(escapeMarkdown(field.value), DISCORD_LIMITS.fieldValue) || BLANK;
    if (value === BLANK) remaining -= 1;
    const rendered: { name: string; value: string; inline?: boolean } = { name, value };
    if (field.inline) rendered.inline = true;
    fields.push(rendered);
  }
  if (fields.length > 0) embed.fields = fields;

  remaining += reserved;
  const description = take(body, DISCORD_LIMITS.description);
  if (description) embed.description = description;

  // An embed needs some visible text; the fallback is the platform-neutral one-liner.
  if (!embed.title && !embed.description && !embed.fields) {
    const fallback = take(escapeMarkdown(message.fallback), DISCORD_LIMITS.description);
    embed.description = fallback || BLANK;
  }
  return embed;
}
