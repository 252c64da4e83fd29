/**
 * Bot scopes the app asks for on install (kept in step with slack-manifest.yml):
 * `commands` for /directory, `chat:write` (+ `.public` to post in public channels without an
 * invite), `channels:join` for the one join on `not_in_channel`, `users:read` for the admin check.
 */
export const SLACK_BOT_SCOPES = [
  'commands',
  'chat:write',
  'chat:write.public',
  'channels:join',
  'users:read',
] as const;
