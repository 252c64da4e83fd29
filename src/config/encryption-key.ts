/**
 * STORE_ENCRYPTION_KEY's two accepted spellings of 32 random bytes: base64 (44 characters,
 * `openssl rand -base64 32`) and hex (64 characters, what Heroku's `"generator": "secret"` in
 * app.json produces). Anything else is undefined, so validation can say what it expects.
 */
export function decodeEncryptionKey(text: string): Buffer | undefined {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/]{43}=$/.test(value)) {
    const bytes = Buffer.from(value, 'base64');
    return bytes.length === 32 ? bytes : undefined;
  }
  return undefined;
}

export const ENCRYPTION_KEY_EXPECTED =
  '32 random bytes as 44 base64 characters (openssl rand -base64 32) or 64 hex characters';
