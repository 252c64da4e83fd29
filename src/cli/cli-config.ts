import type { Config } from '../config/config.js';
import { CONFIG_ERROR_EXIT_CODE, configProblems, loadConfig } from '../config/load-config.js';
import type { CliIo } from './io.js';

/**
 * The configuration for a one-shot subcommand, or, when it is invalid, exit code 78 after
 * printing one line per problem, each naming its variable.
 */
export function loadConfigOrReport(io: CliIo): Config | typeof CONFIG_ERROR_EXIT_CODE {
  try {
    return loadConfig();
  } catch (error) {
    const problems = configProblems(error);
    if (problems === undefined) throw error;
    for (const problem of problems) io.stderr(problem);
    return CONFIG_ERROR_EXIT_CODE;
  }
}
