import KeyvPostgres from '@keyv/postgres';
import { type BotStore, mask, storeOver } from './bot-store.js';
import type { LeaseBackend } from './leases.js';
import { escapeLike, likePattern, type Query, sqlLeases } from './sql-backend.js';

/** A store in PostgreSQL (`postgres://`, Heroku Postgres): shared by every instance. */
export function postgresStore(url: URL, namespace: string, onError: (error: unknown) => void): BotStore {
  const sslMode = url.searchParams.get('sslmode');
  // Heroku Postgres requires SSL with a certificate that does not chain to a public CA.
  const ssl =
    sslMode && sslMode !== 'disable' ? { rejectUnauthorized: sslMode === 'verify-full' } : undefined;
  const connectionUrl = new URL(url);
  connectionUrl.searchParams.delete('sslmode');
  const adapter = new KeyvPostgres({
    uri: connectionUrl.toString(),
    ...(ssl ? { ssl } : {}),
    table: 'directory_bot_kv',
    keySize: 512,
    connectionTimeoutMillis: 5000,
  });
  openPostgresStores += 1;
  return storeOver({
    kind: 'postgres',
    description: mask(url),
    adapter,
    namespace,
    onError,
    leases: postgresLeases(adapter.query),
    // @keyv/postgres keeps one connection pool per process; end it only with the last store.
    closeAdapter: async () => {
      openPostgresStores -= 1;
      if (openPostgresStores === 0) await adapter.disconnect();
    },
    sweep: async (ns, now) => {
      const rows = (await adapter.query(
        `DELETE FROM directory_bot_kv WHERE key LIKE $1 AND value LIKE '%"expires":%' AND (value::jsonb->>'expires')::bigint < $2 RETURNING key`,
        [`${ns}:%`, now],
      )) as unknown[];
      return rows.length;
    },
    deleteByPrefix: async (prefix) => {
      const rows = (await adapter.query(
        `DELETE FROM directory_bot_kv WHERE key LIKE $1 ESCAPE '\\' RETURNING key`,
        [`${escapeLike(prefix)}%`],
      )) as unknown[];
      return rows.length;
    },
    keysMatching: async (parts) => {
      const rows = (await adapter.query(`SELECT key FROM directory_bot_kv WHERE key LIKE $1 ESCAPE '\\'`, [
        likePattern(parts),
      ])) as { key: string }[];
      return rows.map((row) => row.key);
    },
  });
}

/** @keyv/postgres keeps one connection pool per process: how many stores use it. */
let openPostgresStores = 0;

export function postgresLeases(query: Query): LeaseBackend {
  return sqlLeases(query, (index) => `$${index}`);
}
