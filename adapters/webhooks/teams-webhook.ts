import type { MentionSupport, WebhookKind, WebhookResponse } from '../../src/ports/index.js';
import { outcomeOfRefusal, postWithoutId } from '../../src/ports/index.js';
import { renderTeamsMessage } from './render-adaptive-card.js';

/**
 * A Workflows webhook's URL: Power Automate's `…/workflows/<id>/triggers/manual/paths/invoke?…&sig=…`
 * (on `*.logic.azure.com`) or `…/powerautomate/automations/direct/workflows/<id>/triggers/…`
 * (on `*.environment.api.powerplatform.com`). The `sig` query parameter is the credential.
 */
const PATH = /\/workflows\/[0-9a-fA-F]{32}\/triggers\/[^/]+\/paths\/invoke\/?$/;
/** The retired Office 365 connector ("Incoming Webhook") URLs. */
const CONNECTOR = /\/webhookb2\//;

/** A person by UPN, email or Entra object id; a tag by its id. */
const TEAMS_MENTIONS: MentionSupport = {
  kinds: ['user', 'tag'],
  hint: 'user:<UPN, email or Entra object id>|Name or tag:<tag id>|Name',
  problem(target) {
    if (target.kind === 'user' && !/^[^@\s]+@[^@\s]+$|^[0-9a-fA-F-]{36}$/.test(target.id)) {
      return 'a Teams user is named by UPN, email or Entra object id';
    }
    return undefined;
  },
};

/**
 * The flow answers 202 Accepted and runs afterwards: there is no message id, so no edits. 413:
 * this card is too large (the renderer keeps under the limit; one that still is, is dropped). A
 * 400 means the workflow takes another input than a card: every post would be refused, so the
 * webhook pauses with what it said.
 */
const refused = (answer: WebhookResponse) =>
  outcomeOfRefusal(answer, { title: 'Teams webhook', messageStatuses: [413] });

/**
 * Microsoft Teams Workflows webhooks. Pacing, both from Microsoft's Teams docs (docs/webhooks.md):
 * per webhook the limits Teams puts on what a connector or webhook posts in a channel (4 a second,
 * 60 in 30 seconds) and a bot's per-conversation hourly limit (1,800 an hour: a workflow posts as
 * the Workflows bot); across webhooks, that bot's limit per app per tenant, 50 requests a second.
 * One URL does not say its tenant, so all Teams webhooks share that one limit.
 */
export const TEAMS_WEBHOOK: WebhookKind = {
  kind: 'teams',
  platform: 'teams-webhook',
  title: 'Teams webhook',
  recognizes: (url) => PATH.test(url.pathname) || CONNECTOR.test(url.pathname),
  refuses: (url) =>
    CONNECTOR.test(url.pathname)
      ? 'this is an Office 365 connector URL, which Microsoft has retired: in the Teams channel choose Workflows, "Post to a channel when a webhook request is received", and use its URL'
      : undefined,
  edits: false,
  // A workflow posts as the Workflows bot, under the flow's name: the card cannot change it.
  takesSender: false,
  pacing: {
    perDestination: [
      { limit: 4, windowMs: 1_000 },
      { limit: 60, windowMs: 30_000 },
      { limit: 1_800, windowMs: 3_600_000 },
    ],
    global: { limit: 50, windowMs: 1_000 },
  },
  mentions: TEAMS_MENTIONS,
  // The path names the workflow; the `sig` query parameter signs it and is the secret part.
  redact: (url) =>
    `${url.origin}${url.pathname.replace(/[0-9a-fA-F]{32}/, (id) => `${id.slice(0, 6)}…`)}?sig=****`,
  render: renderTeamsMessage,
  post: (endpoint, _destination, message, _options, context) =>
    postWithoutId(endpoint, renderTeamsMessage(message), context, refused),
};
