import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnBot } from '../support/child-bot.js';
import { makeTempDir } from '../support/temp-dir.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());

const SLACK = { SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_SIGNING_SECRET: 'shh-secret' };
/** Discord without network: HTTP interactions only, and an API URL nothing listens on. */
const DISCORD = {
  DISCORD_TOKEN: 'discord-bot-token',
  DISCORD_APPLICATION_ID: '112233445566778899',
  DISCORD_PUBLIC_KEY: 'ab'.repeat(32),
  DISCORD_GATEWAY: 'false',
  DISCORD_API_URL: 'http://127.0.0.1:9/api',
};

describe('a real chat platform never gets the emulator by accident', () => {
  for (const [name, platform] of [
    ['Slack', SLACK],
    ['Discord', DISCORD],
  ] as const) {
    it(`refuses to start with ${name} set and DIRECTORY_BASE_URL unset: exit 78, one line saying how to ask for the demo`, async () => {
      const bot = spawnBot(['start'], {
        ...platform,
        PORT: '0',
        STORE_URL: `sqlite://${join(temp.path, `${name}.sqlite`)}`,
      });
      // Before the fix it started and ran on invented data: give up after a while, and never
      // leave that process behind.
      const timer = setTimeout(() => void bot.stop('SIGKILL').catch(() => {}), 15_000);
      const exit = await bot.exited.finally(() => clearTimeout(timer));
      expect(exit.code).toBe(78);
      const lines = bot.output().split('\n');
      const named = lines.filter((line) => line.includes('DIRECTORY_BASE_URL'));
      expect(named).toHaveLength(1);
      expect(named[0]).toContain('SANDBOX=true');
      expect(bot.output()).not.toContain('embedded directory emulator started');
    }, 20_000);
  }

  it('with SANDBOX=true runs the demo against the embedded emulator, alongside the platform', async () => {
    const bot = spawnBot(['start'], {
      ...DISCORD,
      SANDBOX: 'true',
      PORT: '0',
      STORE_URL: `sqlite://${join(temp.path, 'demo.sqlite')}`,
      POLL_MIN_INTERVAL_S: '1',
      SANDBOX_ACTIVITY_PER_MIN: '600',
    });
    try {
      await bot.waitFor(/embedded directory emulator started/);
      // Invented activity reaches the console, as in the sandbox with nothing configured.
      await bot.waitFor(/── #sandbox ──/, 25_000);
    } catch (error) {
      await bot.stop('SIGKILL').catch(() => {});
      throw error;
    }
    expect((await bot.stop('SIGTERM')).code).toBe(0);
  }, 40_000);
});
