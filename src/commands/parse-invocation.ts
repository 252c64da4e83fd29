import type { ArgValue, CommandSpec, OptionSpec, ParsedArgs } from './command-spec.js';
import { closestMatch } from './suggest.js';
import { tokenize } from './tokenize.js';

/** Longest command text accepted; anything longer is a mistake or abuse, not a lookup. */
export const MAX_COMMAND_LENGTH = 1000;

export type ParseResult =
  | { ok: true; spec: CommandSpec; args: ParsedArgs }
  /**
   * `spec` is the command the problem is about (for its usage line), when known; `option` the
   * option it is about (a form shows the problem beside that input), when one is.
   */
  | { ok: false; problem: string; spec?: CommandSpec; suggestion?: string; option?: string }
  | { ok: 'empty' };

/** Quotes a user's value in a problem message, shortened so a huge paste stays readable. */
function shown(value: string): string {
  const oneLine = value.replace(/\s+/g, ' ');
  return `"${oneLine.length > 40 ? `${oneLine.slice(0, 39)}…` : oneLine}"`;
}

function label(option: OptionSpec): string {
  return option.positional ? `<${option.name}>` : `--${option.name}`;
}

const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = {
  true: true,
  yes: true,
  on: true,
  '1': true,
  false: false,
  no: false,
  off: false,
  '0': false,
};

/** Checks one raw value against its option: length, type, then the option's zod schema. */
function validate(
  option: OptionSpec,
  raw: string,
): { ok: true; value: ArgValue } | { ok: false; problem: string } {
  const name = label(option);
  const maxLength = option.maxLength ?? 200;
  if (raw.length > maxLength) {
    return { ok: false, problem: `${name} is too long: at most ${maxLength} characters, got ${raw.length}` };
  }
  let value: string | number = raw;
  if (option.type === 'integer') {
    if (!/^[+-]?\d{1,15}$/.test(raw.trim())) {
      return { ok: false, problem: `${name} expects a whole number, got ${shown(raw)}` };
    }
    value = Number(raw.trim());
  } else if (raw.trim() === '') {
    return { ok: false, problem: `${name} must not be empty` };
  } else {
    value = raw.trim();
  }
  if (!option.schema) return { ok: true, value };
  const parsed = option.schema.safeParse(value);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? 'is not valid';
    const expects = option.type === 'integer' && /^must /.test(message) ? message : `expects ${message}`;
    return { ok: false, problem: `${name} ${expects}, got ${shown(raw)}` };
  }
  return { ok: true, value: value };
}

function findFlag(spec: CommandSpec, name: string): OptionSpec | undefined {
  const lower = name.toLowerCase();
  return spec.options.find((o) => !o.positional && (o.name === lower || (o.aliases ?? []).includes(lower)));
}

/**
 * Parses `/directory` text against the command specs: the command word, positional
 * arguments in definition order, `--flag value`, `--flag=value` and bare boolean flags.
 * Every value is validated before anything is fetched; the first problem is reported in
 * words a person can act on, with the closest command or flag when one was mistyped.
 */
export function parseInvocation(text: string, specs: readonly CommandSpec[]): ParseResult {
  if (text.length > MAX_COMMAND_LENGTH) {
    return { ok: false, problem: `The command is too long: at most ${MAX_COMMAND_LENGTH} characters.` };
  }
  const tokenized = tokenize(text);
  if (!tokenized.ok) {
    const first = text.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? '';
    const spec = specs.find((s) => s.name === first);
    return {
      ok: false,
      problem: `Could not read the command: ${tokenized.problem}.`,
      ...(spec ? { spec } : {}),
    };
  }
  return parseTokens(tokenized.tokens, specs);
}

/**
 * Parses words already split (by the tokenizer, or one per form input) against the command
 * specs: everything `parseInvocation` checks after tokenizing, with the same messages.
 */
