import type { App } from '@slack/bolt';
import type { CommandHandler, Logger } from '../../src/ports/index.js';
import { withDeadline } from '../../src/ports/index.js';
import type { AdminLookup } from './admin-lookup.js';
import { bindMessageButtons } from './button-binding.js';
import { createCommandRunner } from './command-runner.js';
import type { SlackAdapterEvent } from './events.js';
import { bindFormSubmissions, formNotOpened, openFormModal } from './form-binding.js';
import { OPEN_ACTION_ID } from './render-message.js';
import { renderSlackReply, SHARE_ACTION_ID } from './render-reply.js';

export interface CommandBindingDeps {
  app: App;
  commands: CommandHandler;
  admin: AdminLookup;
  logger: Logger;
  emit(event: SlackAdapterEvent): void;
  /** The slash command as configured in the manifest. */
  commandName: string;
  /**
   * How long to wait for the core before acking with "Working on it…" and answering through
   * response_url. Below Slack's 3 s so the ack always arrives in time.
   */
  ackBudgetMs: number;
}

const WORKING = { response_type: 'ephemeral' as const, text: 'Working on it…' };

/** A Slack user id we may wrap in `<@…>`: the mention of the person who pressed the button. */
function isSlackUserId(value: string): boolean {
  return /^[UW][A-Z0-9]+$/.test(value);
}

/**
 * Binds `/directory`, the "Share in channel"/"Open" buttons and the message buttons to the core's
 * command handler.
 * The adapter only translates: it establishes the actor, hands the text to the core, and renders
 * the reply; the core parses, checks permissions and decides visibility.
 */
export function bindDirectoryCommand(deps: CommandBindingDeps): void {
  const { app, commands, logger } = deps;
  const { managesChannel, actorFor, run } = createCommandRunner(deps);

  app.command(deps.commandName, async ({ command, ack, respond, client }) => {
    const text = command.text.trim();
    const work = (async () => {
      const actor = await actorFor(client, command.team_id, command.user_id, command.user_name, text);
      const reply = await run({
        platform: 'slack',
        channelId: command.channel_id,
        ...(command.team_id === undefined ? {} : { workspaceId: command.team_id }),
        actor,
        text,
        canOpenForm: true,
      });
      if (reply.form === undefined) return reply;
      // A form opens as a modal at once: the trigger_id lasts 3 seconds from the command.
      const metadata = {
        command: reply.form.command,
        channelId: command.channel_id,
        userId: command.user_id,
        ...(command.team_id === undefined ? {} : { teamId: command.team_id }),
        responseUrl: command.response_url,
      };
      const opened = await openFormModal(client, command.trigger_id, reply.form, metadata, logger);
      deps.emit({ type: 'form', stage: 'opened', failed: !opened });
      return opened ? undefined : formNotOpened(reply.form);
    })();

    const fast = await withDeadline(work, deps.ackBudgetMs, () => null);

    if (fast === undefined) {
      // The form is open: an empty ack leaves nothing behind in the channel.
      await ack();
      return;
    }
    if (fast !== null) {
      await ack(renderSlackReply(fast, { shareValue: text }));
      deps.emit({ type: 'command', deferred: false, failed: fast.error !== undefined });
      return;
    }
    // Slack drops the command after 3 s without an ack; answer the rest through response_url.
    await ack(WORKING);
    const reply = await work;
    if (reply === undefined) {
      await respond({ delete_original: true }).catch(() => undefined);
      return;
    }
    try {
      await respond({ ...renderSlackReply(reply, { shareValue: text }), replace_original: true });
    } catch (error) {
      logger.warn({ err: error }, 'could not answer the command through response_url');
    }
    deps.emit({ type: 'command', deferred: true, failed: reply.error !== undefined });
  });

  app.action(SHARE_ACTION_ID, async ({ ack, body, action, respond, client }) => {
    await ack();
    if (action.type !== 'button' || body.type !== 'block_actions') return;
    const text = action.value ?? '';
    const channelId = body.channel?.id;
    const teamId = body.team?.id ?? undefined;
    if (channelId === undefined || text === '') return;
    // The value comes back from Slack signed, but only lookups are re-run: never replay a command
    // that changes channel state because someone pressed a button.
    if (managesChannel(text)) {
      await respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: 'This result cannot be shared.',
      });
      return;
    }
    const actor = await actorFor(client, teamId, body.user.id, body.user.name, text);
    const reply = await run({
      platform: 'slack',
      channelId,
      ...(teamId === undefined ? {} : { workspaceId: teamId }),
      actor,
      text,
    });
    if (reply.error !== undefined || reply.messages.length === 0) {
      await respond({ ...renderSlackReply({ ...reply, visibility: 'ephemeral' }), replace_original: false });
      return;
    }
    const note = isSlackUserId(body.user.id) ? `Shared by <@${body.user.id}>` : 'Shared from /directory';
    // Post to the channel first, then remove the private copy, so a failed share loses nothing.
    await respond({
      ...renderSlackReply({ ...reply, visibility: 'in_channel', shareable: false }, { note }),
      replace_original: false,
    });
    await respond({ delete_original: true });
    deps.emit({ type: 'shared' });
  });

  bindFormSubmissions({
    app,
    commands,
    admin: deps.admin,
    logger,
    emit: deps.emit,
    ackBudgetMs: deps.ackBudgetMs,
  });

  // The "Open" button is a plain link, but Slack still sends an interaction that wants an ack.
  app.action(new RegExp(`^${OPEN_ACTION_ID}`), async ({ ack }) => {
    await ack();
  });
  bindMessageButtons({ app, runner: { actorFor, run }, logger, emit: deps.emit });
}
