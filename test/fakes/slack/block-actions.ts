import { signedHeaders } from './signing.js';
import { newTriggerId } from './trigger-id.js';

/** A button as the bot rendered it in a message's `actions` block. */
export interface RenderedButton {
  action_id: string;
  text: { text: string };
  url?: string;
  value?: string;
}

/**
 * The button labelled `label` in blocks the bot posted (as the fake recorded them), so a test
 * clicks exactly what a person would see. Throws when there is none: the test names a button
 * the message does not have.
 */
export function findButton(blocks: unknown, label: string): RenderedButton {
  for (const block of (blocks ?? []) as { type?: string; elements?: RenderedButton[] }[]) {
    if (block.type !== 'actions') continue;
    const found = block.elements?.find((element) => element.text.text === label);
    if (found !== undefined) return found;
  }
  throw new Error(`no button labelled ${label} in the blocks`);
}

export interface BlockActionClick {
  button: Pick<RenderedButton, 'action_id' | 'text'> & { value?: string };
  userId: string;
  channelId: string;
  teamId: string;
  responseUrl: string;
  /** The clicked message's ts; a message in the channel unless `ephemeral`. */
  messageTs?: string;
  ephemeral?: boolean;
}

/**
 * A `block_actions` interaction as Slack POSTs it when someone presses a button
 * (form-encoded `payload=<json>`, CONTRACTS.md §1(b)): the clicker, the channel, the message's
 * container, a response_url, and the one action pressed.
 */
export function blockActionsBody(click: BlockActionClick): string {
  const payload = {
    type: 'block_actions',
    user: { id: click.userId, username: 'clicker', name: 'clicker', team_id: click.teamId },
    api_app_id: 'A1',
    token: 'legacy',
    container: {
      type: 'message',
      message_ts: click.messageTs ?? '1700000000.000100',
      channel_id: click.channelId,
      is_ephemeral: click.ephemeral ?? false,
    },
    trigger_id: newTriggerId(),
    team: { id: click.teamId, domain: 'fake' },
    channel: { id: click.channelId, name: 'general' },
    response_url: click.responseUrl,
    actions: [
      {
        type: 'button',
        action_id: click.button.action_id,
        block_id: 'b1',
        text: { type: 'plain_text', text: click.button.text.text },
        ...(click.button.value === undefined ? {} : { value: click.button.value }),
        action_ts: `${Date.now() / 1000}`,
      },
    ],
  };
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/**
 * POSTs a click to the bot's `/slack/events`, signed with `signingSecret` at `timestamp`
 * (seconds; default now), as Slack's interactivity request URL receives it.
 */
export function postBlockAction(
  botUrl: string,
  signingSecret: string,
  click: BlockActionClick,
  timestamp = Math.floor(Date.now() / 1000),
): Promise<Response> {
  const body = blockActionsBody(click);
  return fetch(`${botUrl}/slack/events`, {
    method: 'POST',
    body,
    headers: signedHeaders(signingSecret, body, timestamp),
  });
}
