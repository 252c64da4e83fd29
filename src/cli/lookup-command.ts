import { LOOKUP_PLATFORMS, type LookupPlatform, type LookupSession } from '../app/lookup-session.js';
import { messageOf } from '../errors.js';
import { type CliIo, USAGE_EXIT_CODE } from './io.js';
import type { Subcommand } from './subcommand.js';

const USAGE = `Usage: directory-bot lookup <command text…> [--platform console|slack|discord]

Runs one /directory command from the shell against the configured directory (or the
embedded emulator when DIRECTORY_BASE_URL is unset) and prints the reply: as the console
shows it, or with --platform slack|discord as the JSON payload that platform would get.
Changing subscriptions is refused here: the shell is not a channel.

Examples:
  directory-bot lookup post 42
  directory-bot lookup posts today --top 3 --platform slack
  directory-bot lookup "collections featured"

Exits 0 on an answer, 1 when the answer is an error, 2 when the call itself is wrong.`;

/** One shell word as one argument of the command text: quoted again when it holds spaces or quotes. */
function quoteWord(word: string): string {
  return word !== '' && !/[\s"'\\]/.test(word)
    ? word
    : `"${word.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/**
 * The shell's words back into one command text. The first word is read as chat text: a command
 * name never holds a space, so a first word that does is a whole command line in quotes
 * (`lookup "collections featured"`), tokenised the way chat would. Every later word is one
 * argument, whatever it holds (`lookup user "Jane Doe"`).
 */
function commandTextFromWords(words: readonly string[]): string {
  const [first, ...rest] = words;
  if (first === undefined) return '';
  return [first, ...rest.map(quoteWord)].join(' ').trim();
}

type ParsedCli =
  | { help: true }
  | { help: false; platform: LookupPlatform; text: string }
  | { problem: string };

/**
 * Takes `--platform` and `--help` out of the words wherever they are; everything else is the
 * command text (so `--top 3` reaches the command's own parser).
 */
function parseCli(argv: readonly string[]): ParsedCli {
  let platform: LookupPlatform = 'console';
  const words: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const word = argv[i] as string;
    if (word === '--help' || word === '-h') return { help: true };
    if (word === '--platform' || word.startsWith('--platform=')) {
      const value = word === '--platform' ? argv[++i] : word.slice('--platform='.length);
      if (value === undefined || value === '')
        return { problem: '--platform needs a value: console, slack or discord' };
      if (!(LOOKUP_PLATFORMS as readonly string[]).includes(value)) {
        return { problem: `unknown platform "${value}": console, slack or discord` };
      }
      platform = value as LookupPlatform;
      continue;
    }
    words.push(word);
  }
  const text = commandTextFromWords(words);
  if (text.trim() === '') return { problem: 'give the command to run, e.g. "post 42" (or "help")' };
  return { help: false, platform, text };
}

function print(io: CliIo, rendered: unknown): void {
  io.stdout(typeof rendered === 'string' ? rendered : JSON.stringify(rendered, null, 2));
}

/**
 * `directory-bot lookup <command text…> [--platform console|slack|discord]`: one command
 * through the same handler the chat platforms use. `build` is `openLookupSession` (src/app).
 */
export function createLookupCommand(build: (platform: LookupPlatform) => Promise<LookupSession>): Subcommand {
  return {
    name: 'lookup',
    summary: 'Run one /directory command from the shell and print the reply.',
    usage: USAGE,
    async run(argv, io) {
      const parsed = parseCli(argv);
      if ('problem' in parsed) {
        io.stderr(`lookup: ${parsed.problem}`);
        io.stderr(USAGE);
        return USAGE_EXIT_CODE;
      }
      if (parsed.help) {
        io.stdout(USAGE);
        return 0;
      }
      let session: LookupSession;
      try {
        session = await build(parsed.platform);
      } catch (error) {
        io.stderr(`lookup: could not start: ${messageOf(error)}`);
        return 1;
      }
      try {
        const reply = await session.handler.handle({
          platform: parsed.platform,
          channelId: 'cli',
          actor: { userId: 'cli', displayName: 'shell', canManageChannel: false },
          text: parsed.text,
        });
        print(io, session.render(reply, parsed.text));
        return reply.error === undefined ? 0 : 1;
      } finally {
        await session.close();
      }
    },
  };
}
