import { storeNamespace } from '../app/sandbox.js';
import { messageOf } from '../errors.js';
import { createStore } from '../store/index.js';
import { loadConfigOrReport } from './cli-config.js';
import { type CliIo, handleHelpOnly } from './io.js';
import type { Subcommand } from './subcommand.js';

const USAGE = `Usage: directory-bot store migrate-keys

Redis only. Versions before this one wrote every key with the namespace twice
(directory-bot::directory-bot:subscriptions); a store they wrote is still read and written that
way, so old and new instances of a deploy share it. This renames those keys to the flat form
(directory-bot:subscriptions), keeping every value and expiry, and marks the store migrated.
Stop every instance of the bot first (it refuses while one holds the poller lease), run this
with the bot's configuration (REDIS_URL or STORE_URL), then start the bot again. Nothing is lost
either way; safe to run again, also after an interruption.

  --help, -h   show this help`;

/** `directory-bot store migrate-keys`: moves a Redis store's keys to the flat layout. */
export const storeMigrateKeysCommand: Subcommand = {
  name: 'store migrate-keys',
  summary: "Rename a Redis store's doubled-prefix keys (earlier versions) to the flat form.",
  usage: USAGE,
  async run(argv: string[], io: CliIo) {
    const finished = handleHelpOnly(argv, io, USAGE);
    if (finished !== undefined) return finished;
    const config = loadConfigOrReport(io, 'directory-bot store migrate-keys');
    if (typeof config === 'number') return config;
    const store = createStore({ url: config.store.url, ...storeNamespace(config) });
    try {
      if (store.migrateKeyLayout === undefined) {
        io.stdout(`Nothing to migrate: only Redis stores had the doubled prefix (${store.description}).`);
        return 0;
      }
      const renamed = await store.migrateKeyLayout();
      io.stdout(
        renamed === 0
          ? `Nothing to migrate: the keys in ${store.description} are flat.`
          : `Renamed ${renamed} key(s) in ${store.description} to the flat layout; start the bot again.`,
      );
      return 0;
    } catch (error) {
      io.stderr(`Migration failed: ${messageOf(error)}`);
      return 1;
    } finally {
      await store.close();
    }
  },
};
