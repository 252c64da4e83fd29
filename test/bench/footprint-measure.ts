/** One store's footprint, measured in its own process (footprint-child.ts). */
import { performance } from 'node:perf_hooks';
import { DeliveredLedger } from '../../src/delivery/delivered-ledger.js';
import { systemClock } from '../../src/ports/clock.js';
import type { StoreKind } from '../../src/store/bot-store.js';
import { SubscriptionRepository } from '../../src/subscriptions/subscription-repository.js';
import {
  channelOf,
  commentsFor,
  type RoutingTiming,
  SUBSCRIPTIONS_PER_CHANNEL,
  seedsFor,
  timeRouting,
} from './footprint-routing.js';
import { BENCH_DIRECTORY, openBenchStore } from './footprint-stores.js';
import { round, type Violation } from './support.js';

export interface FootprintOptions {
  /** Channels, each with ten subscriptions (the issue: 10,000 channels, 100,000 subscriptions). */
  channels: number;
  /** Delivered-ledger entries per batch (the issue: 1,000,000). */
  ledgerEntries: number;
  /** The ledger TTL of the run: short, so the plateau shows within the run; longer than writing a batch. */
  ttlMs: number;
}

export interface StoreFootprint {
  kind: StoreKind;
  subscriptions: number;
  /**
   * baseline: the store open and empty. beforeBulkMiB: with every subscription indexed and the
   * bot's own ledger writes done. loaded: after the first batch, which the bench-only bulk
   * writer put there (its buffers count, the bot never holds a batch).
   */
  rss: { baselineMiB: number; beforeBulkMiB: number; loadedMiB: number; ratio: number };
  /**
   * Where the RSS of each reading is: V8's heap (used, and reserved), memory outside it that V8
   * knows of (Buffers), and the rest (code, native libraries, and freed memory malloc has not
   * given back to the system).
   */
  memory: { baseline: MemoryBreakdown; beforeBulk: MemoryBreakdown; loaded: MemoryBreakdown };
  store: {
    afterFirstBatchBytes: number;
    bytesPerLedgerEntry: number;
    /** After a second batch once the first expired, before any sweep. */
    afterUnsweptBatchBytes: number;
    unsweptGrowth: number;
    /** After the poller's sweep (and, on PostgreSQL, the VACUUM autovacuum would run), then a third batch. */
    afterSweptBatchBytes: number;
    /** afterSweptBatch ÷ afterUnsweptBatch: ≤ 1 means the store stopped growing. */
    plateauRatio: number;
    keysAtEnd: number;
  };
  /** Routing and `/directory subscriptions` with a tenth of the channels, then with all of them. */
  routing: {
    tenth: RoutingTiming;
    /** All the subscriptions, items spread over all the channels. */
    full: RoutingTiming;
    /** All the subscriptions, the tenth's items: only the number of subscriptions changed. */
    fullSameItems: RoutingTiming;
    indexedRatio: number;
    sameItemsRatio: number;
    linearRatio: number;
  };
  /** `SubscriptionRepository.forChannel` (what `/directory subscriptions` reads), ms per call: tenth, full. */
  channelListMs: { tenth: number; full: number };
  /** Seeding every subscription through `SubscriptionRepository.seed`, ms. */
  subscriptionSeedMs: number;
  /** Through the bot's own DeliveredLedger.markDelivered, 500 in flight. */
  ledgerWritesPerSecond: number;
  /** Seconds to write one batch (bench-only bulk writer after the first 5,000). */
  batchSeconds: number[];
  violations: Violation[];
}

export interface MemoryBreakdown {
  /** A second after the GC: what the process holds. */
  rssMiB: number;
  /** Right after the GC, while V8 is still returning the pages it freed (up to 160 MiB more). */
  rssAtGcMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
  externalMiB: number;
  otherMiB: number;
}