export function parseTokens(tokens: readonly string[], specs: readonly CommandSpec[]): ParseResult {
  const [word, ...rest] = tokens;
  if (word === undefined) return { ok: 'empty' };
  const spec = specs.find((s) => s.name === word.toLowerCase());
  if (!spec) {
    const suggestion = closestMatch(
      word,
      specs.map((s) => s.name),
    );
    const suggested = suggestion ? specs.find((s) => s.name === suggestion) : undefined;
    return {
      ok: false,
      problem: suggestion
        ? `Unknown command ${shown(word)}. Did you mean "${suggestion}"?`
        : `Unknown command ${shown(word)}. Try "help" for the list of commands.`,
      ...(suggested ? { spec: suggested, suggestion: suggested.name } : {}),
    };
  }
  const fail = (problem: string, option?: OptionSpec): ParseResult => ({
    ok: false,
    problem,
    spec,
    ...(option === undefined ? {} : { option: option.name }),
  });

  const positionals: string[] = [];
  const given = new Map<OptionSpec, string[]>();
  let flagsEnded = false;
  for (let i = 0; i < rest.length; i += 1) {
    // Phones and chat apps autocorrect `--` into an em or en dash.
    const token = (rest[i] as string).replace(/^[\u2014\u2013]/, '--');
    if (flagsEnded || !token.startsWith('--') || token === '--') {
      if (token === '--' && !flagsEnded) flagsEnded = true;
      else positionals.push(rest[i] as string);
      continue;
    }
    const eq = token.indexOf('=');
    const flagName = token.slice(2, eq === -1 ? undefined : eq);
    const inline = eq === -1 ? undefined : token.slice(eq + 1);
    const option = findFlag(spec, flagName);
    if (!option) {
      const flags = spec.options.filter((o) => !o.positional).map((o) => o.name);
      if (flags.length === 0) return fail(`Unknown flag --${flagName}: "${spec.name}" takes no flags.`);
      const near = closestMatch(flagName, flags);
      return fail(
        near
          ? `Unknown flag --${flagName}. Did you mean --${near}?`
          : `Unknown flag --${flagName}. "${spec.name}" accepts ${flags.map((f) => `--${f}`).join(', ')}.`,
      );
    }
    let raw: string;
    if (option.type === 'boolean') {
      raw = inline ?? 'true';
    } else if (inline !== undefined) {
      raw = inline;
    } else {
      const next = rest[i + 1];
      if (next === undefined || /^(--|[\u2014\u2013])\S/.test(next)) {
        return fail(`--${option.name} needs a value.`, option);
      }
      raw = next;
      i += 1;
    }
    const values = given.get(option) ?? [];
    if (values.length > 0 && !option.repeatable)
      return fail(`--${option.name} is given more than once.`, option);
    values.push(raw);
    given.set(option, values);
  }

  const args: Record<string, ArgValue> = {};
  const positionalOptions = spec.options.filter((o) => o.positional);
  if (positionals.length > positionalOptions.length) {
    const extra = positionals[positionalOptions.length] as string;
    return fail(
      positionalOptions.length === 0
        ? `"${spec.name}" takes no arguments, got ${shown(extra)}.`
        : `Unexpected argument ${shown(extra)}.`,
    );
  }
  for (const [index, option] of positionalOptions.entries()) {
    const raw = positionals[index];
    if (raw === undefined) {
      if (option.required)
        return fail(`Missing ${label(option)}: ${option.description.toLowerCase()}.`, option);
      continue;
    }
    const checked = validate(option, raw);
    if (!checked.ok) return fail(`${checked.problem}.`, option);
    args[option.name] = checked.value;
  }
  for (const [option, values] of given) {
    if (option.type === 'boolean') {
      const raw = (values[0] as string).toLowerCase();
      const flag = BOOLEAN_WORDS[raw];
      if (flag === undefined)
        return fail(`--${option.name} is a switch: give it alone or as --${option.name}=true|false.`, option);
      args[option.name] = flag;
      continue;
    }
    const checked: ArgValue[] = [];
    for (const raw of values) {
      const result = validate(option, raw);
      if (!result.ok) return fail(`${result.problem}.`, option);
      checked.push(result.value);
    }
    args[option.name] = option.repeatable ? checked.map(String) : (checked[0] as ArgValue);
  }
  for (const option of spec.options) {
    if (!option.positional && option.required && args[option.name] === undefined) {
      return fail(`Missing --${option.name}.`, option);
    }
  }
  return { ok: true, spec, args };
}
