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

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
