import {
  ACTION_ID_PREFIX,
  type CommandHandler,
  type CommandInvocation,
  type CommandReply,
  decodeActionId,
  EXPIRED_ACTION_TEXT,
  type Logger,
  withDeadline,
} from '../../src/ports/index.js';
import { readFormCustomId, readModalValues, renderFormModal } from './form-modal.js';
import { CallbackType, InteractionKind, type RawInteraction } from './interaction-payload.js';
import type { InteractionResponder } from './interaction-responder.js';
import { actorOf, channelOf, commandText, focusedOption } from './interaction-text.js';
import { EPHEMERAL_FLAG, NO_MENTIONS } from './limits.js';
import { renderDiscordReply, SHARE_PREFIX } from './render-message.js';

const PLATFORM = 'discord';
const AUTOCOMPLETE_MAX = 25;
const CHOICE_MAX = 100;

export interface InteractionFlowDeps {
  commands: CommandHandler;
  logger: Logger;
  /**
   * How long to wait for the core before deferring. Discord invalidates the interaction if
   * nothing is sent within 3 s, so this leaves room for the round trip.
   */
  deferAfterMs: number;
}

const formExpired: CommandReply = {
  visibility: 'ephemeral',
  text: 'This form has expired. Run the command again to open a new one.',
  messages: [],
  shareable: false,
  error: { code: 'form_expired' },
};

function formTooSlow(command: string): CommandReply {
  return {
    visibility: 'ephemeral',
    text: `The ${command} form could not be opened in time. Run it again, or type the command: /directory help ${command}.`,
    messages: [],
    shareable: false,
    error: { code: 'form_not_opened' },
  };
}

const failure: CommandReply = {
  visibility: 'ephemeral',
  text: 'Something went wrong while answering that. Please try again in a moment.',
  messages: [],
  shareable: false,
  error: { code: 'internal' },
};

/**
 * Answers one interaction by turning it into a core command and the core's reply into Discord
 * responses: a direct reply when the core is quick, otherwise a deferral followed by an edit.
 * Shared by the gateway and the HTTP endpoint, so both behave the same.
 */
