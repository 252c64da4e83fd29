/** The durable store: keyv on SQLite, Redis or PostgreSQL, leases, per-directory keys and sealed secrets. */
export type { BotStore } from './bot-store.js';
export { createStore } from './create-store.js';
export {
  ACTIVE_DIRECTORY_KEY,
  type DirectoryKeys,
  directoryIdFor,
  directoryKeys,
  LEGACY_POLLER_LEASE,
  SANDBOX_DIRECTORY_ID,
  UNPREFIXED_KEYS,
} from './directory-keys.js';
export { type LeaseBackend, leaseClaims } from './leases.js';
export { LockedDocument } from './locked-document.js';
export { SIGN_IN_LIMIT_KEYS } from './redis-key-layout.js';
export { createSecretSealer } from './sealed-values.js';
export { resealStoredSecrets, verifyStoreKey } from './secret-keys.js';
export { surveyStoredSecrets } from './secret-survey.js';
