import { parseArgs } from 'node:util';
import { messageOf, UsageError } from '../errors.js';
import { DEFAULT_TOKEN, type EmulatorOptions, startEmulator } from './start-emulator.js';
import { parseUtcOffset } from './time-format.js';

export interface CliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
}

export const EMULATOR_USAGE = `Usage: directory-bot emulator [options]

Runs a local Content Directory Service (V1 REST, V2 GraphQL, admin API under /__admin/).

Options:
  --host <host>                 interface to listen on (default 127.0.0.1)
  --port <port>                 port; 0 picks a free one (default 4010)
  --token <token>               accepted bearer token; repeat for several applications (default dev-token)
  --seed <n>                    seed of the generated data (default 1)
  --window-s <seconds>          quota window (default 900)
  --quota-v1 <n>                V1 requests per window (default 900)
  --quota-v2-requests <n>       other V2 requests per window (default 450)
  --quota-complexity <n>        GraphQL complexity points per window (default 6250)
  --max-complexity <n>          per-query complexity cap (default 1000)
  --activity-per-min <n>        simulated new records per minute (default 0, off)
  --quirks                      imitate the live service's deviations (docs/directory-api.md)
  --v1-offset=<±HH:MM>          the service's UTC offset, -12:00 to +14:00: V1 timestamps and
                                date filters (default -08:00; write it with "=")
  -h, --help                    show this help

Stops on SIGTERM or SIGINT.`;

const NUMERIC_FLAGS = {
  port: 'port',
  seed: 'seed',
  'window-s': 'windowSeconds',
  'quota-v1': 'quotaV1',
  'quota-v2-requests': 'quotaV2Requests',
  'quota-complexity': 'quotaComplexity',
  'max-complexity': 'maxComplexity',
  'activity-per-min': 'activityPerMinute',
} as const satisfies Record<string, keyof EmulatorOptions>;

function parseOptions(argv: string[]): EmulatorOptions | 'help' {
  let parsed: ReturnType<typeof parseWith>;
  try {
    parsed = parseWith(argv);
  } catch (error) {
    throw new UsageError(messageOf(error));
  }
  const { values } = parsed;
  if (values.help) return 'help';
  const options: EmulatorOptions = { port: 4010 };
  if (values.host !== undefined) options.host = values.host;
  if (values.token !== undefined) {
    if (values.token.some((t) => t.trim() === '' || /\s/.test(t)))
      throw new UsageError('--token must not be empty or contain spaces');
    options.tokens = values.token;
  }
  if (values.quirks) options.quirks = true;
  if (values['v1-offset'] !== undefined) {
    const offset = parseUtcOffset(values['v1-offset']);
    if (offset === undefined)
      throw new UsageError(
        `--v1-offset must be an offset from -12:00 to +14:00 like +05:30, got ${JSON.stringify(values['v1-offset'])}`,
      );
    options.v1OffsetMinutes = offset;
  }
  for (const [flag, key] of Object.entries(NUMERIC_FLAGS)) {
    const raw = values[flag as keyof typeof NUMERIC_FLAGS];
    if (raw === undefined) continue;
    if (!/^\d+$/.test(raw))
      throw new UsageError(`--${flag} must be a whole number, got ${JSON.stringify(raw)}`);
    const value = Number(raw);
    if (flag === 'port' && value > 65535) throw new UsageError(`--port must be at most 65535, got ${raw}`);
    const zeroAllowed = [
      'port',
      'seed',
      'quota-v1',
      'quota-v2-requests',
      'quota-complexity',
      'activity-per-min',
    ];
    if (value === 0 && !zeroAllowed.includes(flag)) throw new UsageError(`--${flag} must be positive`);
    options[key] = value;
  }
  return options;
}

function parseWith(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      token: { type: 'string', multiple: true },
      seed: { type: 'string' },
      'window-s': { type: 'string' },
      'quota-v1': { type: 'string' },
      'quota-v2-requests': { type: 'string' },
      'quota-complexity': { type: 'string' },
      'max-complexity': { type: 'string' },
      'activity-per-min': { type: 'string' },
      quirks: { type: 'boolean' },
      'v1-offset': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/**
 * `directory-bot emulator [...]`: starts the emulator, prints one ready line with its URL and
 * the accepted tokens, and resolves 0 after SIGTERM/SIGINT (or `stop`) closed it. `--help`
 * prints usage (0); a usage error prints the problem (2); a failure to start prints it (1).
 * @param argv the arguments after `emulator`
 * @param stop optional signal that stops the emulator like SIGTERM does (for in-process use)
 */
export async function runEmulatorCli(argv: string[], io: CliIo, stop?: AbortSignal): Promise<number> {
  let options: EmulatorOptions | 'help';
  try {
    options = parseOptions(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`directory-bot emulator: ${error.message}`);
    io.stderr('Run "directory-bot emulator --help" for usage.');
    return 2;
  }
  if (options === 'help') {
    io.stdout(EMULATOR_USAGE);
    return 0;
  }

  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  try {
    emulator = await startEmulator(options);
  } catch (error) {
    io.stderr(`directory-bot emulator: cannot start: ${messageOf(error)}`);
    return 1;
  }
  const tokens = emulator.admin.tokens();
  io.stdout(
    `Directory emulator ready at ${emulator.url} (seed ${options.seed ?? 1}${options.quirks ? ', quirks on' : ''})`,
  );
  io.stdout(
    tokens.length === 1 && tokens[0] === DEFAULT_TOKEN && options.tokens === undefined
      ? `Accepting the token ${DEFAULT_TOKEN} (Authorization: Bearer ${DEFAULT_TOKEN}); pass --token to choose your own`
      : `Accepting ${tokens.length === 1 ? 'the token' : 'the tokens'} ${tokens.join(', ')}`,
  );

  await new Promise<void>((resolve) => {
    const done = (): void => {
      process.off('SIGTERM', done);
      process.off('SIGINT', done);
      stop?.removeEventListener('abort', done);
      resolve();
    };
    process.once('SIGTERM', done);
    process.once('SIGINT', done);
    if (stop?.aborted) done();
    else stop?.addEventListener('abort', done, { once: true });
  });
  await emulator.close();
  io.stdout('Directory emulator stopped');
  return 0;
}
