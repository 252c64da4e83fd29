import type { Outbox, OutboxEntry } from '../delivery/index.js';

/**
 * `outbox.enqueue` as a group commit: entries arriving while a write is under way go out
 * together in the next one. Many channels' digests fall due at one instant (09:00); queued one
 * by one, each would rewrite the outbox's destination index, and the last channel would wait
 * for all the others. Each caller still resolves only once its own entries are durable.
 */
export function groupedEnqueue(
  outbox: Pick<Outbox, 'enqueue'>,
): (entries: readonly OutboxEntry[]) => Promise<void> {
  let batch: OutboxEntry[] = [];
  let waiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  let writing = false;

  async function drain(): Promise<void> {
    writing = true;
    while (waiters.length > 0) {
      const entries = batch;
      const told = waiters;
      batch = [];
      waiters = [];
      try {
        await outbox.enqueue(entries);
        for (const waiter of told) waiter.resolve();
      } catch (error) {
        for (const waiter of told) waiter.reject(error);
      }
    }
    writing = false;
  }

  return (entries) =>
    new Promise<void>((resolve, reject) => {
      batch.push(...entries);
      waiters.push({ resolve, reject });
      if (!writing) void drain();
    });
}
