import { fork } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeliveredLedger } from '../../src/delivery/dedupe.js';
import type { SubscriptionSeed } from '../../src/delivery/subscription-spec.js';
import { SubscriptionRepository } from '../../src/delivery/subscriptions.js';
import { systemClock } from '../../src/ports/clock.js';
import { createStore } from '../../src/store/create-store.js';
import { makeTempDir } from '../support/temp-dir.js';
import { round, type Violation } from './support.js';

export interface FootprintOptions {
  subscriptions: number;
  /** Delivered-ledger entries per batch (the issue: 100,000; quick mode 10,000). */
  ledgerEntries: number;
  /** The ledger TTL used for the run: short, so the plateau can be shown in seconds. */
  ttlMs: number;
}

export interface FootprintResult {
  subscriptions: number;
  ledgerEntriesPerBatch: number;
  rss: {
    /** After start-up with the store open and empty, MiB. */
    baselineMiB: number;
    /** After the subscriptions were written and listed and the first batch delivered, MiB. */
    loadedMiB: number;
    /** loaded ÷ baseline. */
    ratio: number;
  };
  store: {
    /** SQLite file after the subscriptions and the first batch, bytes. */
    afterFirstBatchBytes: number;
    bytesPerLedgerEntry: number;
    /** After a second batch written once the first expired, with nothing reading the old keys. */
    afterUnpurgedBatchBytes: number;
    /** afterUnpurgedBatch ÷ afterFirstBatch: what happens when expired keys are never read (≈ 2 = growth). */
    unpurgedGrowth: number;
    /** After the poller's sweep of expired keys (BotStore.sweepExpired), then a third batch. */
    afterPurgedBatchBytes: number;
    /** afterPurgedBatch ÷ afterUnpurgedBatch: ≤ 1 means SQLite reused the freed pages, the store plateaued. */
    plateauRatio: number;
    /** Rows left in the table at the end: the live batch plus the subscriptions and bookkeeping. */
    rowsAtEnd: number;
  };
  writesPerSecond: number;
  violations: Violation[];
}

