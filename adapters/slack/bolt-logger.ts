import { type Logger as BoltLogger, LogLevel } from '@slack/bolt';
import type { Logger } from '../../src/ports/index.js';

function join(parts: unknown[]): string {
  return parts
    .map((part) =>
      typeof part === 'string' ? part : part instanceof Error ? part.message : JSON.stringify(part),
    )
    .join(' ');
}

/**
 * Bridges Bolt's and the Web API client's logger onto ours, so SDK logs come out as our JSON
 * lines (with our redaction) instead of Bolt's console output. The level is ours to set, not Bolt's.
 */
export function createBoltLogger(logger: Logger): BoltLogger {
  let level: LogLevel = LogLevel.INFO;
  let log = logger.child({ component: 'slack-sdk' });
  return {
    debug: (...msg: unknown[]) => log.debug(join(msg)),
    info: (...msg: unknown[]) => log.info(join(msg)),
    warn: (...msg: unknown[]) => log.warn(join(msg)),
    error: (...msg: unknown[]) => log.error(join(msg)),
    setLevel: (next: LogLevel) => {
      level = next;
    },
    getLevel: () => level,
    setName: (name: string) => {
      log = logger.child({ component: 'slack-sdk', name });
    },
  };
}
