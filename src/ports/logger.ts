/** The slice of pino the core and adapters use, so tests can pass a silent or capturing logger. */
export interface LogFn {
  (message: string): void;
  (fields: Record<string, unknown>, message?: string): void;
}

export interface Logger {
  trace: LogFn;
  debug: LogFn;
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  fatal: LogFn;
  child(bindings: Record<string, unknown>): Logger;
}
