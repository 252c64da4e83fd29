import type Keyv from 'keyv';
import { looksSealed, type StoreSealer } from './sealed-values.js';
import { plainInstallationSecrets, storedValues } from './secret-keys.js';

/** What the store's secrets need, as `directory-bot doctor` reports it. */
export interface SecretSurvey {
  /** Sealed values that open with STORE_ENCRYPTION_KEY. */
  current: number;
  /** Sealed values that open only with STORE_ENCRYPTION_KEY_PREVIOUS: `store rotate-key` moves them. */
  previous: number;
  /** Sealed values no configured key opens (another key, or altered), or any sealed value without a key. */
  unopenable: number;
  /** Installation tokens in plain text, written before encryption: `store rotate-key` seals them. */
  plainText: number;
}

/**
 * Counts the store's secrets by what opens them, opening each (so an altered value counts as
 * unopenable) but writing nothing and keeping no plaintext.
 */
export async function surveyStoredSecrets(
  keyv: Keyv,
  sealer: StoreSealer | undefined,
): Promise<SecretSurvey> {
  const survey: SecretSurvey = { current: 0, previous: 0, unopenable: 0, plainText: 0 };
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (looksSealed(value)) survey[kindOf(value, sealer)] += 1;
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit);
  };
  for await (const [key, value] of storedValues(keyv)) {
    visit(value);
    survey.plainText += plainInstallationSecrets(key, value, looksSealed).length;
  }
  return survey;
}

function kindOf(sealed: string, sealer: StoreSealer | undefined): 'current' | 'previous' | 'unopenable' {
  if (sealer === undefined) return 'unopenable';
  try {
    return sealer.open(sealed).stale ? 'previous' : 'current';
  } catch {
    return 'unopenable';
  }
}
