import type { LeaseBackend } from './leases.js';

/** What the two SQL backends (SQLite, PostgreSQL) share: the lease upsert and literal LIKE patterns. */

/** A backend's query function (@keyv/sqlite's and @keyv/postgres's `query`). */
export type Query = (sql: string, ...params: unknown[]) => Promise<unknown[]>;

/** SQLite and PostgreSQL share the upsert; only the placeholder style differs. */
export function sqlLeases(query: Query, placeholder: (index: number) => string): LeaseBackend {
  const p = placeholder;
  let ready: Promise<unknown> | undefined;
  const ensureTable = () => {
    ready ??= query(
      `CREATE TABLE IF NOT EXISTS directory_bot_leases (name VARCHAR(255) PRIMARY KEY, owner VARCHAR(255) NOT NULL, expires_at BIGINT NOT NULL)`,
    ).catch((error) => {
      ready = undefined;
      throw error;
    });
    return ready;
  };
  const run = (sql: string, params: unknown[]) => query(sql, params);
  return {
    async acquire(name, owner, ttlMs) {
      await ensureTable();
      const now = Date.now();
      await run(
        `INSERT INTO directory_bot_leases (name, owner, expires_at) VALUES (${p(1)}, ${p(2)}, ${p(3)})
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE directory_bot_leases.owner = excluded.owner OR directory_bot_leases.expires_at < ${p(4)}`,
        [name, owner, now + ttlMs, now],
      );
      const rows = (await run(`SELECT owner FROM directory_bot_leases WHERE name = ${p(1)}`, [name])) as {
        owner: string;
      }[];
      return rows[0]?.owner === owner;
    },
    async release(name, owner) {
      await ensureTable();
      await run(`DELETE FROM directory_bot_leases WHERE name = ${p(1)} AND owner = ${p(2)}`, [name, owner]);
    },
    async holder(name) {
      await ensureTable();
      const rows = (await run(`SELECT owner, expires_at FROM directory_bot_leases WHERE name = ${p(1)}`, [
        name,
      ])) as {
        owner: string;
        expires_at: number | string;
      }[];
      const row = rows[0];
      return row && Number(row.expires_at) > Date.now() ? row.owner : undefined;
    },
    async forgetExpired(now) {
      await ensureTable();
      const [row] = (await run(`SELECT COUNT(*) AS n FROM directory_bot_leases WHERE expires_at < ${p(1)}`, [
        now,
      ])) as { n: number | string }[];
      await run(`DELETE FROM directory_bot_leases WHERE expires_at < ${p(1)}`, [now]);
      return Number(row?.n ?? 0);
    },
  };
}

/** A literal prefix for SQL LIKE … ESCAPE '\': `%`, `_` and `\` match only themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** SQL LIKE for literal `parts` in order, each followed by any text. */
export function likePattern(parts: readonly string[]): string {
  return `${parts.map(escapeLike).join('%')}%`;
}
