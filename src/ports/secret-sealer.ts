/** A secret read back from the store. */
export interface OpenedSecret {
  plaintext: string;
  /**
   * The stored form is not sealed under the current key (sealed under the previous key, or
   * written in plain text before encryption existed): seal it again and write it back.
   */
  stale: boolean;
}

/**
 * Encryption at rest for the secrets the bot keeps in its store (platform tokens). The core
 * implements it (src/store/sealed-values.ts); adapters seal before writing and open after
 * reading, and never see the key.
 */
export interface SecretSealer {
  /** The sealed, storable form of `plaintext` under the current key. */
  seal(plaintext: string): string;
  /**
   * The plaintext of a stored value. Throws a BotError (`store_key_mismatch`,
   * `store_secret_corrupt`) when the value cannot be opened: never garbage.
   */
  open(stored: string): OpenedSecret;
}
