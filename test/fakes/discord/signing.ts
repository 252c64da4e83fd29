import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';

/** An application's Ed25519 key pair: the public key as the Developer Portal shows it (hex). */
export function discordKeyPair(): { publicHex: string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return { publicHex: der.subarray(-32).toString('hex'), privateKey };
}

/** Discord's interaction signature: Ed25519 over `{timestamp}{raw body}`, hex. */
export function discordSignature(privateKey: KeyObject, timestamp: string, rawBody: string): string {
  return sign(null, Buffer.from(timestamp + rawBody), privateKey).toString('hex');
}

/** Headers Discord sends with a signed interaction, for a body signed at `timestamp` (seconds). */
export function signedInteractionHeaders(
  privateKey: KeyObject,
  rawBody: string,
  timestamp = String(Math.floor(Date.now() / 1000)),
): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-signature-timestamp': timestamp,
    'x-signature-ed25519': discordSignature(privateKey, timestamp, rawBody),
  };
}
