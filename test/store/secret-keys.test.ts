import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isBotError } from '../../src/errors.js';
import { createStore } from '../../src/store/create-store.js';
import { createSecretSealer } from '../../src/store/sealed-values.js';
import { KEY_CHECK_KEY, resealStoredSecrets, verifyStoreKey } from '../../src/store/secret-keys.js';
import { makeTempDir } from '../support/temp-dir.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());
const OLD = randomBytes(32);
const NEW = randomBytes(32);

function openStore() {
  return createStore({ url: `sqlite://${join(temp.path, `${randomUUID()}.sqlite`)}` });
}

describe('the store key check', () => {
  it('is created at the first start, passes with the same key, and stops a wrong key with a clear error', async () => {
    const store = openStore();
    try {
      expect(await verifyStoreKey(store.keyv, createSecretSealer({ current: OLD }))).toBe('created');
      expect(await verifyStoreKey(store.keyv, createSecretSealer({ current: OLD }))).toBe('current');
      const error = await verifyStoreKey(store.keyv, createSecretSealer({ current: NEW })).catch(
        (e: unknown) => e,
      );
      expect(isBotError(error, 'store_key_mismatch')).toBe(true);
      expect(String(error)).toMatch(/STORE_ENCRYPTION_KEY does not match the store/);
    } finally {
      await store.close();
    }
  });

  it('moves to the new key when the old one is given as STORE_ENCRYPTION_KEY_PREVIOUS', async () => {
    const store = openStore();
    try {
      await verifyStoreKey(store.keyv, createSecretSealer({ current: OLD }));
      expect(await verifyStoreKey(store.keyv, createSecretSealer({ current: NEW, previous: OLD }))).toBe(
        'rotated',
      );
      expect(await verifyStoreKey(store.keyv, createSecretSealer({ current: NEW }))).toBe('current');
    } finally {
      await store.close();
    }
  });
});

describe('re-sealing everything (store rotate-key)', () => {
  it('re-encrypts every sealed secret under the current key, at any depth, and leaves the rest alone', async () => {
    const store = openStore();
    const old = createSecretSealer({ current: OLD });
    try {
      await store.keyv.set('slack:installation:team:T1', {
        team: { id: 'T1' },
        bot: { token: old.seal('xoxb-1') },
      });
      await store.keyv.set('slack:installation:team:T2', {
        bot: { token: old.seal('xoxb-2') },
        user: { token: old.seal('xoxp-2') },
      });
      await store.keyv.set('subscriptions', [{ channel: 'C1' }]);
      await store.keyv.set('sent:ledger', 1, 60_000);
      await verifyStoreKey(store.keyv, old);

      const rotating = createSecretSealer({ current: NEW, previous: OLD });
      expect(await resealStoredSecrets(store.keyv, rotating)).toEqual({
        scanned: 5,
        keysWithSecrets: 3,
        resealed: 4,
        alreadyCurrent: 0,
        sealedFromPlainText: 0,
      });
      expect(await resealStoredSecrets(store.keyv, rotating)).toMatchObject({
        resealed: 0,
        alreadyCurrent: 4,
      });

      const onlyNew = createSecretSealer({ current: NEW });
      const t2 = await store.keyv.get<{ bot: { token: string }; user: { token: string } }>(
        'slack:installation:team:T2',
      );
      expect(onlyNew.open(t2?.user.token ?? '').plaintext).toBe('xoxp-2');
      expect(await verifyStoreKey(store.keyv, onlyNew)).toBe('current');
      expect(await store.keyv.get('subscriptions')).toEqual([{ channel: 'C1' }]);
      const ledger = await store.keyv.getRaw('sent:ledger');
      expect(ledger?.expires).toBeTypeOf('number');
      expect(await store.keyv.get(KEY_CHECK_KEY)).toMatch(new RegExp(`^v1:${onlyNew.keyId}:`));
    } finally {
      await store.close();
    }
  });

  it('stops at a secret sealed under an unknown key, before writing anything', async () => {
    const store = openStore();
    try {
      const stranger = createSecretSealer({ current: randomBytes(32) });
      await store.keyv.set('a', { token: createSecretSealer({ current: OLD }).seal('xoxb-a') });
      await store.keyv.set('b', { token: stranger.seal('xoxb-b') });
      const error = await resealStoredSecrets(
        store.keyv,
        createSecretSealer({ current: NEW, previous: OLD }),
      ).catch((e: unknown) => e);
      expect(isBotError(error, 'store_key_mismatch')).toBe(true);
      expect(await store.keyv.get<{ token: string }>('a')).toEqual({ token: expect.stringMatching(/^v1:/) });
      expect(
        createSecretSealer({ current: OLD }).open((await store.keyv.get<{ token: string }>('a'))?.token ?? '')
          .plaintext,
      ).toBe('xoxb-a');
    } finally {
      await store.close();
    }
  });
});
