import type { Config } from '../config/config.js';
import { CONFIG_ERROR_EXIT_CODE, configProblems, loadConfig } from '../config/load-config.js';
import type { CliIo } from './io.js';

/**
 * The configuration error report of every command: `<heading>: the configuration is invalid.`,
 * one indented line per problem, each naming its variable, and where to read what they expect.
 * Returns exit code 78.
 */
export function reportConfigProblems(
  io: CliIo,
  heading: string,
  problems: readonly string[],
): typeof CONFIG_ERROR_EXIT_CODE {
  io.stderr(`${heading}: the configuration is invalid.`);
  for (const problem of problems) io.stderr(`  ${problem}`);
  io.stderr('See .env.example for every variable and what it expects.');
  return CONFIG_ERROR_EXIT_CODE;
}

/**
 * The configuration for a one-shot subcommand, or, when it is invalid, exit code 78 after
 * the report above under `heading` (e.g. `directory-bot workspace export`).
 */
export function loadConfigOrReport(io: CliIo, heading: string): Config | typeof CONFIG_ERROR_EXIT_CODE {
  try {
    return loadConfig();
  } catch (error) {
    const problems = configProblems(error);
    if (problems === undefined) throw error;
    return reportConfigProblems(io, heading, problems);
  }
}
