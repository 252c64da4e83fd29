import type { webApi } from '@slack/bolt';
import type { DeliveryOutcome, Destination, Logger, Message } from '../../src/ports/index.js';
import {
  isTokenError,
  outcomeFromSlackError,
  rateLimitRetryAfterMs,
  type SlackErrorContext,
  slackErrorCode,
} from './error-mapping.js';
import type { SlackAdapterEvent } from './events.js';
import { renderSlackMessage } from './render-message.js';
import { threadFields, threadRejection } from './threads.js';
import type { TokenHealth } from './token-health.js';

export interface SlackDeliveryDeps {
  client: webApi.WebClient;
  /** The bot token for the destination's workspace; undefined when that workspace has no install. */
  tokenFor(destination: Destination): Promise<string | undefined>;
  /**
   * Slack answered `token_expired` for `usedToken` (its clock ahead of ours): the refreshed
   * token of the destination's workspace. Absent without token rotation.
   */
  refreshExpired?(destination: Destination, usedToken: string): Promise<string | undefined>;
  logger: Logger;
  emit(event: SlackAdapterEvent): void;
  /**
   * The one configured bot token's health, told what Slack said about it. Absent with
   * multi-workspace OAuth: one workspace's token says nothing about the bot as a whole.
   */
  tokenHealth?: TokenHealth;
}

/** Errors of the Web API client (a Slack answer, an HTTP status, a network failure). */
function isSlackError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('slack_webapi_');
}

export type SlackDeliver = (destination: Destination, message: Message) => Promise<DeliveryOutcome>;

/**
 * Posts one rendered message with chat.postMessage and reports the outcome as a value. The client
 * rejects 429s instead of sleeping on them, so the core's outbox owns pacing and retries. On
 * `not_in_channel` the bot joins the (public) channel once and retries the post once.
 */
export function createSlackDelivery(deps: SlackDeliveryDeps): SlackDeliver {
  const { client, logger, tokenHealth } = deps;
  const context: SlackErrorContext = { multiWorkspace: tokenHealth === undefined };
  const outcomeOf = (error: unknown) => outcomeFromSlackError(error, context);

  function observe(method: string, error: unknown): void {
    const retryAfterMs = rateLimitRetryAfterMs(error);
    if (retryAfterMs !== undefined) deps.emit({ type: 'rate_limited', method, retryAfterMs });
  }

  return async function deliver(destination, message) {
    const channel = destination.channelId;
    const workspace = destination.workspaceId === undefined ? {} : { workspaceId: destination.workspaceId };
    const finish = (outcome: DeliveryOutcome): DeliveryOutcome => {
      if (outcome.status === 'delivered') {
        tokenHealth?.accepted();
        deps.emit({ type: 'delivered', channelId: channel, ...workspace });
      } else if (outcome.status === 'rejected') {
        const scope = outcome.scope ?? 'destination';
        deps.emit({ type: 'rejected', channelId: channel, code: outcome.code, scope, ...workspace });
      } else {
        if (isTokenError(outcome.code)) {
          if (tokenHealth === undefined) {
            logger.warn({ workspaceId: destination.workspaceId, code: outcome.code }, outcome.reason);
          } else {
            tokenHealth.refused(outcome.code);
          }
        }
        const retry = outcome.retryAfterMs === undefined ? {} : { retryAfterMs: outcome.retryAfterMs };
        deps.emit({ type: 'failed', channelId: channel, code: outcome.code, ...retry, ...workspace });
      }
      return outcome;
    };

    let token: string | undefined;
    try {
      token = await deps.tokenFor(destination);
    } catch (error) {
      // A refused or unreachable token refresh (token rotation) is Slack's answer, not the store's.
      if (isSlackError(error)) return finish(outcomeOf(error));
      logger.warn(
        { err: error, workspaceId: destination.workspaceId },
        'could not read the Slack installation',
      );
      return finish({
        status: 'failed',
        code: 'store_unavailable',
        reason: 'Could not read the Slack installation',
      });
    }
    if (token === undefined) {
      return finish({
        status: 'rejected',
        code: 'not_installed',
        reason: `The app is not installed in workspace ${destination.workspaceId ?? '(none given)'}`,
        scope: 'destination',
      });
    }

    /** Narrowed, and replaced once if Slack says it expired. */
    let usable: string = token;
    const payload = { ...renderSlackMessage(message), ...threadFields(destination) };
    const post = async (): Promise<DeliveryOutcome> => {
      const result = await client.chat.postMessage({ token: usable, channel, ...payload });
      if (typeof result.ts !== 'string') return { status: 'delivered' };
      // A reply names the thread it is in, so its link opens it there (message-link.ts).
      const parent = destination.thread?.parentMessageId;
      return { status: 'delivered', platformMessageId: result.ts, ...(parent ? { threadId: parent } : {}) };
    };

    try {
      return finish(await post());
    } catch (error) {
      observe('chat.postMessage', error);
      const code = slackErrorCode(error);
      if (code === 'token_expired' && deps.refreshExpired !== undefined) {
        // Expired on Slack's clock before ours: one refresh, one more post.
        try {
          usable = (await deps.refreshExpired(destination, usable)) ?? usable;
          deps.emit({ type: 'retry', channelId: channel, reason: 'token_expired' });
          return finish(await post());
        } catch (retryError) {
          observe('chat.postMessage', retryError);
          return finish(outcomeOf(retryError));
        }
      }
      if (code !== 'not_in_channel') return finish(threadRejection(destination, code) ?? outcomeOf(error));
    }

    // not_in_channel: join once (public channels only; a private one answers method_not_supported_for_channel_type).
    try {
      await client.conversations.join({ token: usable, channel });
      deps.emit({ type: 'joined', channelId: channel });
    } catch (joinError) {
      observe('conversations.join', joinError);
      const joinCode = slackErrorCode(joinError);
      // Only an answer about the channel makes not_in_channel final; a refused token, a 429 or a
      // network error is no more the channel's fault on join than on post.
      if (joinCode === undefined || isTokenError(joinCode)) return finish(outcomeOf(joinError));
      logger.info({ channel, joinCode }, 'could not join the Slack channel after not_in_channel');
      return finish({
        status: 'rejected',
        code: 'not_in_channel',
        reason: `The bot is not in the channel and could not join it (${joinCode})`,
        scope: 'destination',
      });
    }
    deps.emit({ type: 'retry', channelId: channel, reason: 'not_in_channel' });
    try {
      return finish(await post());
    } catch (error) {
      observe('chat.postMessage', error);
      return finish(outcomeOf(error));
    }
  };
}
