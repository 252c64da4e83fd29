import type { VariableSpec } from './variables.js';

/** Longest stretch of a bad value quoted back; a pasted certificate should not flood the terminal. */
const SHOWN_VALUE_MAX = 80;

export interface ValidatedVariables {
  /** Parsed value (or default) of every variable that passed its own schema. */
  values: Record<string, unknown>;
  /** One line per variable that did not, e.g. `PORT: expected a whole number from 0 to 65535, got "abc"`. */
  problems: string[];
}

/**
 * Checks every variable against its own schema, so one bad value never hides the next: the
 * person fixing a deploy sees every problem in one run. A variable that fails contributes a
 * problem line and no value.
 */
export function validateVariables(
  variables: readonly VariableSpec[],
  present: Record<string, string | undefined>,
): ValidatedVariables {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const variable of variables) {
    // A family (WEBHOOK_<NAME>_URL) is every variable of its pattern that was given, each by its name.
    const names = variable.pattern
      ? Object.keys(present).filter((name) => variable.pattern?.test(name) && present[name] !== undefined)
      : [variable.name];
    for (const name of names.sort()) {
      const raw = present[name];
      const result = variable.schema.safeParse(raw);
      if (result.success) {
        values[name] = result.data;
        continue;
      }
      const expected = result.error.issues[0]?.message ?? 'a different value';
      problems.push(badValueLine({ ...variable, name }, expected, raw));
    }
  }
  return { values, problems };
}

/**
 * `NAME: expected …, got "value"`. The name is said once, at the start; the value is quoted
 * back so a typo is visible, except for secrets, which are never printed.
 */
export function badValueLine(variable: VariableSpec, expected: string, raw: string | undefined): string {
  const line = `${variable.name}: expected ${expected}`;
  if (raw === undefined || variable.secret) return line;
  return `${line}, got ${quoteValue(raw)}`;
}

/** JSON quoting makes control characters and trailing spaces visible; URL passwords are masked. */
function quoteValue(raw: string): string {
  const masked = raw.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*):[^@/\s]+@/i, '$1:***@');
  const shown = masked.length > SHOWN_VALUE_MAX ? `${masked.slice(0, SHOWN_VALUE_MAX)}…` : masked;
  return JSON.stringify(shown);
}
