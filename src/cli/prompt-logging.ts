import { isAbsolute, join, relative, resolve } from 'node:path';
import { Writable } from 'node:stream';
import type { Config } from '../config/config.js';
import { createLogger } from '../observability/create-logger.js';
import type { Logger } from '../ports/index.js';

/** Where the full logs go while a prompt keeps the terminal for itself; relative to the working folder. */
export const PROMPT_LOG_FILE = join('data', 'directory-bot.log');

export interface PromptLogging {
  logger: Logger;
  /** The file holding the full logs, as shown to the person; undefined when they all go to the screen. */
  logFile: string | undefined;
}

/**
 * The logger for a bot with a `directory>` prompt on the terminal. Info lines every few seconds
 * would bury the prompt and the feed items, so the screen shows warnings and errors only and the
 * full logs go to {@link PROMPT_LOG_FILE}, unless LOG_LEVEL was set: then the person asked to see
 * that level, here. Every line goes through `print`, which keeps it clear of the prompt.
 */
export function createPromptLogging(
  config: Config,
  print: (text: string) => void,
  folder: string = process.cwd(),
): PromptLogging {
  const destination = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      print(chunk.toString());
      callback();
    },
  });
  const base = {
    level: config.server.logLevel,
    format: config.server.logFormat,
    secrets: config.secrets,
    destination,
    isTty: true,
  };
  if (config.server.logLevelSet) return { logger: createLogger(base), logFile: undefined };
  const path = resolve(folder, PROMPT_LOG_FILE);
  try {
    const logger = createLogger({ ...base, file: { path, destinationLevel: 'warn' } });
    const shown = relative(process.cwd(), path);
    return { logger, logFile: shown.startsWith('..') || isAbsolute(shown) ? path : shown };
  } catch (error) {
    const logger = createLogger(base);
    logger.warn({ err: error, path }, 'cannot write the log file; every log line shows here instead');
    return { logger, logFile: undefined };
  }
}
