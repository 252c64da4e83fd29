import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createPromptLogging, PROMPT_LOG_FILE } from '../../src/cli/prompt-logging.js';
import { loadConfig } from '../../src/config/load-config.js';
import { createLogger } from '../../src/observability/create-logger.js';
import { makeTempDir } from '../support/temp-dir.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());

function config(environment: Record<string, string> = {}) {
  return loadConfig({ environment, envFile: false });
}

describe('logs on a terminal', () => {
  it('print one line per event, without the service name every line shares', () => {
    let text = '';
    const destination = new Writable({
      write(chunk, _encoding, callback) {
        text += chunk.toString();
        callback();
      },
    });
    const logger = createLogger({ level: 'info', format: 'pretty', destination, isTty: false });
    logger.info({ feed: 'comments', found: 1, queued: 1 }, 'polled feed');
    logger.warn({ err: new Error('boom') }, 'poll failed');
    const lines = text.split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/INFO: polled feed .*"feed":"comments"/);
    expect(lines[1]).toMatch(/WARN: poll failed/);
    expect(text).not.toContain('directory-bot');
    expect(text).not.toContain('service');
  });
});

describe('logs beside a directory> prompt', () => {
  it('show only warnings on the screen and keep every line in data/directory-bot.log', () => {
    const folder = join(temp.path, 'quiet');
    let screen = '';
    const { logger, logFile } = createPromptLogging(
      config(),
      (text) => {
        screen += text;
      },
      folder,
    );
    logger.info({ feed: 'live' }, 'polled feed');
    logger.warn('the directory is slow');
    expect(logFile).toBe(join(folder, PROMPT_LOG_FILE));
    expect(screen).not.toContain('polled feed');
    expect(screen).toContain('the directory is slow');
    const file = readFileSync(join(folder, PROMPT_LOG_FILE), 'utf8');
    expect(file).toContain('polled feed');
    expect(file).toContain('the directory is slow');
    expect(file.split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('show every line on the screen, and write no file, when LOG_LEVEL is set', () => {
    const folder = join(temp.path, 'chatty');
    let screen = '';
    const { logger, logFile } = createPromptLogging(
      config({ LOG_LEVEL: 'debug' }),
      (text) => {
        screen += text;
      },
      folder,
    );
    logger.debug('cadence chosen');
    logger.info('polled feed');
    expect(logFile).toBeUndefined();
    expect(screen).toContain('cadence chosen');
    expect(screen).toContain('polled feed');
    expect(() => readFileSync(join(folder, PROMPT_LOG_FILE))).toThrow();
  });

  it('fall back to the screen, saying why, when the log file cannot be written', () => {
    // A file where the working folder should be: no data/ folder can be created under it.
    const blocker = join(temp.path, 'not-a-folder');
    writeFileSync(blocker, '');
    let screen = '';
    const { logger, logFile } = createPromptLogging(
      config(),
      (text) => {
        screen += text;
      },
      blocker,
    );
    logger.info('polled feed');
    expect(logFile).toBeUndefined();
    expect(screen).toContain('cannot write the log file');
    expect(screen).toContain('polled feed');
  });
});
