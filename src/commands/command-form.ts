import { BotError } from '../errors.js';
import type { CommandForm, FormField, FormSubmission } from '../ports/index.js';
import type { CommandSpec } from './command-spec.js';

/**
 * The form of `spec` as adapters show it: each input takes its type, whether it is required, its
 * choices, length limit and hint from the option it fills, so the form cannot drift from the
 * typed command's grammar. A layout naming an option the command lacks is a programming error.
 */
export function commandForm(spec: CommandSpec): CommandForm | undefined {
  const layout = spec.form;
  if (layout === undefined) return undefined;
  const fields = layout.inputs.map((input): FormField => {
    const option = spec.options.find((o) => o.name === input.option);
    if (option === undefined)
      throw new BotError('internal', `the ${spec.name} form names an unknown option "${input.option}"`);
    return {
      option: option.name,
      label: input.label,
      hint: option.description,
      type: option.type,
      required: option.required,
      ...(option.choices === undefined ? {} : { choices: option.choices }),
      ...(option.maxLength === undefined ? {} : { maxLength: option.maxLength }),
      ...(input.placeholder === undefined ? {} : { placeholder: input.placeholder }),
    };
  });
  return { command: spec.name, title: layout.title, submitLabel: layout.submitLabel, fields };
}

/**
 * The words the typed command would have been split into: the command, positional values in
 * the spec's order, then `--option value` per filled input (a ticked box is a bare `--option`).
 * Empty inputs are left out, as an option not typed is. Values go through the parser as they
 * are, so a form gets exactly the typed command's checks and messages.
 */
export function formTokens(spec: CommandSpec, submission: FormSubmission): string[] {
  const tokens = [spec.name];
  const filled = (name: string): string | boolean | undefined => {
    const value = submission.values[name];
    return typeof value === 'string' && value.trim() === '' ? undefined : value;
  };
  for (const option of spec.options.filter((o) => o.positional)) {
    const value = filled(option.name);
    if (typeof value === 'string') tokens.push(value.trim());
  }
  for (const option of spec.options.filter((o) => !o.positional)) {
    const value = filled(option.name);
    if (value === undefined || value === false) continue;
    if (option.type === 'boolean')
      tokens.push(value === true ? `--${option.name}` : `--${option.name}=${String(value).trim()}`);
    else tokens.push(`--${option.name}`, String(value).trim());
  }
  return tokens;
}

/** Tokens as one line of command text, quoted where a word holds spaces: for logs and metrics. */
export function tokensAsText(tokens: readonly string[]): string {
  return tokens
    .map((token) =>
      token !== '' && !/[\s"'\\]/.test(token)
        ? token
        : `"${token.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`,
    )
    .join(' ');
}
