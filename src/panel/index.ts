/**
 * The control panel in the browser (issue 28): sign-in with Slack or Discord (or, in the sandbox,
 * at this machine), every visible channel's subscriptions with their preview, delivery log,
 * history and "why", and changes run as the `/directory` commands they stand for.
 */
export type { PanelUser } from './access.js';
export { createPanel, type Panel, type PanelOptions } from './create-panel.js';
export type {
  DeliveryLogReader,
  MessageRenderers,
  PanelDeps,
  PanelWebhook,
  PanelWebhooks,
} from './panel-deps.js';
export { SESSION_KEY_PREFIX } from './session-store.js';
export { discordSignIn } from './sign-in/discord-sign-in.js';
export type { SignInProvider } from './sign-in/sign-in-provider.js';
export { slackSignIn } from './sign-in/slack-sign-in.js';