export function createInteractionFlow(deps: InteractionFlowDeps) {
  const { commands, logger } = deps;

  async function ask(invocation: CommandInvocation): Promise<CommandReply> {
    try {
      return await commands.handle(invocation);
    } catch (error) {
      logger.error({ err: error, command: invocation.text }, 'discord command failed');
      return failure;
    }
  }

  async function runCommand(
    interaction: RawInteraction,
    responder: InteractionResponder,
    text: string,
    share: boolean,
    via?: 'button',
  ): Promise<void> {
    const invocation: CommandInvocation = {
      platform: PLATFORM,
      channelId: channelOf(interaction),
      actor: actorOf(interaction),
      text,
      // A slash command may answer with a modal; a button press (a share, a message button) may not.
      ...(share || via !== undefined ? {} : { canOpenForm: true }),
      ...(via === undefined ? {} : { via }),
    };
    if (interaction.guild_id) invocation.workspaceId = interaction.guild_id;
    const render = (reply: CommandReply) =>
      share
        ? renderDiscordReply(reply, { visibility: 'in_channel' })
        : renderDiscordReply(reply, { commandText: text });
    await answer(responder, ask(invocation), render, share, invocation.channelId);
  }

  /**
   * Sends the core's reply as the interaction's response: directly when the core is quick (a
   * form as a MODAL response), otherwise a deferral followed by an edit.
   */
  async function answer(
    responder: InteractionResponder,
    pending: Promise<CommandReply>,
    render: (reply: CommandReply) => ReturnType<typeof renderDiscordReply>,
    share: boolean,
    channelId: string,
  ): Promise<void> {
    const quick = await withDeadline(pending, deps.deferAfterMs, () => undefined);
    if (quick?.form) {
      await responder.respond({ type: CallbackType.Modal, data: renderFormModal(quick.form, channelId) });
      return;
    }
    if (quick) {
      await responder.respond({ type: CallbackType.ChannelMessage, data: render(quick) });
      return;
    }

    // Ephemerality is fixed when deferring, before the reply's visibility is known: lookups
    // are ephemeral by default, a share is public by definition.
    const deferredEphemeral = !share;
    await responder.respond({
      type: CallbackType.DeferredChannelMessage,
      data: deferredEphemeral ? { flags: EPHEMERAL_FLAG } : {},
    });
    const late = await pending;
    // A modal can only be the first response: after a deferral, say so instead.
    const body = render(late.form ? formTooSlow(late.form.command) : late);
    const wantsEphemeral = body.flags === EPHEMERAL_FLAG;
    if (wantsEphemeral === deferredEphemeral) {
      const { flags: _fixedAtDefer, ...edit } = body;
      await responder.editOriginal(edit);
      return;
    }
    // The deferred message has the wrong visibility: post the answer as a follow-up with its
    // own flag, then remove the placeholder.
    await responder.followUp(body);
    await responder.deleteOriginal();
  }

  /**
   * A submitted form (MODAL_SUBMIT). The channel in the modal's custom id must be the one the
   * submission comes from, and the permission is the submitter's there as Discord computed it
   * for this signed interaction: the custom id alone authorises nothing.
   */
  async function submitForm(interaction: RawInteraction, responder: InteractionResponder): Promise<void> {
    const target = readFormCustomId(interaction.data?.custom_id ?? '');
    const channelId = channelOf(interaction);
    const render = (reply: CommandReply) => renderDiscordReply(reply);
    if (target === undefined) return;
    if (target === 'expired' || target.channelId !== channelId || commands.submitForm === undefined) {
      await responder.respond({ type: CallbackType.ChannelMessage, data: render(formExpired) });
      return;
    }
    const pending = commands
      .submitForm({
        platform: PLATFORM,
        channelId,
        ...(interaction.guild_id ? { workspaceId: interaction.guild_id } : {}),
        actor: actorOf(interaction),
        command: target.command,
        values: readModalValues(interaction.data?.components),
      })
      .catch((error: unknown) => {
        logger.error({ err: error, command: target.command }, 'discord form submission failed');
        return failure;
      });
    await answer(responder, pending, render, false, channelId);
  }

  /**
   * A message button (`dirbot:v1:<verb>:<id>`): the equivalent command run by the clicker in the
   * message's channel, through the same flow as the slash command (quick answer or deferral,
   * permission by the command), so a refusal is the command's own, ephemeral. An id this build
   * cannot read is answered as expired.
   */
  async function runButton(interaction: RawInteraction, responder: InteractionResponder, customId: string) {
    const decoded = decodeActionId(customId);
    if (decoded?.status === 'command') {
      await runCommand(interaction, responder, decoded.command, false, 'button');
      return;
    }
    await responder.respond({
      type: CallbackType.ChannelMessage,
      data: { content: EXPIRED_ACTION_TEXT, flags: EPHEMERAL_FLAG, allowed_mentions: NO_MENTIONS },
    });
  }

  async function autocomplete(interaction: RawInteraction, responder: InteractionResponder): Promise<void> {
    const focused = focusedOption(interaction, commands.definitions());
    let suggestions: readonly string[] = [];
    if (focused && commands.complete) {
      const lookup = commands
        .complete(focused.command, focused.option, focused.partial)
        .catch((error: unknown) => {
          logger.warn({ err: error, option: focused.option }, 'discord autocomplete failed');
          return [] as readonly string[];
        });
      suggestions = (await withDeadline(lookup, deps.deferAfterMs, () => undefined)) ?? [];
    }
    const choices = suggestions
      .filter((value) => value.length > 0 && value.length <= CHOICE_MAX)
      .filter((value) => focused?.type !== 'integer' || /^-?\d+$/.test(value))
      .slice(0, AUTOCOMPLETE_MAX)
      .map((value) => ({ name: value, value: focused?.type === 'integer' ? Number(value) : value }));
    await responder.respond({ type: CallbackType.AutocompleteResult, data: { choices } });
  }

  /**
   * Handles a command, autocomplete, share-button, message-button or form (modal submit) interaction. Errors reaching Discord are
   * logged, never thrown: the interaction is lost either way, and the caller has nothing to retry.
   */
  return async function handleInteraction(
    interaction: RawInteraction,
    responder: InteractionResponder,
  ): Promise<void> {
    try {
      switch (interaction.type) {
        case InteractionKind.ApplicationCommand:
          await runCommand(interaction, responder, commandText(interaction, commands.definitions()), false);
          return;
        case InteractionKind.Autocomplete:
          await autocomplete(interaction, responder);
          return;
        case InteractionKind.ModalSubmit:
          await submitForm(interaction, responder);
          return;
        case InteractionKind.MessageComponent: {
          const customId = interaction.data?.custom_id ?? '';
          if (customId.startsWith(SHARE_PREFIX)) {
            await runCommand(interaction, responder, customId.slice(SHARE_PREFIX.length), true);
          } else if (customId.startsWith(ACTION_ID_PREFIX)) {
            await runButton(interaction, responder, customId);
          }
          return;
        }
        default:
          logger.debug({ type: interaction.type }, 'ignoring unsupported discord interaction type');
      }
    } catch (error) {
      logger.warn({ err: error, interactionId: interaction.id }, 'answering a discord interaction failed');
    }
  };
}

export type InteractionFlow = ReturnType<typeof createInteractionFlow>;