const mib = (bytes: number) => round(bytes / 1_048_576, 1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Ledger entries written through the bot's own DeliveredLedger before the batches. */
const BOT_PATH_WRITES = 500;

export async function measureStore(
  kind: StoreKind,
  url: string,
  options: FootprintOptions,
): Promise<StoreFootprint> {
  const bench = await openBenchStore(kind, url);
  const { store } = bench;
  const violations: Violation[] = [];
  const problem = (text: string) => violations.push({ benchmark: `footprint ${kind}`, problem: text });
  try {
    await store.ping(10_000);
    const baseline = await memory();
    const subscriptions = new SubscriptionRepository({
      keyv: store.keyv,
      leases: store.leases,
      clock: systemClock,
    });
    const ledger = new DeliveredLedger({
      keyv: store.keyv,
      ttlMs: options.ttlMs,
      directoryId: BENCH_DIRECTORY,
    });

    const atScale = async (channels: number, itemChannels = channels) => {
      const started = performance.now();
      const index = await subscriptions.index();
      const built = performance.now() - started;
      const items = commentsFor(itemChannels, 200);
      const timing = timeRouting(index, await subscriptions.list(), items, built);
      await subscriptions.forChannel(channelOf(0).platform, channelOf(0).channelId); // warm-up
      const listStarted = performance.now();
      for (let i = 0; i < 50; i += 1) {
        const { platform, channelId } = channelOf((i * 7919) % channels);
        if ((await subscriptions.forChannel(platform, channelId)).length !== SUBSCRIPTIONS_PER_CHANNEL)
          problem(`channel ${channelId} lists the wrong number of subscriptions`);
      }
      return { timing, listMs: round((performance.now() - listStarted) / 50, 3) };
    };
    const tenthChannels = Math.max(1, Math.floor(options.channels / 10));
    await subscriptions.seed(seedsFor(0, tenthChannels));
    const tenth = await atScale(tenthChannels);
    const seedStarted = performance.now();
    await subscriptions.seed(seedsFor(0, options.channels));
    const subscriptionSeedMs = round(performance.now() - seedStarted, 0);
    const full = await atScale(options.channels);
    // The tenth's items again, now among all the subscriptions: what the lookup costs when only
    // the number of subscriptions changes, not how much memory the items touch.
    const fullSameItems = await atScale(options.channels, tenthChannels);
    const index = await subscriptions.index(); // what the poller holds between changes
    const expected = options.channels * SUBSCRIPTIONS_PER_CHANNEL;
    if (index.size !== expected) problem(`${index.size} subscriptions stored, expected ${expected}`);

    const pairsOf = (batch: number, from: number, to: number) =>
      Array.from({ length: to - from }, (_, j) => {
        const i = from + j;
        const { platform, channelId } = channelOf(i % options.channels);
        return {
          destination: `${platform}:${channelId}`,
          itemKey: `comments:new:${batch * options.ledgerEntries + i}`,
        };
      });
    // The bot's own write path, for its rate (one write, on SQLite one fsync, per entry); the
    // batches below go in bulk, or a million entries would be most of the run.
    const botPairs = pairsOf(-1, 0, Math.min(BOT_PATH_WRITES, options.ledgerEntries));
    const botStarted = performance.now();
    for (let i = 0; i < botPairs.length; i += 500)
      await Promise.all(
        botPairs.slice(i, i + 500).map((p) => ledger.markDelivered(p.destination, p.itemKey)),
      );
    const ledgerWritesPerSecond = round(botPairs.length / ((performance.now() - botStarted) / 1000), 0);

    const beforeBulk = await memory();
    const batchSeconds: number[] = [];
    const writeBatch = async (batch: number): Promise<number> => {
      const started = Date.now();
      const expiresAt = started + options.ttlMs;
      for (let from = 0; from < options.ledgerEntries; from += 50_000)
        await bench.writeLedger(
          pairsOf(batch, from, Math.min(from + 50_000, options.ledgerEntries)),
          expiresAt,
        );
      batchSeconds.push(round((Date.now() - started) / 1000, 1));
      if (Date.now() >= expiresAt) problem(`batch ${batch} took longer than the ${options.ttlMs} ms TTL`);
      return expiresAt;
    };

    const firstExpires = await writeBatch(0);
    const sample = [0, options.ledgerEntries - 1].flatMap((i) => pairsOf(0, i, i + 1));
    // Read right away: the entries must still be live, and the bot must read the bulk format.
    const readBack = await ledger.delivered(sample);
    if (Date.now() < firstExpires && !readBack.every(Boolean))
      problem('the bot does not read back the entries written');
    const loaded = await memory();
    const afterFirst = await bench.sizeBytes();

    await sleep(firstExpires - Date.now() + 50);
    const secondExpires = await writeBatch(1);
    const afterUnswept = await bench.sizeBytes();

    await sleep(secondExpires - Date.now() + 50);
    await store.sweepExpired(); // what the poller does every hour
    await bench.afterSweep();
    await writeBatch(2);
    const keysAtEnd = await bench.countKeys();
    const afterSwept = await bench.sizeBytes();
    if (keysAtEnd < options.ledgerEntries)
      problem(`only ${keysAtEnd} keys left, the live batch has ${options.ledgerEntries}`);

    return {
      kind,
      subscriptions: index.size,
      rss: {
        baselineMiB: baseline.rssMiB,
        beforeBulkMiB: beforeBulk.rssMiB,
        loadedMiB: loaded.rssMiB,
        ratio: round(loaded.rssMiB / baseline.rssMiB, 2),
      },
      memory: { baseline, beforeBulk, loaded },
      store: {
        afterFirstBatchBytes: afterFirst,
        bytesPerLedgerEntry: round(afterFirst / options.ledgerEntries, 1),
        afterUnsweptBatchBytes: afterUnswept,
        unsweptGrowth: round(afterUnswept / afterFirst, 2),
        afterSweptBatchBytes: afterSwept,
        plateauRatio: round(afterSwept / afterUnswept, 2),
        keysAtEnd,
      },
      routing: {
        tenth: tenth.timing,
        full: full.timing,
        fullSameItems: fullSameItems.timing,
        indexedRatio: round(full.timing.indexedMicros / tenth.timing.indexedMicros, 2),
        sameItemsRatio: round(fullSameItems.timing.indexedMicros / tenth.timing.indexedMicros, 2),
        linearRatio: round(full.timing.linearMicros / tenth.timing.linearMicros, 2),
      },
      channelListMs: { tenth: tenth.listMs, full: full.listMs },
      subscriptionSeedMs,
      ledgerWritesPerSecond,
      batchSeconds,
      violations,
    };
  } finally {
    await bench.close();
  }
}

/**
 * After a full GC (the child runs with --expose-gc) and a second more: V8 hands the pages a GC
 * freed back to the system on a thread of its own, so RSS read at once still counts them. With
 * 100,000 subscriptions that was up to 160 MiB, more or less depending on the moment, which made
 * one store's figure look 100 MiB heavier than another's (docs/benchmarks.md, "Isolating a figure").
 */
async function memory(): Promise<MemoryBreakdown> {
  (globalThis as { gc?: () => void }).gc?.();
  const atGc = process.memoryUsage().rss;
  await sleep(1000);
  const { rss, heapUsed, heapTotal, external } = process.memoryUsage();
  return {
    rssMiB: mib(rss),
    rssAtGcMiB: mib(atGc),
    heapUsedMiB: mib(heapUsed),
    heapTotalMiB: mib(heapTotal),
    externalMiB: mib(external),
    otherMiB: mib(rss - heapTotal - external),
  };
}
