import { encodeActionId, type Message, sanitizeUrl } from '../../src/ports/index.js';
import { SLACK_LIMITS } from './block-limits.js';
import { escapeWithin } from './escape.js';

type SlackBlock = Record<string, unknown>;

/** The action id of the "Open" link button; Slack still sends an interaction for it, which we ack. */
export const OPEN_ACTION_ID = 'directory_open';

/** A URL Slack will accept: absolute http(s) and within the URL limit. Truncating a URL would break it, so drop it. */
export function usableUrl(value: string | undefined): string | undefined {
  const url = sanitizeUrl(value);
  return url !== undefined && url.length <= SLACK_LIMITS.url ? url : undefined;
}

function button(label: string): SlackBlock {
  return {
    type: 'button',
    text: { type: 'plain_text', text: escapeWithin(label, SLACK_LIMITS.buttonText), emoji: true },
  };
}

/**
 * The message's buttons as one `actions` block, at most 25 elements: links open directly
 * (`directory_open`, then `directory_open_2`…, since action ids are unique within a block) and
 * command buttons carry their versioned id (`dirbot:v1:follow:42`) as the action id, with no
 * value: the id is all a click needs. A message without a link button keeps today's "Open" for
 * its URL. Undefined when there is nothing to press.
 */
export function renderActionsBlock(message: Message): SlackBlock | undefined {
  const elements: SlackBlock[] = [];
  let links = 0;
  const link = (label: string, url: string) => {
    links += 1;
    elements.push({
      ...button(label),
      url,
      action_id: links === 1 ? OPEN_ACTION_ID : `${OPEN_ACTION_ID}_${links}`,
    });
  };
  const actions = message.actions ?? [];
  const fallbackUrl = usableUrl(message.url);
  if (fallbackUrl !== undefined && !actions.some((action) => action.kind === 'link'))
    link('Open', fallbackUrl);
  for (const action of actions) {
    if (action.kind === 'link') {
      const url = usableUrl(action.url);
      if (url !== undefined) link(action.label, url);
    } else {
      const actionId = encodeActionId(action);
      if (actionId.length <= SLACK_LIMITS.actionId)
        elements.push({ ...button(action.label), action_id: actionId });
    }
  }
  if (elements.length === 0) return undefined;
  return { type: 'actions', elements: elements.slice(0, SLACK_LIMITS.actionsElements) };
}
