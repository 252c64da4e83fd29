import type Keyv from 'keyv';
import { Outbox, type OutboxEntry } from '../delivery/index.js';
import { FEED_NAMES } from '../feeds/feed-names.js';
import { directoryKeys, UNPREFIXED_KEYS } from '../store/index.js';

/** What the one-time upgrade from unprefixed state did; stored so it never runs again. */
export interface UnprefixedStateMigration {
  /** The directory that adopted the earlier version's state, or null when none did. */
  directoryId: string | null;
  /** Epoch ms of the migration. */
  at: number;
  /** Outbox entries moved under the directory's keys. */
  moved: number;
}

/**
 * The one-time upgrade from versions that kept state without directory keys, run by the
 * first live poller after the upgrade (under its lease, once no earlier version holds the
 * old `poller` lease, so nothing else writes the old keys). That state was shared with any
 * sandbox run on the same store, so only what is safe whatever wrote it is adopted:
 * - outbox entries for Slack, Discord or any platform but the console are moved under the
 *   directory's keys: the sandbox only ever queued console messages, so these are real
 *   messages that were acknowledged as queued and must not be lost;
 * - the delivered ledger is not copied but consulted (see DeliveredLedger) until its entries
 *   expire, for the same non-console destinations: it only ever prevents a duplicate;
 * - feed positions and seen-sets are left behind: a sandbox may have moved them past real
 *   ids, so the directory's feeds start from "now".
 * A directory that already has state of its own adopts nothing (it ran after the upgrade
 * already). Either way the outcome is recorded and the migration never runs again.
 */
export async function migrateUnprefixedState(options: {
  keyv: Keyv;
  directoryId: string;
  now: number;
}): Promise<UnprefixedStateMigration> {
  const { keyv, directoryId, now } = options;
  const done = await keyv.get<UnprefixedStateMigration>(UNPREFIXED_KEYS.migrated);
  if (done) return done;

  const keys = directoryKeys(directoryId);
  const own = await keyv.getMany([keys.outboxIndex, ...FEED_NAMES.map(keys.feedState)]);
  const hasState = own.some((value) => value !== undefined && value !== null);
  let record: UnprefixedStateMigration = { directoryId: null, at: now, moved: 0 };
  if (!hasState) {
    const moved = await moveOutbox(keyv, directoryId);
    record = { directoryId, at: now, moved };
  }
  await keyv.set(UNPREFIXED_KEYS.migrated, record);
  return record;
}

async function moveOutbox(keyv: Keyv, directoryId: string): Promise<number> {
  const destinations = (await keyv.get<string[]>(UNPREFIXED_KEYS.outboxIndex)) ?? [];
  const queueKeys = destinations.map(UNPREFIXED_KEYS.outboxQueue);
  const queues = await keyv.getMany<OutboxEntry[]>(queueKeys);
  const real = queues.flatMap((queue) => (queue ?? []).filter((e) => e.destination.platform !== 'console'));
  const outbox = new Outbox({ keyv, directoryId });
  await outbox.load();
  // Durable under the new keys before the old ones go: a crash in between repeats the move,
  // and enqueue ignores what is already queued.
  const moved = await outbox.enqueue(real);
  await keyv.deleteMany([...queueKeys, UNPREFIXED_KEYS.outboxIndex]);
  return moved;
}
