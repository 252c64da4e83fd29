import type { CliIo } from './io.js';

export interface Subcommand {
  name: string;
  summary: string;
  usage: string;
  /** Runs with the arguments after the subcommand name; resolves with the exit code. */
  run(argv: string[], io: CliIo): Promise<number>;
}
