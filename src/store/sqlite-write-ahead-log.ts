import type KeyvSqlite from '@keyv/sqlite';

/**
 * Puts the SQLite file in write-ahead-log mode before any other statement runs. In the default
 * rollback journal every write is a transaction with several fsyncs (17–19 ms each on a loaded
 * machine, docs/benchmarks.md §3), and each delivery writes twice, which capped delivery at about
 * 25 per second; in WAL mode a write appends to `<file>-wal` (about 1.4 ms).
 *
 * Durability: `synchronous=NORMAL`. A commit is in the WAL (in the OS's page cache) before the
 * write resolves, so it survives the process being killed at any instant (SIGKILL, a crash, an
 * OOM kill): the outbox and the delivered ledger are exactly as durable as before against that,
 * which is what ADR 002 relies on (test/engine/sigkill.test.ts). What NORMAL gives up is the last
 * few commits on a power loss or kernel crash (`FULL` would fsync the WAL at every commit); those
 * are lost as a suffix, never out of order, so a feed's cursor is never kept without the items it
 * queued before it, and the worst case is an item posted again. The journal mode is stored in the
 * file; `synchronous` is per connection, and the adapter has one.
 */
export function useWriteAheadLog(adapter: KeyvSqlite): void {
  const query = adapter.query;
  const ready = (async () => {
    await query('PRAGMA journal_mode = WAL');
    await query('PRAGMA synchronous = NORMAL');
    // The log is folded back into the file every 1,000 pages (4 MiB) but keeps the largest size
    // it ever reached: after the hourly sweep deletes many rows in one transaction it would stay
    // that large. Cut it back to 4 MiB whenever it is reset.
    await query('PRAGMA journal_size_limit = 4194304');
  })();
  // Nothing awaits `ready` until the first query: keep its failure from being unhandled.
  // The same failure then reaches every query, and `ping` reports it.
  ready.catch(() => {});
  adapter.query = async (sql: string, ...parameters: unknown[]) => {
    await ready;
    return query(sql, ...parameters);
  };
}
