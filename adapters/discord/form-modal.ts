import type { CommandForm } from '../../src/ports/index.js';
import { truncate } from '../../src/ports/index.js';
import type { SubmittedRow } from './interaction-payload.js';

/**
 * Discord's modal limits (developers/interactions/receiving-and-responding.mdx, the OpenAPI
 * `ModalInteractionCallbackRequestData`): five rows of one text input each, 45-character title
 * and labels, 100-character custom ids and placeholders, values up to 4000 characters.
 */
export const MODAL_LIMITS = {
  rows: 5,
  title: 45,
  label: 45,
  customId: 100,
  placeholder: 100,
  value: 4000,
} as const;

const TEXT_INPUT = 4;
const ACTION_ROW = 1;
const LABEL = 18;
const SHORT_STYLE = 1;

/**
 * The modal's custom id: version, command and the channel it was opened in. Versioned so that
 * a modal opened before a deploy that changed the form answers "expired" instead of being misread.
 */
const CUSTOM_ID = /^dirbot:v1:form:([a-z][a-z-]{0,31}):(\d{1,20})$/;
const ANY_VERSION = /^dirbot:v\d+:form:/;

export function formCustomId(command: string, channelId: string): string {
  return `dirbot:v1:form:${command}:${channelId}`;
}

/** The command and channel of a submitted modal; `expired` for one of another version. */
export function readFormCustomId(
  customId: string,
): { command: string; channelId: string } | 'expired' | undefined {
  const match = CUSTOM_ID.exec(customId);
  if (match) return { command: match[1] as string, channelId: match[2] as string };
  return ANY_VERSION.test(customId) ? 'expired' : undefined;
}

/** The modal response (callback type 9) body for the core's form. */
export interface DiscordModal {
  custom_id: string;
  title: string;
  components: {
    type: typeof ACTION_ROW;
    components: {
      type: typeof TEXT_INPUT;
      custom_id: string;
      style: typeof SHORT_STYLE;
      label: string;
      required: boolean;
      placeholder?: string;
      max_length?: number;
    }[];
  }[];
}

/**
 * The core's form as a Discord modal: its first five text fields (the form lists them most
 * useful first), each a one-line text input whose custom id is the option it fills. Switches
 * (`video`) and the fields past five stay typed-command-only on Discord.
 */
export function renderFormModal(form: CommandForm, channelId: string): DiscordModal {
  const fields = form.fields.filter((field) => field.type !== 'boolean').slice(0, MODAL_LIMITS.rows);
  return {
    custom_id: formCustomId(form.command, channelId),
    title: truncate(form.title, MODAL_LIMITS.title),
    components: fields.map((field) => ({
      type: ACTION_ROW,
      components: [
        {
          type: TEXT_INPUT,
          custom_id: field.option,
          style: SHORT_STYLE,
          label: truncate(field.label, MODAL_LIMITS.label),
          required: field.required,
          ...(field.placeholder === undefined
            ? {}
            : { placeholder: truncate(field.placeholder, MODAL_LIMITS.placeholder) }),
          ...(field.maxLength === undefined
            ? {}
            : { max_length: Math.min(field.maxLength, MODAL_LIMITS.value) }),
        },
      ],
    })),
  };
}

/** What was entered, by option name, from a MODAL_SUBMIT's rows (action rows or labels). */
export function readModalValues(rows: readonly SubmittedRow[] | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  for (const row of rows ?? []) {
    const inputs = row.type === LABEL && row.component ? [row.component] : (row.components ?? []);
    for (const input of inputs) {
      if (input.type === TEXT_INPUT && input.custom_id !== undefined && input.value !== undefined)
        values[input.custom_id] = input.value;
    }
  }
  return values;
}
