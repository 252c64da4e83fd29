import { Outbox } from '../delivery/index.js';
import type { BotStore } from '../store/index.js';
import { ACTIVE_DIRECTORY_KEY, directoryKeys } from '../store/index.js';

/** A return to a directory this store's bot had left: what was dropped to start from "now". */
export interface DirectoryReturn {
  /** The directory the bot read before this start. */
  previous: string;
  /** Messages that were still queued for this directory when it was left. */
  droppedMessages: number;
}

/**
 * Changing directory starts from "now", like a first run, also when the directory was read
 * before: A → B → A must not resume A's positions from when it was left (a flood of what
 * happened meanwhile) nor post its outbox (messages about then). The store remembers the
 * directory its bot last polled (one marker per store namespace); when the directory taking
 * the poller lease is another, its feed positions, seen-sets, feed health and outbox are
 * forgotten. Its delivered ledger is kept: it only prevents duplicates, such as a "starting
 * soon" reminder sent before the bot left. Run under the directory's poller lease.
 *
 * One marker per namespace means bots on one store and namespace that read different
 * directories at the same time would each take the other's start for a change; such bots
 * also share their subscriptions, so they belong in separate stores or namespaces anyway.
 */
export async function startFromNowAfterDirectoryChange(
  store: BotStore,
  directoryId: string,
): Promise<DirectoryReturn | undefined> {
  const previous = await store.keyv.get<string>(ACTIVE_DIRECTORY_KEY);
  let result: DirectoryReturn | undefined;
  if (previous !== undefined && previous !== directoryId) {
    const keys = directoryKeys(directoryId);
    const outbox = new Outbox({ keyv: store.keyv, directoryId });
    const droppedMessages = await outbox.load();
    await store.deleteByPrefix(keys.feedState(''));
    await store.deleteByPrefix(keys.feedHealth);
    await store.keyv.delete(keys.directoryReport);
    await store.deleteByPrefix(keys.outboxQueue(''));
    await store.keyv.delete(keys.outboxIndex);
    result = { previous, droppedMessages };
  }
  await store.keyv.set(ACTIVE_DIRECTORY_KEY, directoryId);
  return result;
}
