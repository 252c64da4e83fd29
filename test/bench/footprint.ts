/**
 * Footprint at scale: per store (SQLite, Redis, PostgreSQL), RSS with every subscription
 * indexed and a batch of delivered-ledger entries, the store's size and its plateau under the
 * poller's sweep, and routing time per item with a tenth of the subscriptions vs all of them.
 * Each store is measured in a fresh Node process (footprint-child.ts, `--expose-gc`) so RSS
 * is the bot's, not the harness's or another store's.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { StoreKind } from '../../src/store/bot-store.js';
import type { FootprintOptions, StoreFootprint } from './footprint-measure.js';
import { storeUrl } from './footprint-stores.js';
import type { Violation } from './support.js';
import type { Row } from './table.js';

export type { FootprintOptions } from './footprint-measure.js';

export interface FootprintResult {
  channels: number;
  ledgerEntriesPerBatch: number;
  stores: StoreFootprint[];
  /** Stores not measured: no server configured (BENCH_/TEST_REDIS_URL, BENCH_/TEST_DATABASE_URL) or left out by BENCH_FOOTPRINT_STORES. */
  skipped: StoreKind[];
  violations: Violation[];
}

const KINDS: readonly StoreKind[] = ['sqlite', 'redis', 'postgres'];
/** The goal for the full size (100,000 subscriptions + 1,000,000 delivered). */
const RSS_GOAL_MIB = 300;

export async function benchFootprint(options: FootprintOptions): Promise<FootprintResult> {
  const result: FootprintResult = {
    channels: options.channels,
    ledgerEntriesPerBatch: options.ledgerEntries,
    stores: [],
    skipped: [],
    violations: [],
  };
  for (const kind of KINDS) {
    const only = process.env.BENCH_FOOTPRINT_STORES?.split(',');
    if (storeUrl(kind) === undefined || (only && !only.includes(kind))) {
      result.skipped.push(kind);
      continue;
    }
    // One store failing (a server gone) must not lose the others' numbers.
    try {
      const measured = await inChild(kind, options);
      result.stores.push(measured);
      result.violations.push(...measured.violations);
      console.error(
        `  footprint ${kind}: RSS ${measured.rss.loadedMiB} MiB, plateau ${measured.store.plateauRatio}, routing ${measured.routing.indexedRatio}× (unindexed ${measured.routing.linearRatio}×), batches ${measured.batchSeconds.join('/')} s`,
      );
    } catch (error) {
      result.violations.push({ benchmark: `footprint ${kind}`, problem: String(error) });
    }
  }
  return result;
}

function inChild(kind: StoreKind, options: FootprintOptions): Promise<StoreFootprint> {
  const child = fork(
    fileURLToPath(new URL('./footprint-child.ts', import.meta.url)),
    [JSON.stringify({ kind, options })],
    {
      execArgv: ['--import', import.meta.resolve('tsx'), '--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  return new Promise((resolve, reject) => {
    let result: StoreFootprint | undefined;
    child.on('message', (message) => {
      result = message as StoreFootprint;
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0 && result) resolve(result);
      else reject(new Error(`the ${kind} footprint process exited with ${code} before reporting`));
    });
  });
}

const mib = (bytes: number) => (bytes / 1_048_576).toFixed(1);

export function footprintRows(fp: FootprintResult): Row[] {
  const rows: Row[] = [];
  for (const s of fp.stores) {
    rows.push(
      {
        figure: `footprint ${s.kind}: RSS MiB loaded`,
        value: s.rss.loadedMiB,
        goal: `≤ ${RSS_GOAL_MIB}`,
        detail: `${s.subscriptions} subscriptions in ${fp.channels} ch + ${fp.ledgerEntriesPerBatch} delivered (idle ${s.rss.baselineMiB}, before the bulk batch ${s.rss.beforeBulkMiB}); store ${mib(s.store.afterFirstBatchBytes)} MiB, ${s.store.bytesPerLedgerEntry} B/entry`,
      },
      {
        figure: `footprint ${s.kind}: store after swept batch ÷ before`,
        value: s.store.plateauRatio,
        goal: '≤ 1',
        detail: `${mib(s.store.afterSweptBatchBytes)} MiB; ${s.store.unsweptGrowth}× before the sweep; batches ${s.batchSeconds.join('/')} s`,
      },
    );
  }
  const first = fp.stores[0];
  if (first) {
    const { tenth, full, fullSameItems } = first.routing;
    rows.push({
      figure: 'footprint: routing µs/item, all ÷ a tenth of subs',
      value: first.routing.sameItemsRatio,
      goal: '≈ 1',
      detail: `the same items: ${tenth.indexedMicros} → ${fullSameItems.indexedMicros} µs (${tenth.subscriptions} → ${full.subscriptions} subs, ${full.matchedPerItem} matched); unindexed ${first.routing.linearRatio}×`,
    });
    rows.push({
      figure: 'footprint: routing, items over all channels',
      value: first.routing.indexedRatio,
      goal: '(memory)',
      detail: `${tenth.indexedMicros} → ${full.indexedMicros} µs: items that touch ten times the memory (see "Routing at scale")`,
    });
    rows.push({
      figure: 'footprint: /directory subscriptions ms, all ÷ tenth',
      value: Number((first.channelListMs.full / first.channelListMs.tenth).toFixed(2)),
      goal: '≈ 1',
      detail: fp.stores
        .map((s) => `${s.kind} ${s.channelListMs.tenth} → ${s.channelListMs.full} ms`)
        .join('; '),
    });
  }
  return rows;
}
