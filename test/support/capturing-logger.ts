import type { Logger } from '../../src/ports/index.js';

export interface CapturedLine {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

/** A logger that keeps what it is told, so tests can assert on warnings without printing. */
export function createCapturingLogger(): Logger & { lines: CapturedLine[] } {
  const lines: CapturedLine[] = [];
  const log =
    (level: string) =>
    (fieldsOrMessage: Record<string, unknown> | string, message?: string): void => {
      lines.push(
        typeof fieldsOrMessage === 'string'
          ? { level, message: fieldsOrMessage, fields: {} }
          : { level, message: message ?? '', fields: fieldsOrMessage },
      );
    };
  const logger: Logger & { lines: CapturedLine[] } = {
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
