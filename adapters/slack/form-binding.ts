import type { App, webApi } from '@slack/bolt';
import type { CommandForm, CommandHandler, CommandReply, Logger } from '../../src/ports/index.js';
import { truncate, withDeadline } from '../../src/ports/index.js';
import type { AdminLookup } from './admin-lookup.js';
import type { SlackAdapterEvent } from './events.js';
import {
  FORM_CALLBACK_ID,
  FORM_CALLBACK_PATTERN,
  type FormMetadata,
  readFormMetadata,
  readFormValues,
  renderFormModal,
} from './form-modal.js';
import { renderSlackReply } from './render-reply.js';

/** Slack shows a block's inline error under the input as plain text (no markup, no mentions); longer ones are cut. */
const INLINE_ERROR_MAX = 2000;

/**
 * Opens the core's form as a modal with the slash command's `trigger_id`, which Slack honours
 * for 3 seconds only: called as soon as the core has answered. False when Slack refused.
 */
export async function openFormModal(
  client: webApi.WebClient,
  triggerId: string,
  form: CommandForm,
  metadata: FormMetadata,
  logger: Logger,
): Promise<boolean> {
  try {
    await client.views.open({ trigger_id: triggerId, view: renderFormModal(form, metadata) as never });
    return true;
  } catch (error) {
    logger.warn({ err: error, command: form.command }, 'could not open the form modal');
    return false;
  }
}

/** What the person sees instead of a form Slack would not open. */
export function formNotOpened(form: CommandForm): CommandReply {
  return {
    visibility: 'ephemeral',
    text: `The ${form.command} form could not be opened (Slack allows 3 seconds). Run it again, or type the command: /directory help ${form.command}.`,
    messages: [],
    shareable: false,
    error: { code: 'form_not_opened' },
  };
}

export interface FormBindingDeps {
  app: App;
  commands: CommandHandler;
  admin: AdminLookup;
  logger: Logger;
  emit(event: SlackAdapterEvent): void;
  /** How long to wait for the core before closing the modal and answering by chat.postEphemeral. */
  ackBudgetMs: number;
}

type ViewAck = (response?: { response_action: 'errors'; errors: Record<string, string> }) => Promise<void>;

/**
 * Answers submitted form modals (`view_submission`, signature-checked by Bolt like every request).
 * The channel comes from the modal's `private_metadata`, which only this app can set; the
 * permission is decided afresh by the core from the submitter as Slack names them, as for the
 * typed command. A problem is shown under the input it is about; success closes the modal and
 * posts the typed command's confirmation and preview privately in the channel.
 */
export function bindFormSubmissions(deps: FormBindingDeps): void {
  const { app, commands, logger } = deps;

  app.view(FORM_CALLBACK_PATTERN, async ({ ack, body, view, client }) => {
    const respond = ack as ViewAck;
    const metadata = readFormMetadata(view.private_metadata);
    const firstBlock = view.blocks[0]?.block_id ?? 'feed';
    const refuse = (text: string) =>
      respond({ response_action: 'errors', errors: { [firstBlock]: truncate(text, INLINE_ERROR_MAX) } });
    const teamId = body.team?.id ?? undefined;
    // Ours only if opened by this person in this workspace, and of the form version we read.
    if (
      view.callback_id !== FORM_CALLBACK_ID ||
      metadata === undefined ||
      metadata.userId !== body.user.id ||
      metadata.teamId !== teamId ||
      commands.submitForm === undefined
    ) {
      await refuse('This form has expired. Close it and run the command again.');
      return;
    }
    // Inside the ack budget: users.info on a cold cache may be slow, and Slack allows 3 s.
    const work = deps.admin
      .isAdminOrOwner(client, teamId, body.user.id)
      .then((canManageChannel) =>
        commands.submitForm!({
          platform: 'slack',
          channelId: metadata.channelId,
          ...(teamId === undefined ? {} : { workspaceId: teamId }),
          actor: { userId: body.user.id, canManageChannel, displayName: body.user.name },
          command: metadata.command,
          values: readFormValues(view.state.values as never),
        }),
      )
      .catch((error: unknown): CommandReply => {
        logger.error({ err: error }, 'the form submission handler threw');
        return {
          visibility: 'ephemeral',
          text: 'Something went wrong while answering. Please try again in a minute.',
          messages: [],
          shareable: false,
          error: { code: 'internal' },
        };
      });
    const quick = await withDeadline(work, deps.ackBudgetMs, () => undefined);
    if (quick?.error !== undefined) {
      const block = view.blocks.some((b) => b.block_id === quick.error?.option)
        ? (quick.error.option as string)
        : firstBlock;
      await respond({
        response_action: 'errors',
        errors: { [block]: truncate(quick.text, INLINE_ERROR_MAX) },
      });
      deps.emit({ type: 'form', stage: 'submitted', deferred: false, failed: true });
      return;
    }
    // Success, or the core is slow: close the modal now (Slack allows 3 s) and answer in the channel.
    await respond();
    const reply = quick ?? (await work);
    const rendered = renderSlackReply(reply);
    try {
      await client.chat.postEphemeral({
        channel: metadata.channelId,
        user: body.user.id,
        text: rendered.text,
        blocks: rendered.blocks as never,
      });
    } catch (error) {
      // chat.postEphemeral needs the bot in the channel; the command's response_url does not.
      const answered = await answerThroughResponseUrl(metadata.responseUrl, rendered);
      if (!answered) logger.warn({ err: error }, 'could not post the form answer');
    }
    deps.emit({
      type: 'form',
      stage: 'submitted',
      deferred: quick === undefined,
      failed: reply.error !== undefined,
    });
  });
}

/** Posts the answer privately through a slash command's response_url; false when it could not. */
async function answerThroughResponseUrl(url: string | undefined, rendered: object): Promise<boolean> {
  if (url === undefined) return false;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...rendered, response_type: 'ephemeral', replace_original: false }),
      signal: AbortSignal.timeout(10_000),
    });
    return res.ok;
  } catch {
    return false;
  }
}
