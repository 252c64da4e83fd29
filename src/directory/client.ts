import type { Dispatcher } from 'undici';
import { createConnectionTracker, type DirectoryConnection } from './connection-state.js';
import { createEtagCache } from './etag-cache.js';
import type { DirectoryClientEvent } from './events.js';
import {
  createDefaultDispatcher,
  createTransport,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUTS,
  defaultSleep,
  type RetryPolicy,
  type Timeouts,
} from './http-transport.js';
import { createQuotaLedger, type QuotaLedger } from './quota-ledger.js';
import { createV1Resources, type V1Resources } from './v1-resources.js';
import { createV2Resources, type V2Resources } from './v2-resources.js';

/** Names the bot and its version to the directory's operators. */
export const DEFAULT_USER_AGENT = 'directory-bot/0.1.0 (+https://github.com/directory-bot/directory-bot)';

export interface DirectoryClientOptions {
  /** e.g. `https://api.example.com` or the emulator's URL; paths `/v1/…` and `/v2/…` are appended. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; never appears in errors or events. */
  token: string;
  /** Default: one keep-alive undici Agent with connect/headers/body timeouts, closed by `close()`. */
  dispatcher?: Dispatcher;
  userAgent?: string;
  /** Default: a ledger with a 20 % interactive reserve using this client's clock and sleep. */
  ledger?: QuotaLedger;
  clock?: { now(): number };
  /** Used for backoff and quota waits; injectable so tests need no real time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Default 3 attempts, 250 ms base, 5 s cap (full jitter). */
  retry?: RetryPolicy;
  /** Per-request timeouts (also the default Agent's). */
  timeouts?: Partial<Timeouts>;
  /** Receives request, retry, rate-limit, skipped-record and 304 events. */
  onEvent?: (event: DirectoryClientEvent) => void;
  /** Source of backoff jitter (tests). */
  random?: () => number;
}

/**
 * Every endpoint of the directory as typed functions returning normalised records. Each
 * method takes an optional last `{ priority, signal }`: list methods default to
 * `background`, single lookups and `tokenInfo` to `interactive` (a person is waiting).
 */
export interface DirectoryClient extends V1Resources, V2Resources {
  /** The quota ledger this client spends from (for `/directory status` and the scheduler). */
  readonly ledger: QuotaLedger;
  /** Whether the directory answers and takes the token, as the last finished call found. */
  connection(): DirectoryConnection;
  /** Closes the default dispatcher; an injected dispatcher is left to its owner. */
  close(): Promise<void>;
}

/** Creates a client for one directory token. */
export function createDirectoryClient(options: DirectoryClientOptions): DirectoryClient {
  const clock = options.clock ?? Date;
  const sleep = options.sleep ?? defaultSleep;
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const ledger = options.ledger ?? createQuotaLedger({ clock, sleep });
  const onEvent = options.onEvent ?? (() => {});
  const ownsDispatcher = options.dispatcher === undefined;
  const dispatcher = options.dispatcher ?? createDefaultDispatcher(timeouts);
  const connection = createConnectionTracker({
    clock,
    onChange: (change) => onEvent({ type: 'connection', ...change }),
  });
  const transport = createTransport(
    {
      baseUrl: options.baseUrl,
      token: options.token,
      userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
      dispatcher,
      ledger,
      clock,
      sleep,
      retry: options.retry ?? DEFAULT_RETRY,
      timeouts,
      onEvent,
      connection,
      ...(options.random ? { random: options.random } : {}),
    },
    ownsDispatcher,
  );
  const v1 = createV1Resources({ transport, etags: createEtagCache(), onEvent });
  const v2 = createV2Resources({ transport, onEvent });
  return { ...v1, ...v2, ledger, connection: connection.current, close: () => transport.close() };
}
