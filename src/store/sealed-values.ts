import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { BotError } from '../errors.js';
import type { OpenedSecret, SecretSealer } from '../ports/index.js';

/** STORE_ENCRYPTION_KEY and, while rotating, STORE_ENCRYPTION_KEY_PREVIOUS: 32 bytes each. */
export interface EncryptionKeys {
  current: Buffer;
  previous?: Buffer | undefined;
}

/** The core's SecretSealer, plus what start-up checks and `store rotate-key` need to know. */
export interface StoreSealer extends SecretSealer {
  /** The current key's id, as written into every value it seals. */
  readonly keyId: string;
  readonly previousKeyId: string | undefined;
  /** Whether `stored` is a sealed value (of any key); plain text and other strings are not. */
  isSealed(stored: string): boolean;
  /** Whether `stored` is sealed under the current key, so nothing needs rewriting. */
  isCurrent(stored: string): boolean;
}

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/**
 * `v1:<key id>:<iv>:<tag>:<ciphertext>`, base64url parts. The version lets a later format
 * coexist; the key id (derived from the key, not secret) says which key sealed a value, so a
 * wrong key is reported as such before any decryption is tried.
 */
const SEALED = /^(v\d+):([0-9a-f]{16}):([A-Za-z0-9_-]*):([A-Za-z0-9_-]*):([A-Za-z0-9_-]*)$/;
const LOOKS_SEALED = /^v\d+:[0-9a-f]{16}:/;

/** Whether a stored string is a sealed value (under any key), without needing a key. */
export function looksSealed(stored: string): boolean {
  return LOOKS_SEALED.test(stored);
}

/** A short public fingerprint of a key: an HMAC of a fixed label, so it reveals nothing of the key. */
export function keyIdOf(key: Buffer): string {
  return createHmac('sha256', key).update('directory-bot store key id').digest('hex').slice(0, 16);
}

/** AES-256-GCM under the current key; opens values sealed under the current or previous key. */
export function createSecretSealer(keys: EncryptionKeys): StoreSealer {
  for (const key of [keys.current, keys.previous]) {
    if (key !== undefined && key.length !== 32) throw new Error('store encryption keys are 32 bytes');
  }
  const keyId = keyIdOf(keys.current);
  const previousKeyId = keys.previous === undefined ? undefined : keyIdOf(keys.previous);
  const keysById = new Map<string, Buffer>([[keyId, keys.current]]);
  if (keys.previous !== undefined && previousKeyId !== undefined) keysById.set(previousKeyId, keys.previous);

  return {
    keyId,
    previousKeyId,
    isSealed: (stored) => LOOKS_SEALED.test(stored),
    isCurrent: (stored) => stored.startsWith(`${VERSION}:${keyId}:`),
    seal(plaintext: string): string {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, keys.current, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(`${VERSION}:${keyId}`));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'));
      return [VERSION, keyId, ...parts].join(':');
    },
    open(stored: string): OpenedSecret {
      // Written before encryption was configured: readable as is, and due for sealing.
      if (!LOOKS_SEALED.test(stored)) return { plaintext: stored, stale: true };
      const match = SEALED.exec(stored);
      const [, version, id = '', iv = '', tag = '', ciphertext = ''] = match ?? [];
      if (match === null || version !== VERSION) {
        throw new BotError(
          'store_secret_corrupt',
          `A sealed secret in the store is malformed (${match === null ? 'not v1:<key id>:<iv>:<tag>:<ciphertext>' : `unknown format ${version}`}); it cannot be opened with STORE_ENCRYPTION_KEY`,
        );
      }
      const key = keysById.get(id);
      if (key === undefined) throw keyMismatch(id, keyId, previousKeyId);
      try {
        const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'), {
          authTagLength: TAG_BYTES,
        });
        decipher.setAAD(Buffer.from(`${VERSION}:${id}`));
        decipher.setAuthTag(Buffer.from(tag, 'base64url'));
        const plaintext = Buffer.concat([
          decipher.update(Buffer.from(ciphertext, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
        return { plaintext, stale: id !== keyId };
      } catch (error) {
        throw new BotError(
          'store_secret_corrupt',
          `A secret sealed under STORE_ENCRYPTION_KEY (key id ${id}) failed authentication: it was altered or truncated in the store`,
          { cause: error },
        );
      }
    },
  };
}

function keyMismatch(found: string, current: string, previous: string | undefined): BotError {
  const ours =
    previous === undefined
      ? `this key's id is ${current}`
      : `these keys' ids are ${current} and ${previous} (STORE_ENCRYPTION_KEY_PREVIOUS)`;
  return new BotError(
    'store_key_mismatch',
    `STORE_ENCRYPTION_KEY does not match the store: its secrets were sealed under key id ${found}, ${ours}. Set STORE_ENCRYPTION_KEY to the key they were sealed with (or that key as STORE_ENCRYPTION_KEY_PREVIOUS to rotate to a new one)`,
    { details: { variable: 'STORE_ENCRYPTION_KEY', sealedKeyId: found, keyId: current } },
  );
}
