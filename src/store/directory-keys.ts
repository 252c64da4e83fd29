import { createHash } from 'node:crypto';

/**
 * Feed positions, seen-sets, feed health, the outbox and the delivered ledger all describe
 * one directory's data: a comment id, a cursor or "already posted live event 111" means
 * nothing against another directory. Every such key carries the id of the directory it
 * describes, so one store can hold several directories (the sandbox's invented one and a
 * real one, staging and production) without any of them reading another's positions, and
 * pointing the bot at a new directory starts from "now" like a first run: no state, so each
 * feed records what exists and posts only what comes after.
 *
 * Subscriptions, Slack installations and the subscription write lock are not here: they
 * describe channels and workspaces, which stay the same whichever directory feeds them.
 */

/** The directory id of the sandbox's embedded emulator (its URL has a new port every run). */
export const SANDBOX_DIRECTORY_ID = 'sandbox';

/**
 * A short, stable id for the directory at `baseUrl`: a hash of its normalised origin and
 * path, so `https://Directory.example.com/` and `https://directory.example.com` are the same
 * directory and `…/staging` is another. Query, fragment and credentials are ignored.
 */
export function directoryIdFor(baseUrl: string): string {
  const url = new URL(baseUrl);
  // URL already lower-cases the scheme and host and drops a default port.
  const path = url.pathname.replace(/\/+$/, '');
  return createHash('sha256').update(`${url.origin}${path}`).digest('hex').slice(0, 12);
}

/** Every store key that belongs to one directory, built in one place. */
export function directoryKeys(directoryId: string) {
  const prefix = `dir:${directoryId}:`;
  return {
    /** Starts every key below; deleting by it forgets everything about the directory. */
    prefix,
    feedState: (feed: string) => `${prefix}feed-state:${feed}`,
    feedHealth: `${prefix}feed-health`,
    outboxIndex: `${prefix}outbox:destinations`,
    outboxQueue: (destinationKey: string) => `${prefix}outbox:queue:${destinationKey}`,
    delivered: (destinationKey: string, itemKey: string) => `${prefix}sent:${destinationKey}:${itemKey}`,
    /**
     * What a posted message shows and when it was last edited, beside its ledger entry (so found
     * with it) but its own key: edits write it while a thread start writes the entry.
     */
    shown: (destinationKey: string, itemKey: string) => `${prefix}sent:${destinationKey}:${itemKey}#shown`,
    /**
     * One page of a destination's delivery log (src/delivery/delivery-log.ts): `now` is the page
     * being written, `0`…`6` the pages before it, so a channel keeps its newest ~200 records.
     */
    deliveryLog: (destinationKey: string, page: string) => `${prefix}log:${destinationKey}:${page}`,
    /** The items a subscribe chose for its backfill, until the poller queues them (src/engine/backfill-runner.ts). */
    backfill: (token: string) => `${prefix}backfill:${token}`,
    /** Which subscriptions have held items or schedule state (src/held-items/held-item-store.ts). */
    heldIndex: `${prefix}held:subscriptions`,
    /** One subscription's held items and schedule state: what it holds names this directory's items. */
    held: (subscriptionId: string) => `${prefix}held:sub:${subscriptionId}`,
    /** Its latest digest or summary, every part (`/directory digest`): apart, so ticks never read it. */
    heldLatest: (subscriptionId: string) => `${prefix}held:sub:${subscriptionId}:latest`,
    /**
     * One poller per directory per store: the lease guards this directory's positions and
     * outbox. Bots on one store that read different directories do not block each other
     * (they should still use separate stores: see src/engine/active-directory.ts).
     */
    pollerLease: `poller:${directoryId}`,
  };
}

export type DirectoryKeys = ReturnType<typeof directoryKeys>;

/**
 * The one poller lease of versions before directory keys. An instance of such a version
 * (the old dyno during a deploy's overlap) polls under it; newer ones defer to it.
 */
export const LEGACY_POLLER_LEASE = 'poller';

/**
 * The keys of versions before directory keys, read once by the upgrade
 * (src/engine/unprefixed-state.ts), and the record that it ran.
 */
export const UNPREFIXED_KEYS = {
  outboxIndex: 'outbox:destinations',
  outboxQueue: (destinationKey: string) => `outbox:queue:${destinationKey}`,
  delivered: (destinationKey: string, itemKey: string) => `sent:${destinationKey}:${itemKey}`,
  migrated: 'unprefixed-state-migrated',
};

/**
 * The directory the store's bot last polled, one per store namespace: a start against
 * another one is a change of directory and starts from "now" (src/engine/active-directory.ts).
 */
export const ACTIVE_DIRECTORY_KEY = 'active-directory';
