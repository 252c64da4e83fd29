/**
 * Bot scopes the app asks for on install (kept in step with slack-manifest.yml; why each one,
 * with the Web API method that needs it: docs/slack.md, "Permissions and why each is needed"):
 * `commands` for /directory, `chat:write` (+ `.public` to post in public channels without an
 * invite), `channels:join` for the one join on `not_in_channel`, `users:read` for the admin check,
 * `links:read` for `link_shared` and `links:write` for `chat.unfurl` (link previews),
 * `im:write` to open the DM a `/directory remind` reminder arrives in.
 */
export const SLACK_BOT_SCOPES = [
  'commands',
  'chat:write',
  'chat:write.public',
  'channels:join',
  'users:read',
  'links:read',
  'links:write',
  'im:write',
] as const;
