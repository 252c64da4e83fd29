import type { KeyValueStore, Logger } from '../../../src/ports/index.js';

/** A logger that keeps what it is given, so tests can assert on warnings without printing. */
export function createCapturingLogger(lines: unknown[][] = []): Logger & { lines: unknown[][] } {
  const log =
    (level: string) =>
    (...args: unknown[]): void => {
      lines.push([level, ...args]);
    };
  const logger: Logger & { lines: unknown[][] } = {
    lines,
    trace: log('trace'),
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    fatal: log('fatal'),
    child: () => logger,
  };
  return logger;
}

/** The KeyValueStore port over a Map (TTLs ignored: tests never outlive them). */
export function createMemoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: async <T>(key: string) => data.get(key) as T | undefined,
    set: async <T>(key: string, value: T) => {
      data.set(key, structuredClone(value));
      return true;
    },
    delete: async (key: string) => data.delete(key),
  };
}
