import { signedHeaders } from './signing.js';

/** What Slack's Events API posts: an `event_callback` envelope around one event of one workspace. */
export function eventCallback(teamId: string, event: Record<string, unknown>): Record<string, unknown> {
  return {
    token: 'deprecated-verification-token',
    team_id: teamId,
    api_app_id: 'A0FAKE',
    event: { ...event, event_ts: `${Date.now() / 1000}` },
    type: 'event_callback',
    event_id: `Ev${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [],
    is_ext_shared_channel: false,
  };
}

/**
 * Posts one Events API request to the bot's `/slack/events`, JSON and signed with `signingSecret`
 * at `timestamp` (Unix seconds; default now).
 */
export function postEvent(
  botUrl: string,
  signingSecret: string,
  teamId: string,
  event: Record<string, unknown>,
  timestamp = Math.floor(Date.now() / 1000),
): Promise<Response> {
  const body = JSON.stringify(eventCallback(teamId, event));
  return fetch(`${botUrl}/slack/events`, {
    method: 'POST',
    body,
    headers: signedHeaders(signingSecret, body, timestamp, 'application/json'),
  });
}

/** `app_uninstalled`, as Slack sends it when a workspace removes the app. */
export const APP_UNINSTALLED = { type: 'app_uninstalled' } as const;

/** `tokens_revoked` naming the bot user's token (`bot`) and/or users' tokens (`oauth`). */
export function tokensRevoked(tokens: { bot?: string[]; oauth?: string[] }): Record<string, unknown> {
  return { type: 'tokens_revoked', tokens };
}

/**
 * `link_shared`, as Slack sends it when someone pastes links on one of the app's unfurl domains:
 * each link with its domain, where it was pasted (`channel` + `message_ts`, or `COMPOSER` and an
 * `unfurl_id` while the message is still being written), and never the message's text.
 */
export function linkShared(options: {
  channel: string;
  user: string;
  messageTs: string;
  urls: readonly string[];
  unfurlId: string;
  source: 'composer' | 'conversations_history';
}): Record<string, unknown> {
  return {
    type: 'link_shared',
    channel: options.channel,
    is_bot_user_member: true,
    user: options.user,
    message_ts: options.messageTs,
    unfurl_id: options.unfurlId,
    source: options.source,
    links: options.urls.map((url) => ({ domain: new URL(url).hostname, url })),
  };
}
