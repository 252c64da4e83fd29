import { storeNamespace } from '../app/sandbox.js';
import type { Config } from '../config/config.js';
import { messageOf } from '../errors.js';
import { createSecretSealer, createStore, surveyStoredSecrets } from '../store/index.js';

export interface KeyCheck {
  status: 'ok' | 'warning' | 'failed';
  detail: string;
}

const ROTATE = 'run "directory-bot store rotate-key"';

/**
 * `doctor`'s store key line: whether STORE_ENCRYPTION_KEY is set, whether the bot's stored
 * secrets open with it, and how many still need `store rotate-key` (sealed under the previous
 * key, or in plain text from before encryption). Names keys by their public id, never the key.
 */
export async function checkStoreKey(config: Config): Promise<KeyCheck> {
  const keys = config.store.encryption;
  const sealer = keys === undefined ? undefined : createSecretSealer(keys);
  const store = createStore({ url: config.store.url, ...storeNamespace(config) });
  try {
    const survey = await surveyStoredSecrets(store.keyv, sealer);
    const plain = `${survey.plainText} installation token(s) stored in plain text`;
    if (sealer === undefined) {
      if (survey.unopenable > 0)
        return {
          status: 'failed',
          detail: `STORE_ENCRYPTION_KEY is not set, but ${survey.unopenable} value(s) in the store are sealed: set the key they were sealed with`,
        };
      if (survey.plainText > 0)
        return {
          status: 'warning',
          detail: `STORE_ENCRYPTION_KEY is not set: ${plain}; set it (openssl rand -base64 32) and ${ROTATE}`,
        };
      return { status: 'ok', detail: 'STORE_ENCRYPTION_KEY is not set; the store holds no token' };
    }
    const opened = `${survey.current} sealed value(s) open with it`;
    const base = `STORE_ENCRYPTION_KEY is set (key id ${sealer.keyId}); ${opened}`;
    if (survey.unopenable > 0)
      return {
        status: 'failed',
        detail: `${base}, ${survey.unopenable} do not (sealed under another key, or altered)`,
      };
    const due = [
      survey.previous > 0 ? `${survey.previous} only with STORE_ENCRYPTION_KEY_PREVIOUS` : '',
      survey.plainText > 0 ? plain : '',
    ].filter((part) => part !== '');
    if (due.length > 0) return { status: 'warning', detail: `${base}, ${due.join(', ')}: ${ROTATE}` };
    return { status: 'ok', detail: base };
  } catch (error) {
    return { status: 'failed', detail: messageOf(error) };
  } finally {
    await store.close().catch(() => {});
  }
}
