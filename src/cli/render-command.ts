import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { messageOf, UsageError } from '../errors.js';
import { formatMessage } from '../messages/index.js';
import { isMessageFormat, MESSAGE_FORMATS, type Message, type MessageFormat } from '../ports/index.js';
import { type CliIo, USAGE_EXIT_CODE } from './io.js';
import {
  composeRawRecord,
  guessRecordKind,
  RECORD_KINDS,
  type RecordKind,
  unwrapRecords,
} from './raw-record.js';
import {
  type ComposedRecord,
  checkDigestFlags,
  type DigestFlags,
  feedOfKind,
  previewDigest,
} from './render-digest.js';
import type { Subcommand } from './subcommand.js';

/** The chat platforms `render` always offers; webhook kinds (`teams-webhook`…) come with their renderers. */
export const RENDER_PLATFORMS = ['console', 'slack', 'discord'] as const;
export type RenderPlatform = string;

/**
 * Each platform's message renderer (loaded on first use), by platform: the chat platforms and each
 * webhook kind; undefined when that adapter is not wired in.
 */
export type MessageRenderers = Record<string, ((message: Message) => Promise<unknown>) | undefined>;

export interface RenderCommandOptions {
  /** Read when the file is `-` or absent; default `process.stdin`. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Default: `fs.readFile` as UTF-8. */
  readTextFile?: (path: string) => Promise<string>;
}

/** What `render` reads, said in its help and whenever it cannot make sense of the input. */
const ACCEPTED_SHAPES = `It reads any of these, as the directory answers or as you would paste them:
  - one record: a V1 comment, collection, live event or notification, or a V2 post (V1 posts,
    V2 comments, collections and users are read too)
  - a V2 GraphQL answer: {"data": {"post": {…}}}, or a connection such as
    {"data": {"posts": {"edges": [{"node": {…}}]}}} (with or without "data", "edges" or "nodes")
  - a V1 list: {"comments": […]}, {"collections": […]}, {"live_events": […]}, {"notifications": […]}
  - a JSON array of records`;

const usage = (platforms: readonly string[]) => `Usage: directory-bot render --platform ${platforms.join('|')}
                            [--kind KIND] [--format FORMAT]
                            [--digest SPEC [--top N] [--tz ZONE]] [FILE|-]

Reads directory records as JSON from FILE (or stdin when FILE is "-" or absent), validates
each with the directory client's schemas, composes the bot's message and prints what would be
sent: readable text for console, the exact JSON payload for slack, discord and each webhook kind
(a JSON array of payloads when there are several records).

With --digest it prints instead the digest a subscription with those options would post
holding these records (all of one feed): due at the first slot after the newest record, every
part ("(1/3)"…) in posting order, one payload each.

${ACCEPTED_SHAPES}

Options:
  --platform, -p   ${platforms.join(' | ')} (required)
  --kind, -k       ${RECORD_KINDS.join(' | ')}; guessed from the record's fields when left out
  --format, -f     ${MESSAGE_FORMATS.join(' | ')}: the look a subscription's --format gives it
                   (full card, the default; one linked summary line; the title alone, linked)
  --digest         hourly | daily@HH:MM | weekly@ddd-HH:MM: preview the digest instead
  --top            N (1-50): the digest ranks the N posts with the most votes
  --tz             the IANA zone the digest is written in (default UTC)
  --help, -h       show this help

Exits 0 on success, 1 when a record is invalid or the input cannot be read, 2 on a usage error.`;

interface RenderArgs {
  platform: RenderPlatform;
  kind: RecordKind | undefined;
  format: MessageFormat;
  file: string | undefined;
  /** Set when any digest option was given (checked for the feed once the records are read). */
  digest: DigestFlags | undefined;
}

function parseRenderArgs(argv: string[], platforms: readonly string[]): RenderArgs | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      platform: { type: 'string', short: 'p' },
      kind: { type: 'string', short: 'k' },
      format: { type: 'string', short: 'f' },
      digest: { type: 'string' },
      top: { type: 'string' },
      tz: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) return 'help';
  const platform = values.platform;
  if (platform === undefined) throw new UsageError(`--platform is required (${platforms.join(', ')}).`);
  if (!platforms.includes(platform)) {
    throw new UsageError(`--platform must be one of ${platforms.join(', ')}, not "${platform}".`);
  }
  const kind = values.kind;
  if (kind !== undefined && !(RECORD_KINDS as readonly string[]).includes(kind)) {
    throw new UsageError(`--kind must be one of ${RECORD_KINDS.join(', ')}, not "${kind}".`);
  }
  const format = values.format ?? 'full';
  if (!isMessageFormat(format)) {
    throw new UsageError(`--format must be one of ${MESSAGE_FORMATS.join(', ')}, not "${format}".`);
  }
  if (positionals.length > 1) throw new UsageError(`Give one file (or -), not ${positionals.length}.`);
  const flags: DigestFlags = { digest: values.digest, top: values.top, tz: values.tz };
  const digest = Object.values(flags).some((value) => value !== undefined) ? flags : undefined;
  // A mistake in the options is said before any input is read; --top's feed is checked again then.
  if (digest !== undefined) checkDigestFlags(digest, feedOfKind(kind as RecordKind | undefined));
  return {
    platform,
    kind: kind as RecordKind | undefined,
    format,
    file: positionals[0],
    digest,
  };
}

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The `render` subcommand: shows exactly what the bot would post for one record, on any
 * platform, without connecting anywhere. The renderers are injected from src/app/platforms.ts
 * (the only place in src/ allowed to import adapters).
 */
