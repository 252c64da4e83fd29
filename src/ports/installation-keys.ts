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
