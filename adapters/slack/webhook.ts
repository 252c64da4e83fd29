import type { DeliveryOutcome, Message, WebhookKind, WebhookResponse } from '../../src/ports/index.js';
import { linkUrl, outcomeOfRefusal, postWithoutId, quoted } from '../../src/ports/index.js';
import { SLACK_MENTIONS } from './mentions.js';
import { slackPacing } from './pacing.js';
import { renderSlackMessage, type SlackBlock } from './render-message.js';

/** `https://hooks.slack.com/services/T…/B…/…`: the team, the webhook and its secret. */
const PATH = /^\/services\/(T[A-Z0-9]+)\/(B[A-Z0-9]+)\/[A-Za-z0-9]+\/?$/;

/** The body of a Slack incoming webhook post: the Block Kit a channel gets, with its link as text. */
export interface SlackWebhookBody {
  text: string;
  blocks: SlackBlock[];
  unfurl_links: false;
  unfurl_media: false;
}

/**
 * A message as a Slack incoming webhook posts it: the blocks the bot's channels get, with the
 * configured mentions (`<!subteam^…>`, `<@U…>`) first, and the "Open" button turned into a link.
 * A button would send its click to the app that owns the webhook, which is not this bot.
 */
export function renderSlackWebhookMessage(message: Message): SlackWebhookBody {
  const { actions: _actions, ...plain } = message;
  const payload = renderSlackMessage(plain);
  const url = linkUrl(message.url);
  const blocks = payload.blocks.map((block) =>
    block['type'] === 'actions' && url !== undefined
      ? { type: 'context', elements: [{ type: 'mrkdwn', text: `<${url}|Open in the directory>` }] }
      : block,
  );
  return { ...payload, blocks: blocks.filter((block) => block['type'] !== 'actions') };
}

/**
 * Slack's answers are text: `ok`, or an error word with a status. A body Slack refuses
 * (`invalid_payload`, `invalid_blocks`, `no_text`, `msg_too_long`) drops that message; a webhook
 * that was removed or whose channel is gone (`no_service`, `channel_not_found`,
 * `channel_is_archived`, `action_prohibited`, `invalid_token`) pauses its subscriptions.
 */
const MESSAGE_ERRORS = new Set([
  'invalid_payload',
  'invalid_blocks',
  'no_text',
  'msg_too_long',
  'too_many_attachments',
]);

/** Slack answers "ok" and no message id: a webhook's messages can be neither edited nor threaded. */
function refused(answer: WebhookResponse): DeliveryOutcome {
  if (answer.status === 400 && MESSAGE_ERRORS.has(quoted(answer))) {
    const reason = `the Slack webhook refused the message: ${quoted(answer)}`;
    return { status: 'rejected', code: 'invalid_body', reason, scope: 'message' };
  }
  return outcomeOfRefusal(answer, { title: 'Slack webhook', messageStatuses: [] });
}

/**
 * Slack incoming webhooks. Slack's rate limits page: incoming webhooks "1 per second", "short
 * bursts >1 allowed"; Slack counts per app per workspace and publishes the workspace's posting
 * limit only as "several hundred messages per minute", so webhooks of one team (the `T…` in the
 * URL) share the bot's workspace pace (240 a minute, burst 20; docs/webhooks.md).
 */
export const SLACK_WEBHOOK: WebhookKind = {
  kind: 'slack',
  platform: 'slack-webhook',
  title: 'Slack webhook',
  recognizes: (url) => PATH.test(url.pathname),
  workspaceOf: (url) => PATH.exec(url.pathname)?.[1],
  edits: false,
  // Apps' incoming webhooks post under the name and icon set in Slack; a payload cannot change them.
  takesSender: false,
  pacing: slackPacing(),
  mentions: SLACK_MENTIONS,
  redact(url) {
    const match = PATH.exec(url.pathname);
    return match ? `${url.origin}/services/${match[1]}/${match[2]}/****` : `${url.origin}/****`;
  },
  render: renderSlackWebhookMessage,
  post: (endpoint, _destination, message, _options, context) =>
    postWithoutId(endpoint, renderSlackWebhookMessage(message), context, refused),
};
