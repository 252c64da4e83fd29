import { afterEach } from 'vitest';
import {
  createDirectoryClient,
  type DirectoryClient,
  type DirectoryClientEvent,
} from '../../src/directory/index.js';
import {
  createManualClock,
  type EmulatorOptions,
  type ManualClock,
  type RunningEmulator,
  startEmulator,
} from '../../src/emulator/index.js';
import type { FeedDependencies } from '../../src/feeds/feed.js';
import type { FeedItem } from '../../src/feeds/feed-item.js';

/** An in-process emulator and a directory client sharing one manual clock, for feed tests. */
export interface FeedEmulator {
  clock: ManualClock;
  emulator: RunningEmulator;
  client: DirectoryClient;
  /** Everything the client reported, e.g. `record-skipped` for a record it left out. */
  clientEvents: DirectoryClientEvent[];
}

/**
 * Registers an `afterEach` that closes what the returned function starts, so each test of a
 * feed gets its own emulator at the instant it names. Quota waits move the manual clock
 * instead of sleeping.
 */
export function feedEmulators(): (options?: {
  at?: string;
  emulator?: Omit<EmulatorOptions, 'clock'>;
}) => Promise<FeedEmulator> {
  const running: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    await Promise.all(running.splice(0).map((r) => r.close()));
  });
  return async (options = {}) => {
    const clock = createManualClock(options.at === undefined ? undefined : Date.parse(options.at));
    const emulator = await startEmulator({ ...options.emulator, clock });
    running.push(emulator);
    const clientEvents: DirectoryClientEvent[] = [];
    const client = createDirectoryClient({
      baseUrl: emulator.url,
      token: 'dev-token',
      clock,
      sleep: async (ms) => clock.advance(ms),
      onEvent: (event) => clientEvents.push(event),
    });
    running.push(client);
    return { clock, emulator, client, clientEvents };
  };
}

type StartOptions = Parameters<ReturnType<typeof feedEmulators>>[0];

/** Like `feedEmulators`, each start also building the feed under test on that emulator's client and clock. */
export function feedOnEmulator<F>(
  create: (deps: FeedDependencies) => F,
  options: StartOptions = {},
): () => Promise<FeedEmulator & { feed: F }> {
  const start = feedEmulators();
  return async () => {
    const world = await start(options);
    return { ...world, feed: create(world) };
  };
}

/** The upstream ids of feed items, in order. */
export function idsOf(items: readonly FeedItem[]): string[] {
  return items.map((item) => item.id);
}

/** Each item's feed, event kind and discovery time, for asserting what a poll hands on. */
export function provenanceOf(items: readonly FeedItem[]): [string, string, number][] {
  return items.map((item) => [item.feed, item.event, item.discoveredAt]);
}

/** How many records the client has skipped as malformed so far. */
export function skippedRecords(events: readonly DirectoryClientEvent[]): number {
  return events.filter((event) => event.type === 'record-skipped').length;
}
