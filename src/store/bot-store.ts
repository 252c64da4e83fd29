import Keyv, { type KeyvStoreAdapter } from 'keyv';
import { BotError, messageOf } from '../errors.js';
import { withDeadline } from '../ports/index.js';
import type { LeaseBackend } from './leases.js';

export type StoreKind = 'sqlite' | 'redis' | 'postgres';

/** The bot's durable state: a keyv instance plus the few atomic operations keyv lacks. */
export interface BotStore {
  readonly kind: StoreKind;
  /** Where the store lives, with any password masked. */
  readonly description: string;
  readonly keyv: Keyv;
  readonly leases: LeaseBackend;
  /** Round-trips to the backend; throws `store_unavailable` when it does not answer. */
  ping(timeoutMs?: number): Promise<void>;
  /**
   * Deletes expired keys. keyv only drops an expired key when something reads it, and the
   * delivered ledger is never read again, so SQL backends need this to plateau. Redis
   * expires keys itself (returns 0). Resolves with the number of keys removed.
   */
  sweepExpired(now?: number): Promise<number>;
  /**
   * Deletes every key that starts with `prefix` (e.g. everything about one directory, see
   * directory-keys.ts). keyv has no such operation, so each backend does it natively.
   * Resolves with the number of keys removed.
   */
  deleteByPrefix(prefix: string): Promise<number>;
  /**
   * The keys (without the namespace) made of `parts` in order, each followed by any text:
   * `['dir:', ':sent:slack:C1:']` finds every directory's ledger entries for one channel. Parts
   * are literal (no wildcards of their own). Expired keys not yet swept are included: they are
   * still on disk. For finding everything about one workspace (src/workspaces/).
   */
  keysMatching(parts: readonly string[]): Promise<string[]>;
  /**
   * Redis only: where keys live, `flat` (`directory-bot:…`) or `legacy` (the doubled prefix of
   * earlier versions, `directory-bot::directory-bot:…`); see redis-key-layout.ts.
   */
  keyLayout?(): Promise<'flat' | 'legacy'>;
  /**
   * Redis only: renames a legacy layout's keys to flat ones; refuses while an instance holds the
   * poller lease. Resolves with the number of keys renamed.
   */
  migrateKeyLayout?(): Promise<number>;
  close(): Promise<void>;
}

export interface CreateStoreOptions {
  url: string;
  /** Key prefix, so several bots (or tests) can share one server. */
  namespace?: string;
  /** Called for backend errors keyv reports as events (connection loss, …). */
  onError?: (error: unknown) => void;
}

/** What a backend supplies; `storeOver` builds the rest of `BotStore` on it the same way for all three. */
export interface StoreBackend {
  kind: StoreKind;
  description: string;
  /** The keyv store adapter (@keyv/sqlite, @keyv/redis, @keyv/postgres). */
  adapter: unknown;
  namespace: string;
  onError: (error: unknown) => void;
  leases: LeaseBackend;
  closeAdapter: () => Promise<void>;
  /** Deletes expired keys under `namespace`; the number removed. */
  sweep: (namespace: string, now: number) => Promise<number>;
  deleteByPrefix: (namespacedPrefix: string) => Promise<number>;
  keysMatching: (namespacedParts: readonly string[]) => Promise<string[]>;
  keyLayout?: () => Promise<'flat' | 'legacy'>;
  migrateKeyLayout?: () => Promise<number>;
}

/** A `BotStore` on one backend: keyv with our namespace and error policy, plus the backend's native operations. */
export function storeOver(backend: StoreBackend): BotStore {
  const {
    kind,
    description,
    adapter,
    namespace,
    onError,
    leases,
    closeAdapter,
    sweep,
    deleteByPrefix,
    keysMatching,
  } = backend;
  // throwOnErrors: a failed write must reach the caller (the outbox decides what to do),
  // never be swallowed into an `undefined` that looks like "not found".
  const keyv = new Keyv({
    store: adapter as KeyvStoreAdapter,
    namespace,
    throwOnErrors: true,
    useKeyPrefix: true,
  });
  keyv.on('error', onError);
  let closed = false;
  return {
    kind,
    description,
    keyv,
    leases,
    async ping(timeoutMs = 2000) {
      try {
        await withDeadline(keyv.get('__ping__'), timeoutMs);
      } catch (error) {
        throw new BotError('store_unavailable', `The ${kind} store is unreachable: ${messageOf(error)}`, {
          cause: error,
        });
      }
    },
    async sweepExpired(now = Date.now()) {
      const swept = await sweep(namespace, now);
      // Expired leases too (every namespace's: an expired lease is free to all of them), by the
      // wall clock their expiry is written in: `now` may be a test's clock, hours ahead, and would
      // take a lease its holder still renews (two pollers at once).
      await leases.forgetExpired?.(Date.now());
      return swept;
    },
    deleteByPrefix(prefix) {
      // The same `namespace:` prefix keyv puts in front of every key (useKeyPrefix).
      return deleteByPrefix(`${namespace}:${prefix}`);
    },
    async keysMatching([first = '', ...rest]) {
      const keys = await keysMatching([`${namespace}:${first}`, ...rest]);
      return keys.map((key) => key.slice(namespace.length + 1)).sort();
    },
    ...(backend.keyLayout ? { keyLayout: backend.keyLayout } : {}),
    ...(backend.migrateKeyLayout ? { migrateKeyLayout: backend.migrateKeyLayout } : {}),
    async close() {
      if (closed) return;
      closed = true;
      await closeAdapter();
    },
  };
}

/** The URL as logs and `doctor` may show it: any password masked. */
export function mask(url: URL): string {
  const copy = new URL(url);
  if (copy.password) copy.password = '****';
  return copy.toString();
}
