import type Keyv from 'keyv';
import { BotError } from '../errors.js';
import { SLACK_INSTALLATION_KEYS, SLACK_INSTALLATION_SECRETS } from '../ports/index.js';
import type { StoreSealer } from './sealed-values.js';

/**
 * A known plaintext sealed under the store's key at the first start with a key. Opening it at
 * every start tells a wrong STORE_ENCRYPTION_KEY apart at once (a clear error naming the
 * variable), instead of at the first delivery to a workspace.
 */
export const KEY_CHECK_KEY = 'secrets:key-check';
const KEY_CHECK_PLAINTEXT = 'directory-bot store key check';

/**
 * Checks STORE_ENCRYPTION_KEY against the store; throws `store_key_mismatch` when the store's
 * secrets were sealed under another key. Re-seals the check under the current key after a rotation.
 */
export async function verifyStoreKey(
  keyv: Keyv,
  sealer: StoreSealer,
): Promise<'created' | 'current' | 'rotated'> {
  const stored = await keyv.get<string>(KEY_CHECK_KEY);
  if (typeof stored !== 'string') {
    await keyv.set(KEY_CHECK_KEY, sealer.seal(KEY_CHECK_PLAINTEXT));
    return 'created';
  }
  const opened = sealer.open(stored);
  if (opened.plaintext !== KEY_CHECK_PLAINTEXT) {
    throw new BotError(
      'store_secret_corrupt',
      `The store's key check (${KEY_CHECK_KEY}) does not hold what STORE_ENCRYPTION_KEY sealed there`,
    );
  }
  if (!opened.stale) return 'current';
  await keyv.set(KEY_CHECK_KEY, sealer.seal(KEY_CHECK_PLAINTEXT));
  return 'rotated';
}

export interface RotationReport {
  /** Keys read. */
  scanned: number;
  /** Keys that held at least one sealed secret. */
  keysWithSecrets: number;
  /** Sealed secrets re-encrypted under the current key (they were under the previous one). */
  resealed: number;
  /** Sealed secrets already under the current key. */
  alreadyCurrent: number;
  /** Tokens of installations stored before encryption existed, sealed now for the first time. */
  sealedFromPlainText: number;
}

/**
 * `directory-bot store rotate-key`: re-encrypts every sealed secret in the store (in any value,
 * at any depth) under the current key now, instead of on its next read, and seals the tokens of
 * installations written in plain text before encryption existed, so a store from an older
 * version holds no plain token afterwards. A value sealed under an unknown key stops the run
 * with `store_key_mismatch`, before anything else is written.
 */
export async function resealStoredSecrets(keyv: Keyv, sealer: StoreSealer): Promise<RotationReport> {
  const report: RotationReport = {
    scanned: 0,
    keysWithSecrets: 0,
    resealed: 0,
    alreadyCurrent: 0,
    sealedFromPlainText: 0,
  };
  const rewrites: [string, unknown][] = [];
  for await (const [key, value] of storedValues(keyv)) {
    report.scanned += 1;
    const counts = { sealed: 0, stale: 0, plain: 0 };
    const resealed = sealPlainSecrets(key, reseal(value, sealer, counts), sealer, counts);
    if (counts.sealed + counts.plain > 0) report.keysWithSecrets += 1;
    report.alreadyCurrent += counts.sealed - counts.stale;
    report.resealed += counts.stale;
    report.sealedFromPlainText += counts.plain;
    if (counts.stale + counts.plain > 0) rewrites.push([key, resealed]);
  }
  for (const [key, value] of rewrites) {
    const raw = await keyv.getRaw(key);
    const ttl = typeof raw?.expires === 'number' ? Math.max(1, raw.expires - Date.now()) : undefined;
    await keyv.set(key, value, ttl);
  }
  return report;
}

/** A copy of `value` with every sealed string not under the current key sealed again. */
function reseal(value: unknown, sealer: StoreSealer, counts: { sealed: number; stale: number }): unknown {
  if (typeof value === 'string') {
    if (!sealer.isSealed(value)) return value;
    counts.sealed += 1;
    if (sealer.isCurrent(value)) return value;
    const opened = sealer.open(value);
    counts.stale += 1;
    return sealer.seal(opened.plaintext);
  }
  if (Array.isArray(value)) return value.map((item) => reseal(item, sealer, counts));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reseal(v, sealer, counts)]));
  }
  return value;
}

/** An installation's credentials still in plain text (written before encryption), sealed. */
function sealPlainSecrets(
  key: string,
  value: unknown,
  sealer: StoreSealer,
  counts: { plain: number },
): unknown {
  const copy = structuredClone(value);
  for (const [holder, field] of plainInstallationSecrets(key, copy, (s) => sealer.isSealed(s))) {
    holder[field] = sealer.seal(String(holder[field]));
    counts.plain += 1;
  }
  return copy;
}

/**
 * Where the value stored under `key`, if it is a Slack installation, holds a credential in plain
 * text (written before encryption existed): each as the object holding it and the field's name.
 */
export function plainInstallationSecrets(
  key: string,
  value: unknown,
  isSealed: (stored: string) => boolean,
): [Record<string, unknown>, string][] {
  if (!key.startsWith(SLACK_INSTALLATION_KEYS.prefix) || value === null || typeof value !== 'object')
    return [];
  const found: [Record<string, unknown>, string][] = [];
  for (const [name, field] of SLACK_INSTALLATION_SECRETS) {
    const holder = (value as Record<string, unknown>)[name];
    if (holder === null || typeof holder !== 'object') continue;
    const secret = (holder as Record<string, unknown>)[field];
    if (typeof secret === 'string' && !isSealed(secret))
      found.push([holder as Record<string, unknown>, field]);
  }
  return found;
}

/** Every key and value in the store's namespace. */
export function storedValues(keyv: Keyv): AsyncIterable<[string, unknown]> {
  const iterate = keyv.iterator?.bind(keyv);
  if (iterate === undefined) throw new BotError('internal', 'this store cannot list its keys');
  return iterate(undefined) as AsyncIterable<[string, unknown]>;
}
