import type { webApi } from '@slack/bolt';
import type { DeliveryOutcome, Destination, Logger } from '../../src/ports/index.js';
import { messageOf } from '../../src/ports/index.js';
import { createSlackDelete, type SlackDelete } from './delete-message.js';
import { createSlackEdit, type SlackEdit } from './edit-message.js';
import { outcomeFromSlackError, rateLimitRetryAfterMs, slackErrorCode } from './error-mapping.js';
import type { SlackAdapterEvent } from './events.js';
import { createSlackDelivery, type SlackDeliver, type SlackDeliveryDeps } from './post-message.js';

interface SlackDirectDeps {
  client: webApi.WebClient;
  tokenFor(destination: Destination): Promise<string | undefined>;
  /** The channel delivery, which posts into the opened DM like into any channel. */
  deliver: SlackDeliver;
  logger: Logger;
  emit(event: SlackAdapterEvent): void;
  multiWorkspace: boolean;
}

/** The channel delivery and, on top of it, direct messages to people (reminders). */
export function createSlackDeliveries(deps: SlackDeliveryDeps): {
  deliver: SlackDeliver;
  deliverDirect: SlackDeliver;
  edit: SlackEdit;
  delete: SlackDelete;
} {
  const deliver = createSlackDelivery(deps);
  // Only the one configured token has token health; OAuth tokens speak for one workspace.
  const multiWorkspace = deps.tokenHealth === undefined;
  return {
    deliver,
    deliverDirect: createSlackDirectDelivery({ ...deps, deliver, multiWorkspace }),
    edit: createSlackEdit(deps),
    delete: createSlackDelete(deps),
  };
}

/**
 * `conversations.open` answers about the person that no retry changes (the channel errors'
 * mapping would call an unknown code transient): the DM is dropped, logged and counted.
 */
const PERSON_ERRORS = new Set(['user_not_found', 'user_not_visible', 'user_disabled', 'cannot_dm_bot']);

/** A refusal about one person (no such user, DMs closed, scope missing) drops only this DM. */
function forThisMessage(outcome: DeliveryOutcome): DeliveryOutcome {
  return outcome.status === 'rejected' ? { ...outcome, scope: 'message' } : outcome;
}

/**
 * A direct message to the person `destination.channelId` names: `conversations.open` with their
 * user id (scope `im:write`) gives the DM channel, and the message is posted there with
 * `chat.postMessage`, rendered and escaped like any feed message. Outcomes are values.
 */
function createSlackDirectDelivery(deps: SlackDirectDeps): SlackDeliver {
  return async function deliverDirect(destination, message) {
    const { direct: _direct, ...channelDestination } = destination;
    let token: string | undefined;
    try {
      token = await deps.tokenFor(destination);
    } catch (error) {
      return { status: 'failed', code: 'store_unavailable', reason: messageOf(error) };
    }
    if (token === undefined) {
      return {
        status: 'rejected',
        code: 'not_installed',
        reason: `The app is not installed in workspace ${destination.workspaceId ?? '(none given)'}`,
        scope: 'message',
      };
    }
    let channel: string | undefined;
    try {
      const opened = await deps.client.conversations.open({ token, users: destination.channelId });
      channel = opened.channel?.id;
    } catch (error) {
      const retryAfterMs = rateLimitRetryAfterMs(error);
      if (retryAfterMs !== undefined)
        deps.emit({ type: 'rate_limited', method: 'conversations.open', retryAfterMs });
      const code = slackErrorCode(error);
      const outcome: DeliveryOutcome =
        code !== undefined && PERSON_ERRORS.has(code)
          ? { status: 'rejected', code, reason: `Slack will not open a DM: ${code}`, scope: 'message' }
          : forThisMessage(outcomeFromSlackError(error, { multiWorkspace: deps.multiWorkspace }));
      if (outcome.status === 'rejected') {
        deps.logger.info({ code }, 'could not open a Slack DM for a reminder');
      }
      return outcome;
    }
    if (channel === undefined) {
      return {
        status: 'failed',
        code: 'platform_error',
        reason: 'conversations.open answered without a channel',
      };
    }
    return forThisMessage(await deps.deliver({ ...channelDestination, channelId: channel }, message));
  };
}
