import type { Message, MessageField } from '../../src/ports/index.js';
import { truncate } from '../../src/ports/index.js';
import { SLACK_LIMITS } from './block-limits.js';
import { escapeSlackText, escapeWithin } from './escape.js';
import { slackMentionLine } from './mentions.js';
import { renderActionsBlock, usableUrl } from './render-actions.js';
import { renderEntrySections } from './render-entries.js';

export { OPEN_ACTION_ID } from './render-actions.js';

/** A Block Kit block as sent to Slack; kept loose because we only build, never read, them. */
export type SlackBlock = Record<string, unknown>;

/** The exact `chat.postMessage` arguments for a feed message, minus `channel` and `token`. */
export interface SlackMessagePayload {
  text: string;
  blocks: SlackBlock[];
  unfurl_links: false;
  unfurl_media: false;
}

/** Text object for user-supplied text: escaped, and `verbatim` so Slack does no auto-linking or mention parsing. */
function mrkdwn(text: string): SlackBlock {
  return { type: 'mrkdwn', text, verbatim: true };
}

function plainText(text: string): SlackBlock {
  return { type: 'plain_text', text, emoji: true };
}

function fieldText(field: MessageField): string {
  const name = escapeWithin(field.name, 200);
  // Slack rejects empty text objects; an em dash reads as "no value".
  const value = field.value.trim() === '' ? '—' : field.value;
  const prefix = `*${name}*\n`;
  return prefix + escapeWithin(value, SLACK_LIMITS.fieldText - prefix.length);
}

/** Slack renders `<!date^epoch^…|fallback>` in the reader's own time zone. */
function dateToken(timestamp: string): string | undefined {
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) return undefined;
  const epoch = Math.floor(ms / 1000);
  const fallback = escapeSlackText(new Date(epoch * 1000).toISOString().replace('.000Z', 'Z'));
  return `<!date^${epoch}^{date_short_pretty} at {time}|${fallback}>`;
}

function contextBlock(message: Message, thumbnailInContext: string | undefined): SlackBlock | undefined {
  const elements: SlackBlock[] = [];
  if (thumbnailInContext !== undefined) {
    elements.push({
      type: 'image',
      image_url: thumbnailInContext,
      alt_text: escapeWithin(message.title, 200),
    });
  }
  if (message.author !== undefined) {
    const icon = usableUrl(message.author.iconUrl);
    if (icon !== undefined) elements.push({ type: 'image', image_url: icon, alt_text: 'avatar' });
    elements.push(plainText(escapeWithin(message.author.name || 'someone', 200)));
  }
  if (message.timestamp !== undefined) {
    const date = dateToken(message.timestamp);
    // The date token is our own markup around a number; it is the one mrkdwn here not built from user text.
    if (date !== undefined) elements.push({ type: 'mrkdwn', text: date });
  }
  if (message.footer !== undefined && message.footer.trim() !== '') {
    elements.push(plainText(escapeWithin(message.footer, 300)));
  }
  if (elements.length === 0) return undefined;
  return { type: 'context', elements: elements.slice(0, SLACK_LIMITS.contextElements) };
}

/**
 * A `line` message (a compact or title-only subscription) as one section: the escaped title as the
 * link text of `<url|…>`, no header, no button. Escaping turns `<`, `>` and `&` into entities, so
 * the title can neither close the link nor open a mention; a `|` in the URL would end the URL
 * early, so it is percent-encoded.
 */
function lineBlocks(message: Message): SlackBlock[] {
  const line = message.title.trim() === '' ? message.fallback : message.title;
  const url = usableUrl(message.url)?.replaceAll('|', '%7C');
  // The link markup takes the URL and three characters of the section's limit.
  const room = url === undefined ? 0 : SLACK_LIMITS.sectionText - url.length - 3;
  const text =
    url === undefined || room < 1
      ? escapeWithin(line, SLACK_LIMITS.sectionText)
      : `<${url}|${escapeWithin(line, room)}>`;
  return [{ type: 'section', text: mrkdwn(text) }];
}

/**
 * Renders a feed message as Block Kit: header, text section (with the thumbnail beside it),
 * a digest's list (sections of linked lines), fields, image, context (author, time, footer) and the buttons (an "Open" link at least). Every user-supplied string
 * is escaped and every limit respected, truncating with an ellipsis rather than failing the post.
 */
