import { mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';
import { type DestinationStream, type Level, pino } from 'pino';
import prettyStream from 'pino-pretty';
import type { Logger } from '../ports/index.js';

export interface LoggerOptions {
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
  format: 'auto' | 'json' | 'pretty';
  /** Exact secret values (tokens, passwords) to scrub from every line, wherever they appear. */
  secrets?: readonly string[];
  /** Where lines go; defaults to stdout. Tests pass a capturing stream. */
  destination?: NodeJS.WritableStream;
  /** Whether the destination is a terminal (decides `auto`). */
  isTty?: boolean;
  /**
   * Keeps a terminal readable: every line at `level` goes to `path` (created, folder and all,
   * when missing; appended to otherwise), and the destination shows only `destinationLevel`
   * and above. Throws when the file cannot be opened.
   */
  file?: { path: string; destinationLevel: Exclude<LoggerOptions['level'], 'silent'> };
}

/**
 * Field names whose values are always secrets, wherever they appear in a log object.
 * Exact values configured as secrets are scrubbed too (see `secrets`), so a token that
 * ends up inside an error message or URL is still never written.
 */
const SECRET_FIELD_NAMES = [
  'token',
  'botToken',
  'appToken',
  'accessToken',
  'secret',
  'signingSecret',
  'clientSecret',
  'stateSecret',
  'password',
  'authorization',
  'signature',
  'webhookUrl',
];

const REDACTED_PATHS = [
  ...SECRET_FIELD_NAMES,
  ...SECRET_FIELD_NAMES.map((name) => `*.${name}`),
  'headers.cookie',
  'headers["x-slack-signature"]',
  'headers["x-signature-ed25519"]',
  '*.headers.authorization',
  '*.headers["x-slack-signature"]',
  '*.headers["x-signature-ed25519"]',
];

const REDACTED = '[REDACTED]';

/**
 * Builds the one application logger: JSON lines in production, readable in a terminal (one line
 * per event, without the `service` field every line of this process shares).
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? process.stdout;
  const usePretty =
    options.format === 'pretty' ||
    (options.format === 'auto' && (options.isTty ?? process.stdout.isTTY === true));
  const scrub = secretScrubber(options.secrets ?? []);
  const screen = formatted(scrubbingStream(destination, scrub), usePretty, options.isTty ?? false);
  const settings = {
    level: options.level,
    base: { service: 'directory-bot' },
    redact: { paths: REDACTED_PATHS, censor: REDACTED },
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
  };
  if (options.file === undefined || options.level === 'silent') {
    return pino(settings, screen) as unknown as Logger;
  }
  // The file is read later, maybe by someone filing a bug: readable unless JSON was asked for.
  const file = formatted(
    scrubbingStream(appendOnlyFile(options.file.path), scrub),
    options.format !== 'json',
    false,
  );
  const streams = pino.multistream([
    { level: options.file.destinationLevel as Level, stream: screen },
    { level: options.level as Level, stream: file },
  ]);
  return pino(settings, streams) as unknown as Logger;
}

function formatted(sink: DestinationStream, pretty: boolean, colorize: boolean): DestinationStream {
  if (!pretty) return sink;
  return prettyStream({
    destination: sink,
    sync: true,
    colorize,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,service',
  });
}

/** Appends synchronously, so the last lines before an exit are never lost. */
function appendOnlyFile(path: string): NodeJS.WritableStream {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'a');
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      try {
        writeSync(fd, chunk.toString());
        callback();
      } catch {
        // A full disk must not take the bot down with it; the line is lost, the bot carries on.
        callback();
      }
    },
  });
}

/** A logger that writes nowhere, for tests and library use. */
export function createSilentLogger(): Logger {
  return pino({ level: 'silent' }) as unknown as Logger;
}

/**
 * The credential part of every webhook URL shape the bot knows, wherever one appears (a stored
 * webhook's URL is not among the configured secrets): a Discord webhook's token, a Slack
 * incoming webhook's secret, a Teams Workflows URL's `sig`, a Mattermost hook id.
 */
const WEBHOOK_CREDENTIALS: [RegExp, string][] = [
  [/(\/api(?:\/v\d+)?\/webhooks\/\d+\/)[A-Za-z0-9_-]+/g, `$1${REDACTED}`],
  [/(\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/)[A-Za-z0-9]+/g, `$1${REDACTED}`],
  [/([?&]sig=)[^&\s"']+/g, `$1${REDACTED}`],
  [/(\/hooks\/)[a-z0-9]{26}\b/g, `$1${REDACTED}`],
];

function scrubWebhookCredentials(line: string): string {
  let out = line;
  for (const [pattern, replacement] of WEBHOOK_CREDENTIALS) out = out.replace(pattern, replacement);
  return out;
}

function secretScrubber(secrets: readonly string[]): (line: string) => string {
  const values = [...new Set(secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  if (values.length === 0) return scrubWebhookCredentials;
  const variants = values.flatMap((value) => [
    value,
    JSON.stringify(value).slice(1, -1),
    encodeURIComponent(value),
  ]);
  const pattern = new RegExp([...new Set(variants)].map(escapeRegExp).join('|'), 'g');
  return (line) => scrubWebhookCredentials(line.replace(pattern, REDACTED));
}

/** Scrubs whole serialized lines, so a secret inside a message, an error or a URL is caught too. */
function scrubbingStream(
  destination: NodeJS.WritableStream,
  scrub: (line: string) => string,
): DestinationStream {
  return new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      destination.write(scrub(chunk.toString()));
      callback();
    },
  }) as unknown as DestinationStream;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
