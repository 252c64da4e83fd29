import { storeNamespace } from '../app/sandbox.js';
import { CONFIG_ERROR_EXIT_CODE } from '../config/load-config.js';
import { isBotError, messageOf } from '../errors.js';
import { createSecretSealer, createStore, resealStoredSecrets, verifyStoreKey } from '../store/index.js';
import { loadConfigOrReport } from './cli-config.js';
import { type CliIo, handleHelpOnly } from './io.js';
import type { Subcommand } from './subcommand.js';

const USAGE = `Usage: directory-bot store rotate-key

Re-encrypts every token in the store under STORE_ENCRYPTION_KEY now, opening the ones sealed
under STORE_ENCRYPTION_KEY_PREVIOUS (the running bot also does this as it reads each one), and
encrypts the tokens of installations stored in plain text by a version before encryption.
To rotate: set STORE_ENCRYPTION_KEY_PREVIOUS to the current key and STORE_ENCRYPTION_KEY to
a new one (openssl rand -base64 32), run this, then unset STORE_ENCRYPTION_KEY_PREVIOUS.
Reports how many secrets it re-encrypted. Safe to run again.

  --help, -h   show this help`;

/** `directory-bot store rotate-key`: re-seals every stored secret under the current key. */
export const storeRotateKeyCommand: Subcommand = {
  name: 'store rotate-key',
  summary: 'Re-encrypt every stored token under STORE_ENCRYPTION_KEY now.',
  usage: USAGE,
  async run(argv: string[], io: CliIo) {
    const finished = handleHelpOnly(argv, io, USAGE);
    if (finished !== undefined) return finished;
    const config = loadConfigOrReport(io, 'directory-bot store rotate-key');
    if (typeof config === 'number') return config;
    if (config.store.encryption === undefined) {
      io.stderr('STORE_ENCRYPTION_KEY: required to re-encrypt the store (the key to rotate to)');
      return CONFIG_ERROR_EXIT_CODE;
    }
    const sealer = createSecretSealer(config.store.encryption);
    const store = createStore({ url: config.store.url, ...storeNamespace(config) });
    try {
      const report = await resealStoredSecrets(store.keyv, sealer);
      await verifyStoreKey(store.keyv, sealer);
      io.stdout(
        `Re-encrypted ${report.resealed} secret(s) under key id ${sealer.keyId}; ${report.alreadyCurrent} already were (${report.keysWithSecrets} of ${report.scanned} keys in ${store.description} hold secrets).`,
      );
      if (report.sealedFromPlainText > 0)
        io.stdout(
          `Encrypted ${report.sealedFromPlainText} token(s) stored in plain text before encryption existed.`,
        );
      if (config.store.encryption.previous !== undefined) {
        io.stdout('Nothing in the store needs STORE_ENCRYPTION_KEY_PREVIOUS any more: unset it.');
      }
      return 0;
    } catch (error) {
      if (isBotError(error, 'store_key_mismatch')) {
        io.stderr(messageOf(error));
        return CONFIG_ERROR_EXIT_CODE;
      }
      io.stderr(`Re-encryption failed: ${messageOf(error)}`);
      return 1;
    } finally {
      await store.close();
    }
  },
};
