import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createActivitySimulator } from './activity.js';
import { createAdmin, type EmulatorAdmin } from './admin.js';
import { type Clock, systemClock } from './clock.js';
import { FaultQueue } from './faults.js';
import { createRandom } from './prng.js';
import { Quotas } from './quotas.js';
import { createSeededStore } from './seed-data.js';
import { createRequestHandler } from './server.js';
import { RequestStats } from './stats.js';
import { isValidV1Offset, V1_OFFSET_MINUTES } from './time-format.js';
import { sharedV2Schema } from './v2-resolvers.js';

/** Where every link in emulator data points (`https://www.example-directory.test/posts/…`). */

export interface EmulatorOptions {
  /** Interface to listen on; default 127.0.0.1. */
  host?: string;
  /** Port; 0 (the default) picks a free one. */
  port?: number;
  /** Accepted bearer tokens, one application (and user) each; default ['dev-token']. */
  tokens?: string[];
  /** Seed of the generated data; default 1. */
  seed?: number;
  /** Quota window; default 900 s (15 minutes). */
  windowSeconds?: number;
  /** V1 requests per window; default 900. */
  quotaV1?: number;
  /** Non-GraphQL V2 requests per window; default 450. */
  quotaV2Requests?: number;
  /** GraphQL complexity points per window; default 6250. */
  quotaComplexity?: number;
  /** Per-query complexity cap; default 1000. */
  maxComplexity?: number;
  /** Simulated events per minute of clock time; default 0 (off). */
  activityPerMinute?: number;
  /** Source of time; default the system clock. Pass createManualClock() in tests. */
  clock?: Clock;
  /** Imitate the live service's deviations (REAL-WORLD.md) on every request; default false. */
  quirks?: boolean;
  /**
   * The service's UTC offset in minutes, -720 (-12:00) to 840 (+14:00): V1 timestamps carry
   * it, and V1 date filters (`newer`, `older`, `search[date]`) name days and months in it.
   * Default -480 (-08:00, Pacific standard time, as the live service).
   */
  v1OffsetMinutes?: number;
}

export interface RunningEmulator {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:4010. */
  url: string;
  close(): Promise<void>;
  clock: Clock;
  admin: EmulatorAdmin;
}

export const DEFAULT_TOKEN = 'dev-token';

function positive(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new RangeError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got ${value}`);
  }
  return value;
}

/**
 * Starts a Content Directory Service emulator (V1 REST, V2 GraphQL, admin API) on an HTTP
 * port and resolves once it is listening.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const clock = options.clock ?? systemClock;
  const tokens = options.tokens && options.tokens.length > 0 ? [...new Set(options.tokens)] : [DEFAULT_TOKEN];
  const seed = options.seed ?? 1;
  const quotas = new Quotas(
    {
      windowSeconds: positive('windowSeconds', options.windowSeconds ?? 900),
      v1: positive('quotaV1', options.quotaV1 ?? 900, true),
      v2Requests: positive('quotaV2Requests', options.quotaV2Requests ?? 450, true),
      complexity: positive('quotaComplexity', options.quotaComplexity ?? 6250, true),
    },
    clock,
  );
  const maxComplexity = positive('maxComplexity', options.maxComplexity ?? 1000);
  const v1OffsetMinutes = options.v1OffsetMinutes ?? V1_OFFSET_MINUTES;
  if (!isValidV1Offset(v1OffsetMinutes)) {
    throw new RangeError(`v1OffsetMinutes must be whole minutes from -720 to 840, got ${v1OffsetMinutes}`);
  }
  const store = createSeededStore(seed, tokens, clock);
  const faults = new FaultQueue();
  const stats = new RequestStats();
  // A separate stream from the seed data's, so activity never changes what the seed produced.
  const activity = createActivitySimulator({
    store,
    clock,
    random: createRandom(seed ^ 0x5eed),
    churnRandom: createRandom(seed ^ 0xc4a7),
    perMinute: positive('activityPerMinute', options.activityPerMinute ?? 0, true),
    tokens,
  });
  const admin = createAdmin({ store, clock, quotas, faults, stats, activity, tokens, v1OffsetMinutes });
  const handler = createRequestHandler({
    store,
    clock,
    quotas,
    faults,
    stats,
    activity,
    admin,
    schema: sharedV2Schema(),
    tokens: new Set(tokens),
    quirks: options.quirks ?? false,
    maxComplexity,
    v1OffsetMinutes,
  });

  const server = createServer({ keepAliveTimeout: 5000 }, handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // With the system clock nothing pulls the simulator while idle; a light timer does.
  const pulse =
    clock === systemClock && (options.activityPerMinute ?? 0) > 0
      ? setInterval(() => activity.catchUp(), 1000)
      : undefined;
  pulse?.unref();

  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    clock,
    admin,
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (pulse) clearInterval(pulse);
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
