import { type BotErrorCode, isBotError, messageOf } from '../errors.js';

/**
 * Whether the directory can be used at all, as the last finished call found it: `ok` (it answered
 * and took the token; a 404 or a 429 is still an answer), `refused` (it answered 401/403: the
 * token is wrong, revoked or expired), `unreachable` (no answer, a timeout, a 5xx or an HTML page
 * in front of it, after the retries), or `unknown` before any call finished.
 */
export type DirectoryConnection =
  | { state: 'unknown' }
  | { state: 'ok'; since: number }
  | { state: 'refused' | 'unreachable'; since: number; detail: string };

export type ConnectionStateName = DirectoryConnection['state'];

/** How the connection to the directory changed; reported once per change, never per call. */
export interface ConnectionChange {
  from: DirectoryConnection;
  to: DirectoryConnection;
}

export interface ConnectionTracker {
  current(): DirectoryConnection;
  /** One call finished, after its retries: its error, or undefined when it succeeded. */
  settled(error: unknown): void;
}

const UNREACHABLE: ReadonlySet<BotErrorCode> = new Set([
  'upstream_network',
  'upstream_timeout',
  'upstream_unavailable',
]);

/**
 * What a finished call says about the connection; undefined when it says nothing (a quota wait
 * given up, or a failure of our own).
 */
export function connectionAfter(error: unknown): 'ok' | 'refused' | 'unreachable' | undefined {
  if (error === undefined) return 'ok';
  if (!isBotError(error)) return undefined;
  if (error.code === 'upstream_unauthorized') return 'refused';
  if (UNREACHABLE.has(error.code)) return 'unreachable';
  return error.code.startsWith('upstream_') ? 'ok' : undefined;
}

/**
 * Follows the connection from each finished call and calls `onChange` when its state changes,
 * so a revoked token or an outage is said once, and its end once, however many polls and
 * lookups fail in between.
 */
export function createConnectionTracker(options: {
  clock: { now(): number };
  onChange: (change: ConnectionChange) => void;
}): ConnectionTracker {
  let connection: DirectoryConnection = { state: 'unknown' };
  return {
    current: () => connection,
    settled(error) {
      const state = connectionAfter(error);
      if (state === undefined || state === connection.state) return;
      const since = options.clock.now();
      const next: DirectoryConnection =
        state === 'ok' ? { state, since } : { state, since, detail: messageOf(error) };
      const change = { from: connection, to: next };
      connection = next;
      options.onChange(change);
    },
  };
}
