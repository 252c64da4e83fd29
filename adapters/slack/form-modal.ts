import type { CommandForm, FormField } from '../../src/ports/index.js';
import { truncate } from '../../src/ports/index.js';

/**
 * The callback id of every command form's modal. Versioned: a modal opened before a deploy
 * that changed the form's shape answers that it expired instead of being misread.
 */
export const FORM_CALLBACK_ID = 'dirbot:v1:form';
/** Modals of earlier or later versions: recognised, refused with "open it again". */
export const FORM_CALLBACK_PATTERN = /^dirbot:v\d+:form$/;

/** Every input's action id; the block id is the option the input fills. */
export const INPUT_ACTION_ID = 'value';

/** Block Kit view limits (CONTRACTS.md §1(e)): what Slack refuses with `invalid_arguments`. */
const VIEW_LIMITS = {
  title: 24,
  button: 24,
  blocks: 100,
  label: 2000,
  hint: 2000,
  placeholder: 150,
  plainTextInput: 3000,
  privateMetadata: 3000,
} as const;

/** What a modal carries back on submit: where it was opened, by whom, for which command. */
export interface FormMetadata {
  command: string;
  channelId: string;
  teamId?: string;
  userId: string;
  /**
   * The slash command's response_url (valid 30 minutes, 5 answers): where the answer goes when
   * chat.postEphemeral cannot reach the channel (a private channel or DM the bot is not in).
   */
  responseUrl?: string;
}

type SlackView = Record<string, unknown>;

const plain = (text: string, max: number) => ({ type: 'plain_text', text: truncate(text, max) });

function element(field: FormField): Record<string, unknown> {
  const placeholder =
    field.placeholder === undefined ? {} : { placeholder: plain(field.placeholder, VIEW_LIMITS.placeholder) };
  if (field.type === 'boolean') {
    return {
      type: 'checkboxes',
      action_id: INPUT_ACTION_ID,
      options: [{ text: plain('Yes', 75), value: 'true' }],
    };
  }
  if (field.choices !== undefined && field.choices.length > 0 && field.choices.length <= 100) {
    return {
      type: 'static_select',
      action_id: INPUT_ACTION_ID,
      options: field.choices.map((choice) => ({ text: plain(choice, 75), value: choice })),
      ...placeholder,
    };
  }
  // Numbers too are typed as text, so the core checks them with the typed command's messages.
  return {
    type: 'plain_text_input',
    action_id: INPUT_ACTION_ID,
    ...(field.maxLength === undefined
      ? {}
      : { max_length: Math.min(field.maxLength, VIEW_LIMITS.plainTextInput) }),
    ...placeholder,
  };
}

/**
 * The core's form as a Slack modal: one input block per field (block id = the option's name),
 * labelled and hinted in the core's words, with the opening channel in `private_metadata`.
 */
export function renderFormModal(form: CommandForm, metadata: FormMetadata): SlackView {
  const blocks = form.fields.slice(0, VIEW_LIMITS.blocks).map((field) => ({
    type: 'input',
    block_id: field.option,
    optional: !field.required,
    label: plain(field.label, VIEW_LIMITS.label),
    hint: plain(field.hint, VIEW_LIMITS.hint),
    element: element(field),
  }));
  return {
    type: 'modal',
    callback_id: FORM_CALLBACK_ID,
    title: plain(form.title, VIEW_LIMITS.title),
    submit: plain(form.submitLabel, VIEW_LIMITS.button),
    close: plain('Cancel', VIEW_LIMITS.button),
    private_metadata: JSON.stringify(metadata),
    blocks,
  };
}

/** The metadata a submitted modal carried, or undefined when it is not ours or malformed. */
export function readFormMetadata(raw: string | undefined): FormMetadata | undefined {
  if (raw === undefined || raw.length > VIEW_LIMITS.privateMetadata) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const value = parsed as Partial<Record<keyof FormMetadata, unknown>> | null;
  if (
    value === null ||
    typeof value.command !== 'string' ||
    typeof value.channelId !== 'string' ||
    typeof value.userId !== 'string' ||
    (value.teamId !== undefined && typeof value.teamId !== 'string') ||
    (value.responseUrl !== undefined && typeof value.responseUrl !== 'string')
  )
    return undefined;
  return {
    command: value.command,
    channelId: value.channelId,
    userId: value.userId,
    ...(value.teamId === undefined ? {} : { teamId: value.teamId }),
    ...(value.responseUrl === undefined ? {} : { responseUrl: value.responseUrl }),
  };
}

interface InputState {
  type?: string;
  value?: string | null;
  selected_option?: { value?: string } | null;
  selected_options?: unknown[];
}

/** What was entered, by option name, from `view.state.values`. */
export function readFormValues(
  state: Record<string, Record<string, InputState>> | undefined,
): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {};
  for (const [blockId, inputs] of Object.entries(state ?? {})) {
    const input = inputs[INPUT_ACTION_ID];
    if (input === undefined) continue;
    if (input.type === 'checkboxes') values[blockId] = (input.selected_options ?? []).length > 0;
    else if (input.type === 'static_select') {
      const selected = input.selected_option?.value;
      if (selected !== undefined) values[blockId] = selected;
    } else if (typeof input.value === 'string') values[blockId] = input.value;
  }
  return values;
}