const mib = (bytes: number) => round(bytes / 1_048_576, 1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the measurement in a fresh Node process, so RSS is the bot's footprint, not the harness's. */
export function benchFootprint(options: FootprintOptions): Promise<FootprintResult> {
  const child = fork(
    fileURLToPath(new URL('./footprint-child.ts', import.meta.url)),
    [JSON.stringify(options)],
    {
      execArgv: ['--import', import.meta.resolve('tsx'), '--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  return new Promise((resolve, reject) => {
    let result: FootprintResult | undefined;
    child.on('message', (message) => {
      result = message as FootprintResult;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0 && result) resolve(result);
      else reject(new Error(`the footprint process exited with ${code} before reporting`));
    });
  });
}

/**
 * What the bot keeps after `subscriptions` subscriptions and batches of delivered-ledger entries,
 * written through the bot's own SubscriptionRepository and DeliveredLedger into a SQLite store.
 * The plateau is shown in three batches: the second lands after the first expired but before
 * anything read it; then the store is swept as the poller does hourly (BotStore.sweepExpired)
 * and a third batch lands in the freed pages.
 */
export async function measureFootprint(options: FootprintOptions): Promise<FootprintResult> {
  const temp = makeTempDir('directory-bot-bench-');
  const path = join(temp.path, 'footprint.sqlite');
  const store = createStore({ url: `sqlite://${path}`, namespace: 'bench' });
  try {
    const subscriptions = new SubscriptionRepository({
      keyv: store.keyv,
      leases: store.leases,
      clock: systemClock,
    });
    const ledger = new DeliveredLedger({ keyv: store.keyv, ttlMs: options.ttlMs, directoryId: 'bench' });
    const countRows = async () =>
      ((await store.keyv.store.query('SELECT COUNT(*) AS n FROM keyv')) as { n: number }[])[0]?.n ?? 0;
    await store.ping();
    const baseline = rss();

    // Half Slack, half Discord, each on one of the five feeds.
    const feeds = ['posts', 'comments', 'collections', 'live', 'notifications'] as const;
    const destinations: string[] = [];
    // One seed call: SUBSCRIPTIONS is reconciled as a whole (routes not listed are removed).
    {
      const seeds: SubscriptionSeed[] = [];
      for (let i = 0; i < options.subscriptions; i += 1) {
        const slack = i % 2 === 0;
        const channelId = slack ? `C${String(1_000_000 + i)}` : String(300_000_000_000_000_000n + BigInt(i));
        seeds.push({
          platform: slack ? 'slack' : 'discord',
          channelId,
          feed: feeds[i % feeds.length] ?? 'comments',
          filters: i % 3 === 0 ? { keywords: ['ai', 'tools'] } : {},
        });
        destinations.push(`${slack ? 'slack' : 'discord'}:${channelId}`);
      }
      await subscriptions.seed(seeds);
    }
    const listed = await subscriptions.list(); // the poller holds this list every cycle
    const violations: Violation[] = [];
    if (listed.length !== options.subscriptions) {
      violations.push({
        benchmark: 'footprint',
        problem: `${listed.length} subscriptions stored, expected ${options.subscriptions}`,
      });
    }

    const pairsOf = (batch: number) =>
      Array.from({ length: options.ledgerEntries }, (_, i) => ({
        destination: destinations[i % destinations.length] ?? 'slack:C1',
        itemKey: `comments:new:${batch * options.ledgerEntries + i}`,
      }));
    let writes = 0;
    let writingMs = 0;
    const writeBatch = async (batch: number) => {
      const started = Date.now();
      const pairs = pairsOf(batch);
      // A few hundred in flight, like a dispatcher draining many destinations at once.
      for (let i = 0; i < pairs.length; i += 500) {
        await Promise.all(pairs.slice(i, i + 500).map((p) => ledger.markDelivered(p.destination, p.itemKey)));
      }
      writes += pairs.length;
      writingMs += Date.now() - started;
    };
    await writeBatch(0);
    const loaded = rss();
    const afterFirst = statSync(path).size;
    // Counted in SQL, not read through keyv: with a 1 s TTL a read could already find them expired.
    const rowsAfterFirst = await countRows();
    if (rowsAfterFirst < options.ledgerEntries) {
      violations.push({
        benchmark: 'footprint',
        problem: `${rowsAfterFirst} rows after writing ${options.ledgerEntries} ledger entries`,
      });
    }

    await sleep(options.ttlMs + 50);
    await writeBatch(1);
    const afterUnpurged = statSync(path).size;

    await sleep(options.ttlMs + 50);
    // What the poller does every hour: sweep the expired keys nothing will read again.
    await store.sweepExpired();
    await writeBatch(2);
    const afterPurged = statSync(path).size;
    const expected = options.ledgerEntries;
    const rowsAtEnd = await countRows();
    if (rowsAtEnd < expected) {
      violations.push({
        benchmark: 'footprint',
        problem: `only ${rowsAtEnd} rows left, the live batch has ${expected}`,
      });
    }

    return {
      subscriptions: listed.length,
      ledgerEntriesPerBatch: options.ledgerEntries,
      rss: { baselineMiB: mib(baseline), loadedMiB: mib(loaded), ratio: round(loaded / baseline, 2) },
      store: {
        afterFirstBatchBytes: afterFirst,
        bytesPerLedgerEntry: round(afterFirst / options.ledgerEntries, 1),
        afterUnpurgedBatchBytes: afterUnpurged,
        unpurgedGrowth: round(afterUnpurged / afterFirst, 2),
        afterPurgedBatchBytes: afterPurged,
        plateauRatio: round(afterPurged / afterUnpurged, 2),
        rowsAtEnd,
      },
      writesPerSecond: round(writes / (writingMs / 1000), 0),
      violations,
    };
  } finally {
    await store.close();
    temp.cleanup();
  }
}

function rss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}
