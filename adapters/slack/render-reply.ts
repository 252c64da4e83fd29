import type { CommandReply } from '../../src/ports/index.js';
import { SLACK_LIMITS } from './block-limits.js';
import { escapeWithin } from './escape.js';
import { renderMessageBlocks, type SlackBlock } from './render-message.js';

/** The action id of the "Share in channel" button. */
export const SHARE_ACTION_ID = 'directory_share';

/** A slash-command answer, usable as the `ack()` body and with `respond()` (response_url). */
export interface SlackReplyPayload {
  response_type: 'ephemeral' | 'in_channel';
  text: string;
  blocks: SlackBlock[];
}

export interface RenderReplyOptions {
  /**
   * The command text to re-run when someone presses "Share in channel". Without it (or when it
   * does not fit a button value) no share button is offered.
   */
  shareValue?: string;
  /** A trusted line added as context, e.g. "Shared by <@U…>"; already Slack markup, not escaped. */
  note?: string;
}

function section(text: string): SlackBlock {
  return { type: 'section', text: { type: 'mrkdwn', text, verbatim: true } };
}

/**
 * Renders the core's command reply for Slack: the escaped lead line, the usage when the command
 * failed, the result messages (as many as fit in 50 blocks), and a "Share in channel" button for
 * shareable ephemeral results. Errors are always ephemeral.
 */
export function renderSlackReply(reply: CommandReply, options: RenderReplyOptions = {}): SlackReplyPayload {
  const visibility = reply.error !== undefined ? 'ephemeral' : reply.visibility;
  // An error's code is for logs; a person reads a sentence.
  const leadText =
    reply.text.trim() !== '' ? reply.text : reply.error !== undefined ? 'The command failed.' : 'Done.';
  const lead = escapeWithin(leadText, SLACK_LIMITS.sectionText);
  const head: SlackBlock[] = [section(lead)];
  if (reply.error?.usage !== undefined && reply.error.usage.trim() !== '') {
    head.push(section(`*Usage:* ${escapeWithin(reply.error.usage, SLACK_LIMITS.sectionText - 20)}`));
  }

  const tail: SlackBlock[] = [];
  if (options.note !== undefined) {
    tail.push({ type: 'context', elements: [{ type: 'mrkdwn', text: options.note }] });
  }
  const share = options.shareValue;
  if (
    reply.shareable &&
    visibility === 'ephemeral' &&
    reply.messages.length > 0 &&
    share !== undefined &&
    share.length <= SLACK_LIMITS.buttonValue
  ) {
    tail.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: { type: 'plain_text', text: 'Share in channel' },
          action_id: SHARE_ACTION_ID,
          value: share,
        },
      ],
    });
  }

  // Room left for results, keeping one block spare for a "…and N more" line.
  const budget = SLACK_LIMITS.blocksPerMessage - head.length - tail.length - 1;
  const body: SlackBlock[] = [];
  let shown = 0;
  for (const message of reply.messages) {
    const rendered = [{ type: 'divider' }, ...renderMessageBlocks(message)];
    if (body.length + rendered.length > budget) break;
    body.push(...rendered);
    shown += 1;
  }
  const hidden = reply.messages.length - shown;
  if (hidden > 0) {
    body.push({ type: 'context', elements: [{ type: 'plain_text', text: `…and ${hidden} more` }] });
  }

  return { response_type: visibility, text: lead, blocks: [...head, ...body, ...tail] };
}
