import { join } from 'node:path';
import { createStore } from '../../src/store/create-store.js';
import type { Subscription } from '../../src/subscriptions/subscription.js';
import {
  SUBSCRIPTIONS_KEY,
  SUBSCRIPTIONS_VERSION_KEY,
} from '../../src/subscriptions/subscription-repository.js';
import { RecordingAdapter } from '../support/recording-adapter.js';
import { scheduleWorld } from '../support/schedule-harness.js';
import { makeTempDir } from '../support/temp-dir.js';
import { percentile, round, type Violation, waitFor } from './support.js';
import type { Row } from './table.js';

export interface DigestBenchOptions {
  /** Subscriptions with an hourly digest, all due at the same instant. */
  subscriptions: number;
  /** Digest slots run one after another; the first warms up, the rest are the steady state. */
  slots: number;
  /** Items found for every subscription before each slot (over 10: a digest of several parts). */
  itemsPerSlot: number;
}

export interface DigestBenchResult {
  subscriptions: number;
  slots: number;
  /** Send time − scheduled time over the steady-state slots, ms (send: the platform got it). */
  latenessMs: { p50: number; p95: number; max: number };
  /** When the last digest of a slot was queued, after the slot (ms): the runner's share, the rest is delivery. */
  lastQueuedMs: number;
  digests: number;
  /** Parts of each digest (one message in the channel, the rest replies in its thread). */
  partsPerDigest: number;
  /** Channels that got more than one top-level message for one slot (issue 29: must be 0). */
  extraTopLevel: number;
  lost: number;
  duplicates: number;
  /** Directory requests the digests cost: the runner has no directory client (digests are made of held items). */
  extraDirectoryRequests: number;
  violations: Violation[];
}

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'America/Sao_Paulo'];
const HOUR = 3_600_000;

/**
 * Digest punctuality (issue 14): many subscriptions whose hourly digests fall due at the same
 * instant, on the real held-items store, schedule runner, outbox and dispatcher over SQLite,
 * timed by its own timer. The clock is the system clock shifted to 3 s before each slot, so a
 * slot needs no hour of waiting; everything after the shift runs in real time.
 */
export async function benchDigest(options: DigestBenchOptions): Promise<DigestBenchResult> {
  const temp = makeTempDir();
  const store = createStore({ url: `sqlite://${join(temp.path, 'digest.sqlite')}`, namespace: 'bench' });
  let offset = 0;
  const clock = { now: () => Date.now() + offset };
  const adapter = new RecordingAdapter();
  // As Slack and Discord: a digest's later parts go in its first part's thread (issue 29).
  adapter.repliesInThreads = true;
  const w = scheduleWorld(clock, store.keyv, adapter);
  // The harness's digest writes one part per 10 items.
  const partsPerDigest = Math.max(1, Math.ceil(options.itemsPerSlot / 10));
  const violations: Violation[] = [];
  const lateness: number[] = [];
  const queuedBy: number[] = [];
  let digests = 0;
  let lost = 0;
  let duplicates = 0;
  let extraTopLevel = 0;
  try {
    const subscriptions: Subscription[] = Array.from({ length: options.subscriptions }, (_, i) => ({
      id: `d${i}`,
      platform: adapter.platform,
      channelId: `C${i}`,
      feed: 'posts',
      filters: {},
      schedule: { digest: { every: 'hourly' }, timeZone: ZONES[i % ZONES.length]! },
      createdBy: 'bench',
      createdAt: 0,
    }));
    await store.keyv.set(SUBSCRIPTIONS_KEY, subscriptions);
    await store.keyv.set(SUBSCRIPTIONS_VERSION_KEY, 'bench');
    await w.begin();
    let item = 0;
    for (let slot = 0; slot < options.slots; slot += 1) {
      const slotAt = Math.ceil((clock.now() + 4_000) / HOUR) * HOUR;
      offset = slotAt - 3_000 - Date.now();
      const before = adapter.deliveries.length;
      const ids = Array.from({ length: options.itemsPerSlot }, () => `i${item++}`);
      await w.poll(...ids);
      if (slot === 0) w.runner.start();
      else w.runner.wake();
      const stamp = new Date(slotAt).toISOString();
      const mine = () => adapter.deliveries.slice(before).filter((d) => d.idempotencyKey.includes(stamp));
      const expected = options.subscriptions * partsPerDigest;
      await waitFor(() => mine().length >= expected, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Every part of every digest once (its key names channel, slot and part), and one of them
      // per channel top-level: the digest's one message in the channel.
      const parts = new Map<string, number>();
      for (const d of mine()) parts.set(d.idempotencyKey, (parts.get(d.idempotencyKey) ?? 0) + 1);
      lost += expected - parts.size;
      duplicates += [...parts.values()].reduce((sum, n) => sum + n - 1, 0);
      const topLevel = new Map<string, number>();
      for (const d of mine().filter((d) => d.thread === undefined))
        topLevel.set(d.channelId, (topLevel.get(d.channelId) ?? 0) + 1);
      extraTopLevel += [...topLevel.values()].reduce((sum, n) => sum + n - 1, 0);
      lost += options.subscriptions - topLevel.size;
      const heads = mine().filter((d) => d.thread === undefined);
      digests += heads.length;
      if (slot > 0) {
        // A digest is on time when its one message in the channel is.
        for (const d of heads) lateness.push(d.at + offset - slotAt);
        queuedBy.push(w.lastQueuedAt() - slotAt);
      }
    }
    if (lost > 0) violations.push({ benchmark: 'digest', problem: `${lost} digests lost` });
    if (duplicates > 0)
      violations.push({ benchmark: 'digest', problem: `${duplicates} digest parts posted twice` });
    if (extraTopLevel > 0)
      violations.push({ benchmark: 'digest', problem: `${extraTopLevel} extra top-level digest messages` });
  } finally {
    await w.runner.stop();
    await w.stop();
    await store.close();
    temp.cleanup();
  }
  return {
    subscriptions: options.subscriptions,
    slots: options.slots,
    latenessMs: {
      p50: round(percentile(lateness, 50), 1),
      p95: round(percentile(lateness, 95), 1),
      max: round(Math.max(...lateness), 1),
    },
    digests,
    partsPerDigest,
    extraTopLevel,
    lost,
    duplicates,
    lastQueuedMs: round(Math.max(...queuedBy), 1),
    extraDirectoryRequests: 0,
    violations,
  };
}

export function digestRows(d: DigestBenchResult): Row[] {
  return [
    {
      figure: 'digest punctuality p95 (s late)',
      value: round(d.latenessMs.p95 / 1000, 2),
      goal: '≤ 5',
      detail: `p50 ${d.latenessMs.p50} ms, max ${d.latenessMs.max} ms (all queued by ${d.lastQueuedMs} ms); ${d.subscriptions} hourly digests due at once × ${d.slots - 1} steady slots`,
    },
    {
      figure: 'digests lost / posted twice',
      value: d.lost + d.duplicates + d.extraTopLevel,
      goal: '0',
      detail: `${d.lost} lost, ${d.duplicates} twice, of ${d.digests} digests of ${d.partsPerDigest} parts each (${d.extraTopLevel} with more than one message in the channel); ${d.extraDirectoryRequests} directory requests (made of held items)`,
    },
  ];
}
