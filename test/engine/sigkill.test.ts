import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { killTrialEnv, spawnBot } from '../support/child-bot.js';
import { makeTempDir } from '../support/temp-dir.js';

const TRIALS = 20;
const temp = makeTempDir();
const emulator = await startEmulator({ port: 0, seed: 11 });
afterAll(async () => {
  await emulator.close();
  temp.cleanup();
});

function botEnv(): Record<string, string> {
  return killTrialEnv({
    directoryUrl: emulator.url,
    storeUrl: `sqlite://${join(temp.path, 'sigkill.sqlite')}`,
    subscriptions: 'console:trial=comments',
  });
}

const count = (text: string, marker: string) => text.split(marker).length - 1;

describe('killing the bot with SIGKILL at random moments', () => {
  it(`loses nothing and repeats at most the in-flight message per kill (${TRIALS} trials)`, async () => {
    const markers: string[] = [];
    let output = '';
    let kills = 0;
    let next = 0;
    const addComments = (n: number) => {
      for (let i = 0; i < n; i += 1) {
        const marker = `marker-${String(next).padStart(4, '0')}-end`;
        next += 1;
        markers.push(marker);
        emulator.admin.addComment({ body: marker });
      }
    };

    for (let trial = 0; trial < TRIALS; trial += 1) {
      // The first run logs at debug, where an empty poll is logged too.
      const bot = spawnBot(['start'], { ...botEnv(), ...(trial === 0 ? { LOG_LEVEL: 'debug' } : {}) });
      await bot.waitFor(/now polls and delivers/);
      // The first run's position is "what exists at its first poll": until that poll is stored,
      // comments added now would rightly count as already there. Kill at random only after it.
      if (trial === 0) await bot.waitFor(/"feed":"comments".*"msg":"polled feed"/);
      if (trial > 0) addComments(1 + (trial % 3));
      // A random moment: before, during or after the next poll and its deliveries.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 1500));
      // The bot's own process, proven gone (pid and port) before its output is counted.
      const exit = await bot.stop('SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
      kills += 1;
      output += bot.output();
    }

    const final = spawnBot(['start'], botEnv());
    await final.waitFor(/now polls and delivers/);
    const expectAll = async () => {
      for (let waited = 0; waited < 20_000; waited += 100) {
        if (markers.every((m) => count(output + final.output(), m) >= 1)) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await expectAll();
    expect((await final.stop('SIGTERM')).code).toBe(0);
    output += final.output();

    const missing = markers.filter((m) => count(output, m) === 0);
    const duplicates = markers.reduce((sum, m) => sum + Math.max(0, count(output, m) - 1), 0);
    expect(missing).toEqual([]);
    expect(markers.length).toBeGreaterThan(TRIALS);
    expect(duplicates).toBeLessThanOrEqual(kills);
  }, 180_000);
});
