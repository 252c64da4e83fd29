/** The Slack adapter's public surface; the composition root and the `render` CLI import from here. */

export type { SlackAdapterOptions } from './adapter-options.js';
export type { SlackAdapterEvent } from './events.js';
export { createKeyValueInstallationStore } from './installation-store.js';
export { SLACK_MENTIONS, slackMentionLine } from './mentions.js';
export type { SlackOAuthOptions } from './oauth-install.js';
export { SLACK_PACING, SLACK_WORKSPACE_MESSAGES_PER_MINUTE, slackPacing } from './pacing.js';
export {
  OPEN_ACTION_ID,
  renderSlackMessage,
  type SlackBlock,
  type SlackMessagePayload,
} from './render-message.js';
export {
  type RenderReplyOptions,
  renderSlackReply,
  SHARE_ACTION_ID,
  type SlackReplyPayload,
} from './render-reply.js';
export { SLACK_BOT_SCOPES } from './scopes.js';
export { createSlackAdapter } from './slack-adapter.js';
