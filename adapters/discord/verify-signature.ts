import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { BotError } from '../../src/ports/index.js';

/** DER prefix of an Ed25519 SubjectPublicKeyInfo; Discord gives only the 32 raw key bytes. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const HEX = /^[0-9a-f]+$/i;

/**
 * Imports the application's public key (64 hex characters, from the developer portal).
 * Throws a `config_invalid` BotError for anything else, so a typo fails at start-up.
 */
export function importDiscordPublicKey(hex: string): KeyObject {
  if (hex.length !== 64 || !HEX.test(hex)) {
    throw new BotError('config_invalid', 'DISCORD_PUBLIC_KEY must be 64 hex characters (32 bytes)');
  }
  return createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]),
    format: 'der',
    type: 'spki',
  });
}

/**
 * Checks Discord's interaction signature: Ed25519 over `timestamp + rawBody`, signature in
 * `X-Signature-Ed25519` as 128 hex characters. Any missing or malformed part fails closed.
 */
export function verifyDiscordSignature(
  key: KeyObject,
  signatureHex: string | undefined,
  timestamp: string | undefined,
  rawBody: Buffer,
): boolean {
  if (!signatureHex || !timestamp || signatureHex.length !== 128 || !HEX.test(signatureHex)) return false;
  try {
    return verify(
      null,
      Buffer.concat([Buffer.from(timestamp, 'utf8'), rawBody]),
      key,
      Buffer.from(signatureHex, 'hex'),
    );
  } catch {
    return false;
  }
}

/** Discord's signed timestamp may be this far from our clock before the request counts as replayed. */
export const MAX_TIMESTAMP_SKEW_MS = 5 * 60_000;

/**
 * Replay protection: true when `X-Signature-Timestamp` (Unix seconds) is within five minutes of
 * `nowMs`, either way. The signature covers the timestamp, so a captured request can be replayed
 * verbatim only while it is fresh. Anything that is not plain digits fails closed.
 */
export function isFreshTimestamp(timestamp: string | undefined, nowMs: number): boolean {
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return false;
  return Math.abs(Number(timestamp) * 1000 - nowMs) <= MAX_TIMESTAMP_SKEW_MS;
}
