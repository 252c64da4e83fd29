import type { z } from 'zod';
import type { CommandDefinition, CommandOptionDefinition } from '../ports/index.js';

/** A parsed, validated argument value. Repeatable options collect a list. */
export type ArgValue = string | number | boolean | readonly string[];

/** Validated arguments of one invocation, keyed by option name. */
export type ParsedArgs = Readonly<Record<string, ArgValue | undefined>>;

/** An option as the parser sees it: the public definition plus how to validate it. */
export interface OptionSpec extends CommandOptionDefinition {
  /** Validates the value (a string, or a number for integers) after the type check. */
  schema?: z.ZodType<unknown>;
  /** May be given several times; each value may be a comma list. Collected as a string list. */
  repeatable?: boolean;
  /** Other accepted spellings of the flag, e.g. `keywords` for `keyword`. */
  aliases?: readonly string[];
}

/**
 * How a command is served: `lookup` goes upstream (cache, per-user limit, quota reserve),
 * `manage` changes channel state (permission check), `local` answers from what the bot knows.
 */
export type CommandKind = 'lookup' | 'manage' | 'local';

/** One input of a command's form: the option it fills, its label and its grey example text. */
export interface FormInput {
  option: string;
  label: string;
  placeholder?: string;
}

/** How a command's form looks; each input takes its type, limits and hint from its option. */
export interface FormLayout {
  title: string;
  submitLabel: string;
  /** In order of usefulness: a surface that shows fewer keeps the first ones. */
  inputs: readonly FormInput[];
}

/** A command's grammar and help. Whether it manages the channel follows from `kind`. */
export interface CommandSpec extends Omit<CommandDefinition, 'options' | 'managesChannel' | 'opensForm'> {
  kind: CommandKind;
  options: readonly OptionSpec[];
  /** The bare command opens this form where the surface can show one. */
  form?: FormLayout;
}

/** The public definition (what adapters see), without the parser's validation details. */
export function publicDefinition(spec: CommandSpec): CommandDefinition {
  return {
    name: spec.name,
    description: spec.description,
    usage: spec.usage,
    examples: spec.examples,
    managesChannel: spec.kind === 'manage',
    ...(spec.form === undefined ? {} : { opensForm: true }),
    options: spec.options.map((option) => {
      const { schema: _schema, repeatable: _repeatable, aliases: _aliases, ...definition } = option;
      return definition;
    }),
  };
}
