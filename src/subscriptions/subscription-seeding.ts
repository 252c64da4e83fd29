import { randomBytes } from 'node:crypto';
import { type Addressing, withAddressing } from './mentions.js';
import type { Subscription } from './subscription.js';
import {
  idsOf,
  newId,
  signature,
  withBackfill,
  withFormat,
  withOnRemoval,
  withSchedule,
  withThreading,
} from './subscription-identity.js';
import type { SubscriptionSeed } from './subscription-spec.js';

/**
 * The stored list made to match the SUBSCRIPTIONS variable (`SubscriptionRepository.seed`):
 * new entries are added, entries no longer listed are removed, and unchanged ones keep
 * their creation time so a restart does not reset what counts as "new" (a changed `format=`,
 * thread option, `on-removal=`, schedule, `mention=` or webhook name too; of two entries differing only in those the later wins, as with
 * `/directory subscribe`). A route added with `backfill=N` asks for its N most recent items once.
 */
export function seedChange(
  all: readonly Subscription[],
  seeds: readonly SubscriptionSeed[],
  now: number,
): { next: Subscription[]; result: { added: number; removed: number } } {
  const formats = new Map(seeds.map((seed) => [signature(seed), seed.format]));
  const threading = new Map(seeds.map((seed) => [signature(seed), seed.threading]));
  const schedules = new Map(seeds.map((seed) => [signature(seed), seed.schedule]));
  const onRemoval = new Map(seeds.map((seed) => [signature(seed), seed.onRemoval]));
  const addressing = new Map<string, Addressing>(seeds.map((seed) => [signature(seed), seed]));
  const configured = (s: Subscription) =>
    withAddressing(
      withSchedule(
        withOnRemoval(
          withThreading(withFormat(s, formats.get(signature(s))), threading.get(signature(s))),
          onRemoval.get(signature(s)),
        ),
        schedules.get(signature(s)),
      ),
      addressing.get(signature(s)) ?? {},
    );
  const kept = all
    .filter((s) => s.createdBy !== 'env' || formats.has(signature(s)))
    .map((s) => (s.createdBy === 'env' ? configured(s) : s));
  const present = new Set(kept.filter((s) => s.createdBy === 'env').map(signature));
  const next = [...kept];
  const ids = idsOf(kept);
  let added = 0;
  for (const seed of seeds) {
    const key = signature(seed);
    if (present.has(key)) continue;
    present.add(key);
    const id = newId(ids);
    ids.add(id);
    const { backfill: count, ...route } = seed;
    // Only a route added now is backfilled: a restart finds it present and asks for nothing.
    const backfill =
      count === undefined ? undefined : { count, token: randomBytes(6).toString('hex'), at: now };
    next.push(withBackfill(configured({ ...route, id, createdBy: 'env', createdAt: now }), backfill));
    added += 1;
  }
  return { next, result: { added, removed: all.length - kept.length } };
}
