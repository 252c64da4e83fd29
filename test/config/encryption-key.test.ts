import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeEncryptionKey } from '../../src/config/encryption-key.js';
import { configProblems, loadConfig } from '../../src/config/load-config.js';

const KEY = randomBytes(32);
const OAUTH = {
  DIRECTORY_BASE_URL: 'https://directory.example.com',
  DIRECTORY_TOKEN: 'dir-token',
  SLACK_SIGNING_SECRET: 'shh-secret',
  SLACK_CLIENT_ID: '123.456',
  SLACK_CLIENT_SECRET: 'client-secret',
  SLACK_STATE_SECRET: 'state-secret',
};

function problemsOf(environment: Record<string, string>): readonly string[] {
  try {
    loadConfig({ environment, envFile: false });
  } catch (error) {
    const problems = configProblems(error);
    if (problems) return problems;
    throw error;
  }
  return [];
}

describe('STORE_ENCRYPTION_KEY', () => {
  it('accepts 32 bytes as 44 base64 characters or as 64 hex characters (what app.json generates)', () => {
    expect(decodeEncryptionKey(KEY.toString('base64'))).toEqual(KEY);
    expect(decodeEncryptionKey(KEY.toString('hex'))).toEqual(KEY);
    expect(decodeEncryptionKey(KEY.toString('hex').toUpperCase())).toEqual(KEY);
    for (const bad of [
      '',
      'short',
      randomBytes(16).toString('base64'),
      randomBytes(31).toString('hex'),
      KEY.toString('base64url'),
    ]) {
      expect(decodeEncryptionKey(bad)).toBeUndefined();
    }
  });

  it('is required with multi-workspace Slack install: one line naming it', () => {
    expect(problemsOf(OAUTH)).toEqual([
      expect.stringMatching(/^STORE_ENCRYPTION_KEY: required with multi-workspace Slack install/),
    ]);
    const config = loadConfig({
      environment: { ...OAUTH, STORE_ENCRYPTION_KEY: KEY.toString('base64') },
      envFile: false,
    });
    expect(config.store.encryption).toEqual({ current: KEY, previous: undefined });
  });

  it('is optional without it, and decoded when given', () => {
    expect(loadConfig({ environment: {}, envFile: false }).store.encryption).toBeUndefined();
    const previous = randomBytes(32);
    const config = loadConfig({
      environment: {
        STORE_ENCRYPTION_KEY: KEY.toString('hex'),
        STORE_ENCRYPTION_KEY_PREVIOUS: previous.toString('base64'),
      },
      envFile: false,
    });
    expect(config.store.encryption).toEqual({ current: KEY, previous });
  });

  it('refuses a malformed key without echoing it, and a previous key alone', () => {
    const problems = problemsOf({ ...OAUTH, STORE_ENCRYPTION_KEY: 'not-a-key-at-all' });
    expect(problems).toEqual([
      expect.stringMatching(/^STORE_ENCRYPTION_KEY: expected 32 random bytes as 44 base64/),
    ]);
    expect(problems.join('\n')).not.toContain('not-a-key-at-all');
    expect(problemsOf({ STORE_ENCRYPTION_KEY_PREVIOUS: KEY.toString('base64') })).toEqual([
      expect.stringMatching(/^STORE_ENCRYPTION_KEY_PREVIOUS: only read beside STORE_ENCRYPTION_KEY/),
    ]);
  });

  it('is a secret the logger scrubs', () => {
    const key = KEY.toString('base64');
    expect(loadConfig({ environment: { STORE_ENCRYPTION_KEY: key }, envFile: false }).secrets).toContain(key);
  });
});