export function renderMessageBlocks(message: Message): SlackBlock[] {
  const mentions = slackMentionLine(message);
  // The configured mentions come first, in a section of their own: our markup, not user text,
  // so it is the one mrkdwn without `verbatim` (Slack must read the `<@U…>` as a mention).
  const pings: SlackBlock[] =
    mentions === '' ? [] : [{ type: 'section', text: { type: 'mrkdwn', text: mentions } }];
  if (message.layout === 'line') return [...pings, ...lineBlocks(message)];
  const blocks: SlackBlock[] = [...pings];
  const title = message.title.trim() === '' ? message.fallback : message.title;
  if (title.trim() !== '') {
    blocks.push({ type: 'header', text: plainText(escapeWithin(title, SLACK_LIMITS.headerText)) });
  }

  const thumbnail = usableUrl(message.thumbnailUrl);
  let thumbnailPlaced = false;
  if (message.text !== undefined && message.text.trim() !== '') {
    const section: SlackBlock = {
      type: 'section',
      text: mrkdwn(escapeWithin(message.text, SLACK_LIMITS.sectionText)),
    };
    if (thumbnail !== undefined) {
      section['accessory'] = { type: 'image', image_url: thumbnail, alt_text: escapeWithin(title, 200) };
      thumbnailPlaced = true;
    }
    blocks.push(section);
  }

  if (message.entries !== undefined && message.entries.length > 0) {
    // Room left for the list: the image, context and buttons that may follow keep theirs.
    blocks.push(...renderEntrySections(message.entries, SLACK_LIMITS.blocksPerMessage - blocks.length - 3));
  }

  // Fields beyond what 50 blocks can hold would be cut by capBlocks anyway; skip rendering them.
  const fields = (message.fields ?? []).slice(0, SLACK_LIMITS.sectionFields * SLACK_LIMITS.blocksPerMessage);
  for (let i = 0; i < fields.length; i += SLACK_LIMITS.sectionFields) {
    const chunk = fields.slice(i, i + SLACK_LIMITS.sectionFields);
    blocks.push({ type: 'section', fields: chunk.map((field) => mrkdwn(fieldText(field))) });
  }

  const image = usableUrl(message.imageUrl);
  if (image !== undefined) {
    blocks.push({
      type: 'image',
      image_url: image,
      alt_text: escapeWithin(title || 'image', SLACK_LIMITS.imageAltText),
    });
  }

  const context = contextBlock(message, thumbnailPlaced ? undefined : thumbnail);
  if (context !== undefined) blocks.push(context);

  const actions = renderActionsBlock(message);
  if (actions !== undefined) blocks.push(actions);
  return capBlocks(blocks, SLACK_LIMITS.blocksPerMessage);
}

/**
 * Keeps at most `max` blocks. Fields are the only unbounded part, so the cut falls among them;
 * the trailing context and button are kept because they carry the link and the time.
 */
export function capBlocks(blocks: SlackBlock[], max: number): SlackBlock[] {
  if (blocks.length <= max) return blocks;
  const tail = blocks.slice(-2).filter((block) => block['type'] === 'context' || block['type'] === 'actions');
  return [...blocks.slice(0, max - tail.length), ...tail];
}

/** The notification/fallback line: escaped like everything else, short enough for any client. */
export function renderFallbackText(message: Message): string {
  const fallback = message.fallback.trim() === '' ? message.title : message.fallback;
  const mentions = slackMentionLine(message);
  // The notification says whom it is for first; the mentions are our markup, the rest escaped.
  const room = SLACK_LIMITS.fallbackText - (mentions === '' ? 0 : mentions.length + 1);
  const text = escapeWithin(truncate(fallback, room), room);
  return mentions === '' ? text : `${mentions} ${text}`;
}

/**
 * Renders a platform-neutral message as the exact `chat.postMessage` arguments (without `channel`
 * and `token`): Block Kit blocks, an escaped `text` fallback for notifications, unfurls off, and no
 * `link_names`, so nothing in it can ping anyone.
 */
export function renderSlackMessage(message: Message): SlackMessagePayload {
  return {
    text: renderFallbackText(message),
    blocks: renderMessageBlocks(message),
    unfurl_links: false,
    unfurl_media: false,
  };
}
