import type { DeliveryOutcome } from '../../src/ports/index.js';

/**
 * Slack errors that mean "this channel will not take the bot's posts", whatever is retried: the
 * channel is gone or closed to the bot. The core pauses the channel's subscriptions.
 * `not_in_channel` is only final after the one join attempt failed.
 */
const DESTINATION_ERRORS = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'no_permission',
  'missing_scope',
  'not_allowed_token_type',
  'team_access_not_granted',
  'ekm_access_denied',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_thread_only_channel',
  'restricted_action_non_threadable_channel',
]);

/**
 * Slack errors about the bot's token. With one configured token (SLACK_BOT_TOKEN) they are
 * bot-wide, never a channel's fault: every channel would fail alike, and pausing them all would
 * lose the subscriptions over something the operator fixes in one place (or that Slack itself
 * recovers from), so they are transient and reported through readiness instead.
 */
const TOKEN_ERRORS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
  // Token rotation: the refresh token was refused, so no access token can be had any more.
  'invalid_refresh_token',
]);

/**
 * With multi-workspace OAuth each token belongs to one workspace: these mean that workspace
 * uninstalled the app or was deactivated, which concerns only its own channels.
 */
const WORKSPACE_GONE_ERRORS = new Set(['token_revoked', 'account_inactive', 'invalid_refresh_token']);

/** True when `code` says the bot token itself was refused, not the channel or the payload. */
export function isTokenError(code: string | undefined): boolean {
  return code !== undefined && TOKEN_ERRORS.has(code);
}

/**
 * Slack errors about the payload, not the channel: this one message is refused and sending it
 * again gives the same answer, but the next message to the channel may well go through. The core
 * drops only the message; pausing the channel for a rendering bug would silence it for good.
 */
const MESSAGE_ERRORS = new Set([
  'invalid_blocks',
  'invalid_blocks_format',
  'invalid_attachments',
  'msg_too_long',
  'msg_blocks_too_long',
  'no_text',
  'too_many_attachments',
  'invalid_arguments',
  'invalid_arg_name',
  'invalid_array_arg',
  'invalid_charset',
  'invalid_form_data',
  'invalid_post_type',
  'missing_post_type',
  'invalid_metadata_format',
  'invalid_metadata_schema',
  'metadata_too_large',
]);

interface SlackishError {
  code?: unknown;
  data?: { error?: unknown };
  retryAfter?: unknown;
  statusCode?: unknown;
  original?: unknown;
  message?: unknown;
}

/** The Slack `error` string of a Web API platform error, if `error` is one. */
export function slackErrorCode(error: unknown): string | undefined {
  const e = error as SlackishError | null;
  if (e?.code === 'slack_webapi_platform_error' && typeof e.data?.error === 'string') return e.data.error;
  return undefined;
}

/** Seconds from a `WebAPIRateLimitedError`, as milliseconds. */
export function rateLimitRetryAfterMs(error: unknown): number | undefined {
  const e = error as SlackishError | null;
  if (e?.code !== 'slack_webapi_rate_limited_error') return undefined;
  return typeof e.retryAfter === 'number' && Number.isFinite(e.retryAfter) ? e.retryAfter * 1000 : 1000;
}

export interface SlackErrorContext {
  /** The token came from one workspace's OAuth install rather than the one configured bot token. */
  multiWorkspace: boolean;
}

/**
 * Maps a `@slack/web-api` error to the core's outcome: channel errors → rejected (scope
 * `destination`), payload errors → rejected (scope `message`), a refused bot token → failed
 * (bot-wide; with OAuth a revoked or inactive workspace → rejected for its channels), 429 →
 * failed with `retryAfterMs` from Retry-After, 5xx, timeouts, network and unknown errors → failed.
 * Unknown Slack error strings are treated as transient so a new code never disables a channel.
 */
export function outcomeFromSlackError(
  error: unknown,
  context: SlackErrorContext = { multiWorkspace: false },
): Exclude<DeliveryOutcome, { status: 'delivered' }> {
  const e = error as SlackishError | null;
  const retryAfterMs = rateLimitRetryAfterMs(error);
  if (retryAfterMs !== undefined) {
    return { status: 'failed', code: 'rate_limited', reason: 'Slack answered 429', retryAfterMs };
  }
  const slackCode = slackErrorCode(error);
  if (slackCode !== undefined) {
    if (MESSAGE_ERRORS.has(slackCode)) {
      return {
        status: 'rejected',
        code: slackCode,
        reason: `Slack refused this message: ${slackCode}`,
        scope: 'message',
      };
    }
    if (TOKEN_ERRORS.has(slackCode)) {
      if (context.multiWorkspace && WORKSPACE_GONE_ERRORS.has(slackCode)) {
        return {
          status: 'rejected',
          code: slackCode,
          reason: `Slack refused this workspace's token (${slackCode}); reinstall the app there`,
          scope: 'destination',
        };
      }
      return { status: 'failed', code: slackCode, reason: `Slack rejected the bot token (${slackCode})` };
    }
    if (DESTINATION_ERRORS.has(slackCode)) {
      return {
        status: 'rejected',
        code: slackCode,
        reason: `Slack refused the post: ${slackCode}`,
        scope: 'destination',
      };
    }
    return { status: 'failed', code: slackCode, reason: `Slack error: ${slackCode}` };
  }
  if (e?.code === 'slack_webapi_http_error') {
    const status = typeof e.statusCode === 'number' ? e.statusCode : 0;
    return { status: 'failed', code: `http_${status}`, reason: `Slack answered HTTP ${status}` };
  }
  if (e?.code === 'slack_webapi_request_error') {
    const original = e.original as { message?: unknown; name?: unknown } | undefined;
    // The client's `timeout` aborts the fetch with AbortSignal.timeout, which fails as a TimeoutError.
    if (original?.name === 'TimeoutError') {
      return { status: 'failed', code: 'timeout', reason: 'Slack did not answer in time' };
    }
    const detail = typeof original?.message === 'string' ? original.message : 'request failed';
    return { status: 'failed', code: 'network', reason: `Could not reach Slack: ${detail}` };
  }
  const message = typeof e?.message === 'string' ? e.message : String(error);
  return { status: 'failed', code: 'platform_error', reason: message };
}
