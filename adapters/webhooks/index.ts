/**
 * Webhook destinations' machinery and the kinds with no chat adapter of their own: what the
 * composition root, the CLI and `render` use. The Discord and Slack kinds live beside their
 * platforms' renderers (adapters/discord/webhook.ts, adapters/slack/webhook.ts).
 */
export {
  JSON_PAYLOAD_VERSION,
  JSON_WEBHOOK,
  JSON_WEBHOOK_HEADERS,
  type JsonWebhookPayload,
  jsonWebhookSignature,
} from './json-webhook.js';
export {
  MATTERMOST_WEBHOOK,
  type MattermostWebhookBody,
  renderMattermostMessage,
} from './mattermost-webhook.js';
export {
  type AdaptiveCard,
  renderTeamsMessage,
  TEAMS_LIMITS,
  type TeamsWebhookBody,
} from './render-adaptive-card.js';
export { TEAMS_WEBHOOK } from './teams-webhook.js';
export { createWebhookAdapter, type WebhookAdapterOptions } from './webhook-adapter.js';
