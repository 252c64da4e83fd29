import { createSlackAdapter } from '../../adapters/slack/index.js';
import type { ChatAdapter, KeyValueStore, SecretSealer } from '../../src/ports/index.js';
import { createSecretSealer, type StoreSealer } from '../../src/store/sealed-values.js';
import { createCapturingLogger } from './capturing-logger.js';

/** Seals installs' tokens as the app does, under a fixed test key. */
export function createTestSealer(key = Buffer.alloc(32, 7)): StoreSealer {
  return createSecretSealer({ current: key });
}

/** A Slack adapter with multi-workspace install, its installs in `installationStore`. */
export function createOAuthSlackAdapter(
  apiUrl: string,
  installationStore: KeyValueStore,
  secrets: SecretSealer,
  signingSecret = 'signing-secret',
): ChatAdapter {
  return createSlackAdapter({
    signingSecret,
    apiUrl,
    logger: createCapturingLogger(),
    oauth: {
      clientId: 'client-id',
      clientSecret: 'client-secret',
      stateSecret: 'state-secret',
      installationStore,
      secrets,
    },
  });
}
