import type { Message, MessageEntry } from '../../src/ports/index.js';
import { sanitizeUrl, truncate } from '../../src/ports/index.js';
import { oneLine, stripControls, wrap } from './terminal-text.js';

/**
 * Enough of a comment to read in a terminal; the link leads to the rest. The bot's own `info`
 * messages (help, subscriptions, status) are shown whole: cutting them hides what was asked for.
 */
export const CONSOLE_BODY_MAX = 1000;
const FIELD_VALUE_MAX = 300;
const TITLE_MAX = 200;

export interface ConsoleRenderOptions {
  /** Columns to wrap the body at; default 80. */
  width?: number;
  /** Bold title and dim small print with ANSI codes; only for a TTY. Default false. */
  color?: boolean;
}

const bold = (text: string) => `\u001b[1m${text}\u001b[22m`;
const dim = (text: string) => `\u001b[2m${text}\u001b[22m`;

/** `2017-03-08 08:01 UTC`: unambiguous on any host. */
function formatTime(iso: string): string | undefined {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return undefined;
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * Renders a message as readable multi-line text for a terminal: title, author, the body
 * wrapped and cut to {@link CONSOLE_BODY_MAX} characters, fields, link and time. Every piece
 * of message text is stripped of escape sequences and control characters first, so user
 * text can never drive the terminal; the only ANSI codes are our own (with `color`).
 */
export function renderConsoleMessage(message: Message, options: ConsoleRenderOptions = {}): string {
  const pings = mentionLine(message);
  if (message.layout === 'line')
    return pings === undefined ? renderLine(message) : `${pings}\n${renderLine(message)}`;
  const width = Math.max(20, options.width ?? 80);
  const indent = '  ';
  const bodyWidth = width - indent.length;
  const style = options.color === true;
  const lines: string[] = pings === undefined ? [] : [style ? bold(pings) : pings];

  const title = truncate(oneLine(message.title), TITLE_MAX) || '(untitled)';
  lines.push(style ? bold(title) : title);
  if (message.author !== undefined) {
    lines.push(`${indent}by ${oneLine(message.author.name) || 'someone'}`);
  }
  if (message.text !== undefined) {
    const clean = stripControls(message.text).replace(/^\n+|\s+$/g, '');
    const body = message.kind === 'info' ? clean : truncate(clean.trim(), CONSOLE_BODY_MAX);
    if (body !== '') {
      lines.push('');
      for (const line of wrap(body, bodyWidth)) lines.push(line === '' ? '' : indent + line);
    }
  }

  // A digest's list: one numbered (or bulleted) line per item, its link under it.
  if (message.entries !== undefined && message.entries.length > 0) {
    lines.push('');
    for (const entry of message.entries) lines.push(...entryLines(entry, indent, bodyWidth));
  }

  const fields = (message.fields ?? [])
    .map((field) => ({
      name: oneLine(field.name),
      value: truncate(oneLine(field.value), FIELD_VALUE_MAX),
      inline: field.inline === true,
    }))
    .filter((field) => field.value !== '');
  if (fields.length > 0) lines.push('');
  // Inline fields share a line, like they sit side by side in Slack and Discord.
  let row: string[] = [];
  const flush = () => {
    if (row.length > 0) lines.push(indent + row.join(' · '));
    row = [];
  };
  for (const field of fields) {
    const text = field.name === '' ? field.value : `${field.name}: ${field.value}`;
    if (field.inline) {
      row.push(text);
    } else {
      flush();
      lines.push(indent + text);
    }
  }
  flush();

  const link = sanitizeUrl(message.url);
  const image = sanitizeUrl(message.imageUrl);
  if (link !== undefined || image !== undefined) lines.push('');
  if (link !== undefined) lines.push(`${indent}→ ${link}`);
  if (image !== undefined) lines.push(`${indent}image: ${image}`);
  // A terminal has no buttons: say what each would run, so the sandbox shows them too.
  const commands = (message.actions ?? []).flatMap((action) =>
    action.kind === 'command' ? [`${oneLine(action.label)}: /directory ${oneLine(action.command)}`] : [],
  );
  if (commands.length > 0) {
    const text = `${indent}buttons — ${commands.join(' · ')}`;
    lines.push(style ? dim(text) : text);
  }

  const small = [
    message.footer === undefined ? '' : oneLine(message.footer),
    message.timestamp === undefined ? '' : (formatTime(message.timestamp) ?? ''),
  ].filter((part) => part !== '');
  if (small.length > 0) {
    if (message.entries !== undefined && link === undefined && image === undefined) lines.push('');
    const text = indent + small.join(' · ');
    lines.push(style ? dim(text) : text);
  }
  return lines.join('\n');
}

/**
 * Whom the message pings, as a terminal can say it (`@ role:112233 · user:alice`): a terminal has
 * nobody to notify, so the sandbox shows what a channel would get.
 */
function mentionLine(message: Message): string | undefined {
  if (!message.mentions?.length) return undefined;
  return `@ ${message.mentions.map((m) => oneLine(m.label ?? `${m.kind}:${m.id}`)).join(' · ')}`;
}

/** A `line` message (compact or title-only subscription): the title and its link on one line. */
function renderLine(message: Message): string {
  const title = truncate(oneLine(message.title), TITLE_MAX) || truncate(oneLine(message.fallback), TITLE_MAX);
  const link = sanitizeUrl(message.url);
  return link === undefined ? title || '(untitled)' : `${title || '(untitled)'} → ${link}`;
}

/** One list entry: `1. Title — detail` wrapped under its marker, then `→ url`. */
function entryLines(entry: MessageEntry, indent: string, width: number): string[] {
  const marker = entry.rank === undefined ? '•' : `${entry.rank}.`;
  const title = truncate(oneLine(entry.title), TITLE_MAX) || '(untitled)';
  const detail = entry.detail === undefined ? '' : truncate(oneLine(entry.detail), FIELD_VALUE_MAX);
  const hang = ' '.repeat(marker.length + 1);
  const wrapped = wrap(detail === '' ? title : `${title} — ${detail}`, width - hang.length);
  const lines = wrapped.map((line, i) => indent + (i === 0 ? `${marker} ` : hang) + line);
  const link = sanitizeUrl(entry.url);
  if (link !== undefined) lines.push(`${indent}${hang}→ ${link}`);
  return lines;
}
