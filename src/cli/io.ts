import { parseArgs } from 'node:util';
import { messageOf } from '../errors.js';

/** Where CLI subcommands write; injected so tests can capture output without spawning. */
export interface CliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

export const processIo: CliIo = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
};

/** sysexits EX_USAGE-like convention used by most CLIs: 2 = the call's words are off. */
export const USAGE_EXIT_CODE = 2;

/**
 * For subcommands whose only option is --help: returns the exit code when the call is
 * finished (help printed: 0; a usage error: 2), or undefined to carry on.
 */
export function handleHelpOnly(argv: string[], io: CliIo, usage: string): number | undefined {
  try {
    const { values } = parseArgs({
      args: argv,
      options: { help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
    if (!values.help) return undefined;
    io.stdout(usage);
    return 0;
  } catch (error) {
    io.stderr(messageOf(error));
    io.stderr(usage);
    return USAGE_EXIT_CODE;
  }
}
