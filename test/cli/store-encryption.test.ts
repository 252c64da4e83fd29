import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_STORE_NAMESPACE } from '../../src/app/sandbox.js';
import { createStore } from '../../src/store/create-store.js';
import { createSecretSealer } from '../../src/store/sealed-values.js';
import { verifyStoreKey } from '../../src/store/secret-keys.js';
import { spawnBot } from '../support/child-bot.js';
import { makeTempDir } from '../support/temp-dir.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());
const OLD = randomBytes(32);
const NEW = randomBytes(32);
/** A stack trace line, as Node prints them. */
const STACK_LINE = /^\s+at .+[:(]/m;

/** A sandbox store (no platform configured) whose secrets are sealed under OLD. */
async function storeSealedUnderOld(name: string): Promise<string> {
  const file = join(temp.path, name);
  const store = createStore({ url: `sqlite://${file}`, namespace: SANDBOX_STORE_NAMESPACE });
  const old = createSecretSealer({ current: OLD });
  await verifyStoreKey(store.keyv, old);
  await store.keyv.set('slack:installation:team:T1', {
    team: { id: 'T1' },
    bot: { token: old.seal('xoxb-t1') },
  });
  await store.close();
  return file;
}

describe('the store encryption key at the command line', () => {
  it('multi-workspace install without STORE_ENCRYPTION_KEY: exit 78 and one line naming it', async () => {
    const bot = spawnBot(['start'], {
      DIRECTORY_BASE_URL: 'http://127.0.0.1:1',
      DIRECTORY_TOKEN: 'dir-token',
      SLACK_SIGNING_SECRET: 'signing-secret',
      SLACK_CLIENT_ID: '123.456',
      SLACK_CLIENT_SECRET: 'client-secret',
      SLACK_STATE_SECRET: 'state-secret',
      STORE_URL: `sqlite://${join(temp.path, 'no-key.sqlite')}`,
    });
    expect((await bot.exited).code).toBe(78);
    const lines = bot
      .output()
      .split('\n')
      .filter((line) => line.includes('STORE_ENCRYPTION_KEY'));
    expect(lines).toEqual([
      expect.stringMatching(/STORE_ENCRYPTION_KEY: required with multi-workspace Slack install/),
    ]);
  }, 30_000);

  it('a wrong STORE_ENCRYPTION_KEY stops the start with a clear line naming it: exit 78, no stack, no key', async () => {
    const file = await storeSealedUnderOld('wrong-key.sqlite');
    const key = NEW.toString('base64');
    const bot = spawnBot(['start'], { STORE_URL: `sqlite://${file}`, STORE_ENCRYPTION_KEY: key, PORT: '0' });
    expect((await bot.exited).code).toBe(78);
    const output = bot.output();
    expect(output).toMatch(/directory-bot cannot start: STORE_ENCRYPTION_KEY does not match the store/);
    expect(output).not.toMatch(STACK_LINE);
    expect(output).not.toContain(key);
  }, 30_000);

  it('store rotate-key re-encrypts every secret under the new key and reports the counts', async () => {
    const file = await storeSealedUnderOld('rotate.sqlite');
    const env = {
      STORE_URL: `sqlite://${file}`,
      STORE_ENCRYPTION_KEY: NEW.toString('hex'),
      STORE_ENCRYPTION_KEY_PREVIOUS: OLD.toString('base64'),
    };
    const bot = spawnBot(['store', 'rotate-key'], env);
    expect((await bot.exited).code).toBe(0);
    const onlyNew = createSecretSealer({ current: NEW });
    expect(bot.output()).toContain(`Re-encrypted 2 secret(s) under key id ${onlyNew.keyId}; 0 already were`);
    expect(bot.output()).toContain('unset it');

    const store = createStore({ url: `sqlite://${file}`, namespace: SANDBOX_STORE_NAMESPACE });
    try {
      const saved = await store.keyv.get<{ bot: { token: string } }>('slack:installation:team:T1');
      expect(onlyNew.open(saved?.bot.token ?? '')).toEqual({ plaintext: 'xoxb-t1', stale: false });
      expect(await verifyStoreKey(store.keyv, onlyNew)).toBe('current');
    } finally {
      await store.close();
    }

    // Without the previous key the old secrets cannot be opened: said so, exit 78.
    const stale = await storeSealedUnderOld('rotate-without-previous.sqlite');
    const refused = spawnBot(['store', 'rotate-key'], {
      STORE_URL: `sqlite://${stale}`,
      STORE_ENCRYPTION_KEY: NEW.toString('base64'),
    });
    expect((await refused.exited).code).toBe(78);
    expect(refused.output()).toMatch(/STORE_ENCRYPTION_KEY does not match the store/);
  }, 60_000);

  it('doctor reports the store key: what opens with it, what still needs rotate-key, what does not open; never a key', async () => {
    const file = await storeSealedUnderOld('doctor-key.sqlite');
    const store = createStore({ url: `sqlite://${file}`, namespace: SANDBOX_STORE_NAMESPACE });
    // An installation a version before encryption stored: its token in plain text.
    await store.keyv.set('slack:installation:team:T9', { team: { id: 'T9' }, bot: { token: 'xoxb-t9' } });
    await store.close();
    const keys = [NEW.toString('base64'), OLD.toString('base64')];
    const doctor = async (env: Record<string, string>) => {
      const bot = spawnBot(['doctor'], { STORE_URL: `sqlite://${file}`, ...env });
      const { code } = await bot.exited;
      const output = bot.output();
      for (const key of keys) expect(output).not.toContain(key);
      return { code, line: output.split('\n').find((l) => l.includes('store key:')) };
    };
    const newId = createSecretSealer({ current: NEW }).keyId;

    const rotating = { STORE_ENCRYPTION_KEY: keys[0] ?? '', STORE_ENCRYPTION_KEY_PREVIOUS: keys[1] ?? '' };
    expect(await doctor(rotating)).toEqual({
      code: 0,
      line: `! store key: STORE_ENCRYPTION_KEY is set (key id ${newId}); 0 sealed value(s) open with it, 2 only with STORE_ENCRYPTION_KEY_PREVIOUS, 1 installation token(s) stored in plain text: run "directory-bot store rotate-key"`,
    });
    expect((await doctor({ STORE_ENCRYPTION_KEY: keys[0] ?? '' })).line).toBe(
      `✗ store key: STORE_ENCRYPTION_KEY is set (key id ${newId}); 0 sealed value(s) open with it, 2 do not (sealed under another key, or altered)`,
    );

    expect(
      (await spawnBot(['store', 'rotate-key'], { STORE_URL: `sqlite://${file}`, ...rotating }).exited).code,
    ).toBe(0);
    expect(await doctor({ STORE_ENCRYPTION_KEY: keys[0] ?? '' })).toEqual({
      code: 0,
      line: `✓ store key: STORE_ENCRYPTION_KEY is set (key id ${newId}); 3 sealed value(s) open with it`,
    });
  }, 120_000);
});
