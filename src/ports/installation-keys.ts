/**
 * Where Slack OAuth installations live in the store. adapters/slack/installation-store.ts
 * writes them; src/workspaces/ finds them to export or forget one workspace, so the key
 * format is written down once, here. Org-wide (Enterprise Grid) installs are keyed by
 * enterprise, all others by team.
 */
export const SLACK_INSTALLATION_KEYS = {
  prefix: 'slack:installation:',
  team: (teamId: string) => `slack:installation:team:${teamId}`,
  enterprise: (enterpriseId: string) => `slack:installation:enterprise:${enterpriseId}`,
};

/**
 * Where an installation holds a credential (holder, field): the bot and user tokens, their
 * refresh tokens, and an incoming webhook's URL (its own credential). These are sealed at
 * rest; the rest of the installation stays readable.
 */
export const SLACK_INSTALLATION_SECRETS: readonly (readonly [holder: string, field: string])[] = [
  ['bot', 'token'],
  ['bot', 'refreshToken'],
  ['user', 'token'],
  ['user', 'refreshToken'],
  ['incomingWebhook', 'url'],
];