export function createRenderCommand(
  renderers: MessageRenderers,
  options: RenderCommandOptions = {},
): Subcommand {
  const stdin = options.stdin ?? process.stdin;
  const readTextFile = options.readTextFile ?? ((path: string) => readFile(path, 'utf8'));

  const platforms = [...new Set([...RENDER_PLATFORMS, ...Object.keys(renderers)])];
  const USAGE = usage(platforms);

  async function run(argv: string[], io: CliIo): Promise<number> {
    const args = parseRenderArgs(argv, platforms);
    if (args === 'help') {
      io.stdout(USAGE);
      return 0;
    }
    const render = renderers[args.platform];
    if (render === undefined) {
      io.stderr(
        `Rendering for ${args.platform} is not available: its renderer is not wired into this build.`,
      );
      return 1;
    }

    const fromStdin = args.file === undefined || args.file === '-';
    if (args.file === undefined && stdin.isTTY === true) {
      throw new UsageError('Give a file, or pipe one JSON record on stdin.');
    }
    const where = fromStdin ? 'stdin' : `"${args.file}"`;
    let text: string;
    try {
      text = fromStdin ? await readStream(stdin) : await readTextFile(args.file as string);
    } catch (error) {
      io.stderr(`Could not read ${where}: ${messageOf(error)}`);
      return 1;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      io.stderr(`${where} is not valid JSON: ${messageOf(error)}`);
      return 1;
    }

    const unwrapped = unwrapRecords(json);
    if (!unwrapped.ok) {
      io.stderr(`Nothing to render from ${where}: ${unwrapped.problem}.`);
      io.stderr(ACCEPTED_SHAPES);
      return 1;
    }
    const { records } = unwrapped;
    const several = records.length > 1;
    const which = (index: number) => (several ? `item ${index + 1} of ${records.length}` : 'this');

    const composed: ComposedRecord[] = [];
    const guesses = new Set<string>();
    let invalid = 0;
    for (const [index, found] of records.entries()) {
      let kind = args.kind ?? found.kind;
      if (kind === undefined) {
        const guess = guessRecordKind(found.record);
        if (guess === undefined) {
          throw new UsageError(
            `Could not tell what kind of record ${which(index)} is; pass --kind (${RECORD_KINDS.join(', ')}).\n${ACCEPTED_SHAPES}`,
          );
        }
        kind = guess.kind;
        // Said once per reason: a list of fifty comments needs one "because it has body".
        const line = `Guessed --kind ${kind} because ${guess.reason}; pass --kind to override.`;
        if (!guesses.has(line)) io.stderr(line);
        guesses.add(line);
      }

      const result = composeRawRecord(kind, found.record);
      if (!result.ok) {
        invalid += 1;
        const what = several
          ? `Record ${index + 1} of ${records.length} (${result.source})`
          : `The ${result.source} record`;
        io.stderr(`${what} from ${where} is not valid:`);
        for (const problem of result.problems) io.stderr(`  - ${problem}`);
        continue;
      }
      // Formatted as a subscription would hold it: a digest lists each item's formatted line.
      const message = formatMessage(result.message, args.format);
      composed.push({ kind, message, timestamp: result.message.timestamp, parsed: result.parsed });
    }

    const messages =
      args.digest === undefined || composed.length === 0
        ? composed.map((record) => record.message)
        : previewDigest(args.digest, composed, Date.now());
    const payloads: unknown[] = [];
    for (const message of messages) {
      try {
        payloads.push(await render(message));
      } catch (error) {
        io.stderr(`The ${args.platform} renderer failed: ${messageOf(error)}`);
        return 1;
      }
    }

    if (payloads.length > 0) {
      if (args.platform === 'console') {
        io.stdout(payloads.map((p) => (typeof p === 'string' ? p : JSON.stringify(p, null, 2))).join('\n\n'));
      } else {
        const list = args.digest === undefined ? several : payloads.length > 1;
        io.stdout(JSON.stringify(list ? payloads : payloads[0], null, 2));
      }
    }
    return invalid === 0 ? 0 : 1;
  }

  return {
    name: 'render',
    summary: 'Print the messages, or the digest, the bot would post for directory records (JSON or stdin).',
    usage: USAGE,
    async run(argv, io) {
      try {
        return await run(argv, io);
      } catch (error) {
        if (error instanceof UsageError || isParseArgsError(error)) {
          io.stderr(messageOf(error));
          io.stderr('Run "directory-bot render --help" for usage.');
          return USAGE_EXIT_CODE;
        }
        throw error;
      }
    },
  };
}

/** node:util parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown or malformed options. */
function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS_');
}
