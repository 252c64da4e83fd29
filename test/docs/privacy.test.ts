import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPLAY_KEY_PREFIX } from '../../adapters/slack/replay-guard.js';
import { SLACK_INSTALLATION_KEYS } from '../../src/ports/installation-keys.js';
import {
  ACTIVE_DIRECTORY_KEY,
  directoryKeys,
  LEGACY_POLLER_LEASE,
  UNPREFIXED_KEYS,
} from '../../src/store/directory-keys.js';
import { SIGN_IN_LIMIT_KEYS } from '../../src/store/redis-key-layout.js';
import { KEY_CHECK_KEY } from '../../src/store/secret-keys.js';
import {
  SUBSCRIPTIONS_KEY,
  SUBSCRIPTIONS_VERSION_KEY,
  SUBSCRIPTIONS_WRITE_LOCK,
} from '../../src/subscriptions/subscription-repository.js';
import { WEBHOOKS_KEY } from '../../src/webhooks/index.js';

const DOC = readFileSync(join(import.meta.dirname, '../../docs/privacy.md'), 'utf8');
/** Stands for any argument of a key-building function; the family is the text before it. */
const ARG = '\u0000';

/** The fixed text of a key family: a constant as is, a builder's key up to its first argument. */
function family(key: string | ((...args: string[]) => string)): string {
  const text = typeof key === 'string' ? key : key(ARG, ARG);
  return text.split(ARG)[0] ?? '';
}

/** Every key family the store code uses, from the code's own constants and builders. */
function keyFamilies(): string[] {
  const perDirectory = Object.values(directoryKeys('<directory>')).map(family);
  return [
    ...perDirectory,
    ...Object.values(UNPREFIXED_KEYS).map(family),
    ...Object.values(SLACK_INSTALLATION_KEYS).map(family),
    LEGACY_POLLER_LEASE,
    ACTIVE_DIRECTORY_KEY,
    SUBSCRIPTIONS_KEY,
    SUBSCRIPTIONS_VERSION_KEY,
    SUBSCRIPTIONS_WRITE_LOCK,
    KEY_CHECK_KEY,
    REPLAY_KEY_PREFIX,
    WEBHOOKS_KEY,
    `${WEBHOOKS_KEY}-write`,
    SIGN_IN_LIMIT_KEYS,
  ];
}

describe('docs/privacy.md', () => {
  it('names every key family the store code uses, in a code span', () => {
    const spans = [...DOC.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
    const undocumented = keyFamilies().filter((prefix) => !spans.some((span) => span.startsWith(prefix)));
    expect(undocumented).toEqual([]);
  });

  it('states the lifetimes the code uses by their variable names', () => {
    for (const name of ['DEDUPE_TTL_DAYS', 'POLLER_LEASE_TTL_S', 'STORE_URL']) expect(DOC).toContain(name);
  });

  it('keeps the marked paragraph on tokens at rest', () => {
    expect(DOC).toContain('## Tokens at rest');
  });
});
