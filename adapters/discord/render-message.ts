import { type CommandReply, type Message, truncate } from '../../src/ports/index.js';
import { escapeMarkdown } from './escape-markdown.js';
import { DISCORD_LIMITS, EPHEMERAL_FLAG } from './limits.js';
import { type DiscordMentions, discordMentions } from './mentions.js';
import { type DiscordActionRow, renderActionRows } from './render-components.js';
import { type DiscordEmbed, embedLength, renderEmbed } from './render-embed.js';

export type { DiscordActionRow } from './render-components.js';

/** The JSON body of a create-message / interaction-response / webhook message. */
export interface DiscordMessageBody {
  content?: string;
  embeds?: DiscordEmbed[];
  components?: DiscordActionRow[];
  flags?: number;
  allowed_mentions: DiscordMentions['allowed_mentions'];
}

/** custom_id prefix of the "Share in channel" button; the rest of the id is the command text to re-run. */
export const SHARE_PREFIX = 'directory:share:';
const CUSTOM_ID_MAX = 100;

/**
 * Renders embeds for several messages within the message-wide limits (10 embeds, 6000
 * characters in total). Each embed gets a fair share of what the earlier ones left unused, so
 * one huge comment cannot starve the rest.
 */
export function renderEmbeds(messages: readonly Message[]): DiscordEmbed[] {
  const shown = messages.slice(0, DISCORD_LIMITS.embeds);
  const embeds: DiscordEmbed[] = [];
  let remaining: number = DISCORD_LIMITS.embedTotal;
  shown.forEach((message, index) => {
    const share = Math.floor(remaining / (shown.length - index));
    const embed = renderEmbed(message, share);
    remaining -= embedLength(embed);
    embeds.push(embed);
  });
  return embeds;
}

/**
 * The exact create-message body for a feed message (`POST /channels/{id}/messages`), without
 * the delivery-specific nonce: the embed and the message's buttons. Nothing in the text can
 * ping; the subscription's configured mentions, when the item matched, are the content and the
 * only ids `allowed_mentions` names.
 */
export function renderDiscordMessage(message: Message): DiscordMessageBody {
  const { content, allowed_mentions } = discordMentions(message);
  const body: DiscordMessageBody = {
    ...(content === undefined ? {} : { content }),
    embeds: renderEmbeds([message]),
    allowed_mentions,
  };
  const rows = renderActionRows(message);
  if (rows.length > 0) body.components = rows;
  return body;
}

export interface RenderReplyOptions {
  /**
   * The command text that produced the reply. When given and the reply is shareable, a
   * "Share in channel" button re-runs it; omitted when it does not fit a custom_id.
   */
  commandText?: string;
  /** Force a visibility, e.g. in-channel when the share button re-posts a result. */
  visibility?: CommandReply['visibility'];
}

function replyContent(reply: CommandReply, hidden: number): string {
  const lines: string[] = [];
  if (reply.text) lines.push(escapeMarkdown(reply.text));
  // Usage goes in a code span, where markdown is inert; a backtick would end the span early.
  if (reply.error?.usage) lines.push(`Usage: \`${reply.error.usage.replaceAll('`', "'")}\``);
  if (hidden > 0) lines.push(`…and ${hidden} more`);
  return truncate(lines.join('\n'), DISCORD_LIMITS.content);
}

/**
 * Renders a command reply as an interaction response / webhook message body: the lead text
 * as content, results as embeds, ephemeral (flag 64) unless the reply is in-channel, and a
 * share button on shareable ephemeral results. Errors are always ephemeral.
 */
export function renderDiscordReply(
  reply: CommandReply,
  options: RenderReplyOptions = {},
): DiscordMessageBody {
  const visibility = reply.error ? 'ephemeral' : (options.visibility ?? reply.visibility);
  const embeds = renderEmbeds(reply.messages);
  const body: DiscordMessageBody = { allowed_mentions: { parse: [] } };
  const content = replyContent(reply, reply.messages.length - embeds.length);
  if (content) body.content = content;
  if (embeds.length > 0) body.embeds = embeds;
  if (!body.content && !body.embeds) body.content = 'Done.';
  if (visibility === 'ephemeral') body.flags = EPHEMERAL_FLAG;

  const customId = options.commandText === undefined ? undefined : SHARE_PREFIX + options.commandText;
  if (
    visibility === 'ephemeral' &&
    reply.shareable &&
    !reply.error &&
    reply.messages.length > 0 &&
    customId !== undefined &&
    customId.length <= CUSTOM_ID_MAX
  ) {
    body.components = [
      { type: 1, components: [{ type: 2, style: 2, label: 'Share in channel', custom_id: customId }] },
    ];
  }
  return body;
}
