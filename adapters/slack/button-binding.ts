import type { App } from '@slack/bolt';
import { ACTION_ID_PREFIX, decodeActionId, EXPIRED_ACTION_TEXT, type Logger } from '../../src/ports/index.js';
import type { CommandRunner } from './command-runner.js';
import { escapeSlackText } from './escape.js';
import type { SlackAdapterEvent } from './events.js';
import { renderSlackReply } from './render-reply.js';

export interface ButtonBindingDeps {
  app: App;
  runner: Pick<CommandRunner, 'actorFor' | 'run'>;
  logger: Logger;
  emit(event: SlackAdapterEvent): void;
}

const ours = new RegExp(`^${ACTION_ID_PREFIX}`);

/**
 * Binds the message buttons (`dirbot:v1:<verb>:<id>`): a click is the equivalent command run by
 * the clicker in the message's channel, through the same runner as `/directory`, so it is
 * authorised exactly as the command (a refusal is the command's own, ephemeral, and changes
 * nothing). Bolt's receiver has already checked the signature and the five-minute window.
 *
 * A block_actions ack carries no message, so the ack goes first, at once, and the answer follows
 * through the response_url: ephemeral to the clicker, or in the channel when the command
 * answers there (a new subscription's confirmation), never replacing the message clicked.
 */
export function bindMessageButtons(deps: ButtonBindingDeps): void {
  const { app, runner, logger } = deps;

  app.action(ours, async ({ ack, body, action, respond, client }) => {
    await ack();
    if (body.type !== 'block_actions' || action.type !== 'button' || !('action_id' in action)) return;
    const actionId = action.action_id;
    const decoded = decodeActionId(actionId);
    if (decoded === undefined) return;
    try {
      if (decoded.status === 'expired') {
        deps.emit({ type: 'button', verb: 'expired', failed: true });
        await respond({
          response_type: 'ephemeral',
          replace_original: false,
          text: escapeSlackText(EXPIRED_ACTION_TEXT),
        });
        return;
      }
      const channelId = body.channel?.id ?? body.container?.channel_id;
      if (typeof channelId !== 'string') return;
      const teamId = body.team?.id ?? body.user.team_id;
      const text = decoded.command;
      const actor = await runner.actorFor(client, teamId, body.user.id, body.user.name, text);
      const reply = await runner.run({
        platform: 'slack',
        channelId,
        ...(teamId === undefined ? {} : { workspaceId: teamId }),
        actor,
        text,
        via: 'button',
      });
      deps.emit({ type: 'button', verb: decoded.verb, failed: reply.error !== undefined });
      await respond({ ...renderSlackReply(reply, { shareValue: text }), replace_original: false });
    } catch (error) {
      logger.warn({ err: error, actionId }, 'could not answer a message button');
    }
  });
}
