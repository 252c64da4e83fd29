import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isBotError } from '../../src/errors.js';
import { createSecretSealer, keyIdOf } from '../../src/store/sealed-values.js';

const OLD = randomBytes(32);
const NEW = randomBytes(32);

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('sealed secrets', () => {
  it('seals to v1:<key id>:<iv>:<tag>:<ciphertext> and opens back, a fresh IV every time', () => {
    const sealer = createSecretSealer({ current: NEW });
    const first = sealer.seal('xoxb-secret-token');
    const second = sealer.seal('xoxb-secret-token');
    expect(first).toMatch(new RegExp(`^v1:${keyIdOf(NEW)}:[\\w-]{16}:[\\w-]{22}:[\\w-]+$`));
    expect(first).not.toBe(second);
    expect(first).not.toContain('xoxb');
    expect(sealer.open(first)).toEqual({ plaintext: 'xoxb-secret-token', stale: false });
    expect(sealer.open(sealer.seal('مرحبا 👋'))).toEqual({ plaintext: 'مرحبا 👋', stale: false });
    expect(sealer.isCurrent(first)).toBe(true);
  });

  it('derives a stable key id that is not the key', () => {
    expect(keyIdOf(NEW)).toBe(keyIdOf(Buffer.from(NEW)));
    expect(keyIdOf(NEW)).not.toBe(keyIdOf(OLD));
    expect(NEW.toString('hex')).not.toContain(keyIdOf(NEW));
  });

  it('opens a value sealed under the previous key and marks it for re-sealing under the current one', () => {
    const sealedOld = createSecretSealer({ current: OLD }).seal('xoxp-user');
    const rotating = createSecretSealer({ current: NEW, previous: OLD });
    expect(rotating.previousKeyId).toBe(keyIdOf(OLD));
    expect(rotating.isCurrent(sealedOld)).toBe(false);
    expect(rotating.open(sealedOld)).toEqual({ plaintext: 'xoxp-user', stale: true });
    const resealed = rotating.seal(rotating.open(sealedOld).plaintext);
    // Once rotated, the old key is no longer needed.
    expect(createSecretSealer({ current: NEW }).open(resealed)).toEqual({
      plaintext: 'xoxp-user',
      stale: false,
    });
  });

  it('refuses a value sealed under another key with a coded error naming STORE_ENCRYPTION_KEY, before decrypting', () => {
    const sealedOld = createSecretSealer({ current: OLD }).seal('xoxb-secret');
    const error = thrown(() => createSecretSealer({ current: NEW }).open(sealedOld));
    expect(isBotError(error, 'store_key_mismatch')).toBe(true);
    expect(String(error)).toContain('STORE_ENCRYPTION_KEY');
    expect(String(error)).toContain(keyIdOf(OLD));
    expect(String(error)).not.toContain('xoxb');
  });

  it('refuses a tampered or truncated value instead of returning garbage', () => {
    const sealer = createSecretSealer({ current: NEW });
    const sealed = sealer.seal('xoxb-secret-token');
    const parts = sealed.split(':');
    const flipped = Buffer.from(parts[4] ?? '', 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    const tampered = [...parts.slice(0, 4), flipped.toString('base64url')].join(':');
    for (const bad of [
      tampered,
      sealed.slice(0, -2),
      `${parts.slice(0, 3).join(':')}:AAAAAAAAAAAAAAAAAAAAAA:${parts[4]}`,
    ]) {
      expect(
        isBotError(
          thrown(() => sealer.open(bad)),
          'store_secret_corrupt',
        ),
      ).toBe(true);
    }
    expect(
      isBotError(
        thrown(() => sealer.open(`v2:${sealer.keyId}:a:b:c`)),
        'store_secret_corrupt',
      ),
    ).toBe(true);
  });

  it('reads a token written in plain text before encryption as is, and marks it for sealing', () => {
    const sealer = createSecretSealer({ current: NEW });
    expect(sealer.isSealed('xoxb-legacy')).toBe(false);
    expect(sealer.open('xoxb-legacy')).toEqual({ plaintext: 'xoxb-legacy', stale: true });
  });
});
