import type { CommandSpec } from '../commands/index.js';
import type { FormSubmission } from '../ports/index.js';

/** One input of a panel form, as the template draws it. */
export interface PanelField {
  /** The command option it fills (`feed`, `keyword`, …): the input's name. */
  name: string;
  label: string;
  /** The option's own description, shown under the input. */
  hint: string;
  control: 'text' | 'number' | 'checkbox' | 'select';
  required: boolean;
  choices?: readonly string[];
  min?: number;
  max?: number;
  maxLength?: number;
  placeholder?: string;
  /** What the input holds: the person's last entry, or the subscription's value when editing. */
  value: string;
  checked: boolean;
  /** The command's answer when it is about this option. */
  error?: string;
}

/**
 * The panel's form of a command, from its spec alone: every option becomes an input of its type,
 * with its choices, limits and description; the chat form's layout (`spec.form`) gives the first
 * inputs their labels and order, and the rest follow in the spec's order. So an option added to
 * the command appears here, and what is submitted goes through the command's own parser.
 */
export function panelFields(
  spec: CommandSpec,
  values: FormSubmission['values'],
  problem?: { option?: string; text: string },
): PanelField[] {
  const layout = spec.form?.inputs ?? [];
  const ordered = [
    ...layout.flatMap((input) => spec.options.filter((o) => o.name === input.option)),
    ...spec.options.filter((o) => !layout.some((input) => input.option === o.name)),
  ];
  return ordered.map((option) => {
    const input = layout.find((i) => i.option === option.name);
    const value = values[option.name];
    const control =
      option.type === 'boolean'
        ? 'checkbox'
        : option.choices !== undefined
          ? 'select'
          : option.type === 'integer'
            ? 'number'
            : 'text';
    return {
      name: option.name,
      label: input?.label ?? `--${option.name}`,
      hint: option.description,
      control,
      required: option.required,
      ...(option.choices === undefined ? {} : { choices: option.choices }),
      ...(option.minValue === undefined ? {} : { min: option.minValue }),
      ...(option.maxValue === undefined ? {} : { max: option.maxValue }),
      ...(option.maxLength === undefined ? {} : { maxLength: option.maxLength }),
      ...(input?.placeholder === undefined ? {} : { placeholder: input.placeholder }),
      value: typeof value === 'string' ? value : '',
      checked: value === true,
      ...(problem?.option === option.name ? { error: problem.text } : {}),
    };
  });
}

/**
 * The values a submitted panel form carries for `spec`'s options, as a chat form submits them:
 * a ticked box is true, an unticked one absent, text as typed. Anything else in the body is ignored.
 */
export function submittedValues(spec: CommandSpec, body: Record<string, unknown>): FormSubmission['values'] {
  const values: Record<string, string | boolean> = {};
  for (const option of spec.options) {
    const raw = body[option.name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (typeof value !== 'string') continue;
    if (option.type === 'boolean') {
      if (value === 'on' || value === 'true') values[option.name] = true;
    } else {
      values[option.name] = value;
    }
  }
  return values;
}
