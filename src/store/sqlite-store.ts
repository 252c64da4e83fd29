import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import { type BotStore, storeOver } from './bot-store.js';
import type { LeaseBackend } from './leases.js';
import { escapeLike, likePattern, type Query, sqlLeases } from './sql-backend.js';

/** A store in one SQLite file (`sqlite://path`): the embedded default, one process at a time. */
export function sqliteStore(rawUrl: string, namespace: string, onError: (error: unknown) => void): BotStore {
  const path = rawUrl.replace(/^sqlite:\/\//, '');
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  // busyTimeout: a restarted process may briefly overlap the old one on the same file.
  const adapter = new KeyvSqlite({ uri: `sqlite://${path}`, busyTimeout: 5000 });
  useWriteAheadLog(adapter);
  return storeOver({
    kind: 'sqlite',
    description: `sqlite://${path}`,
    adapter,
    namespace,
    onError,
    leases: sqliteLeases(adapter.query),
    closeAdapter: async () => {
      await adapter.close();
    },
    sweep: async (ns, now) => {
      const condition = `key LIKE ? AND json_extract(value, '$.expires') IS NOT NULL AND json_extract(value, '$.expires') < ?`;
      const [row] = (await adapter.query(`SELECT COUNT(*) AS n FROM keyv WHERE ${condition}`, [
        `${ns}:%`,
        now,
      ])) as {
        n: number;
      }[];
      await adapter.query(`DELETE FROM keyv WHERE ${condition}`, [`${ns}:%`, now]);
      return Number(row?.n ?? 0);
    },
    deleteByPrefix: async (prefix) => {
      const pattern = `${escapeLike(prefix)}%`;
      const [row] = (await adapter.query(`SELECT COUNT(*) AS n FROM keyv WHERE key LIKE ? ESCAPE '\\'`, [
        pattern,
      ])) as { n: number }[];
      await adapter.query(`DELETE FROM keyv WHERE key LIKE ? ESCAPE '\\'`, [pattern]);
      return Number(row?.n ?? 0);
    },
    keysMatching: async (parts) => {
      const rows = (await adapter.query(`SELECT key FROM keyv WHERE key LIKE ? ESCAPE '\\'`, [
        likePattern(parts),
      ])) as { key: string }[];
      return rows.map((row) => row.key);
    },
  });
}

export function sqliteLeases(query: Query): LeaseBackend {
  return sqlLeases(query, () => '?');
}

/**
 * Puts the SQLite file in write-ahead-log mode before any other statement runs. In the default
 * rollback journal every write is a transaction with several fsyncs (17–19 ms each on a loaded
 * machine), and each delivery writes twice, which capped delivery at about 25 per second; in WAL
 * mode a write appends to `<file>-wal` (about 1.4 ms). Measured: docs/adr/014-sqlite-write-ahead-log.md.
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
