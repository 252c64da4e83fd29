import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { spawnBot } from '../support/child-bot.js';
import { makeTempDir } from '../support/temp-dir.js';

const TRIALS = 8;
const temp = makeTempDir();
// A generous complexity quota, so the posts feed polls about every second as the comments trial's feed does.
const emulator = await startEmulator({ port: 0, seed: 12, quotaComplexity: 400_000 });
afterAll(async () => {
  await emulator.close();
  temp.cleanup();
});

function botEnv(): Record<string, string> {
  return {
    PORT: '0',
    LOG_LEVEL: 'info',
    DIRECTORY_BASE_URL: emulator.url,
    DIRECTORY_TOKEN: 'dev-token',
    STORE_URL: `sqlite://${join(temp.path, 'sigkill-edits.sqlite')}`,
    SUBSCRIPTIONS: 'console:trial=posts',
    POLL_MIN_INTERVAL_S: '1',
    POLLER_LEASE_TTL_S: '2',
    EDIT_MIN_INTERVAL_S: '10',
  };
}

/** The votes the channel shows for `name` now: its latest block, posted or edited. */
function shownVotes(output: string, name: string): number | undefined {
  const blocks = output.split(/\n(?=── #|↻ edited:)/).filter((b) => b.includes(`\n${name}\n`));
  const votes = blocks.at(-1)?.match(/Votes: ([\d,]+)/)?.[1];
  return votes === undefined ? undefined : Number(votes.replace(/,/g, ''));
}

describe('killing the bot with SIGKILL while it owes edits', () => {
  it(`shows every post's latest vote count in the end: no edit lost (${TRIALS} trials)`, async () => {
    const posts = ['Kill Widget A', 'Kill Widget B', 'Kill Widget C'];
    const ids = new Map<string, number>();
    const votes = new Map<string, number>();
    let output = '';
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const bot = spawnBot(['start'], { ...botEnv(), ...(trial === 0 ? { LOG_LEVEL: 'debug' } : {}) });
      await bot.waitFor(/now polls and delivers/);
      if (trial === 0) {
        await bot.waitFor(/"feed":"posts".*"msg":"polled feed"/);
        for (const name of posts) {
          const post = emulator.admin.addPost({ name });
          ids.set(name, post.id as number);
          votes.set(name, post.votes_count as number);
        }
        await bot.waitFor(/Kill Widget C/);
      } else {
        for (const name of posts) {
          const added = 1 + Math.floor(Math.random() * 5);
          emulator.admin.addVotes(ids.get(name)!, added);
          votes.set(name, votes.get(name)! + added);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 1500));
      expect((await bot.stop('SIGKILL')).signal).toBe('SIGKILL');
      output += bot.output();
    }

    const final = spawnBot(['start'], botEnv());
    await final.waitFor(/now polls and delivers/);
    const allShown = () =>
      posts.every((name) => shownVotes(output + final.output(), name) === votes.get(name));
    for (let waited = 0; waited < 60_000 && !allShown(); waited += 200) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await final.stop('SIGTERM')).code).toBe(0);
    output += final.output();
    expect(Object.fromEntries(posts.map((name) => [name, shownVotes(output, name)]))).toEqual(
      Object.fromEntries(votes),
    );
    // Edited in place: each post was posted once, however many kills.
    for (const name of posts)
      expect(output.split(`── #trial ──\n${name}\n`).length - 1).toBeLessThanOrEqual(TRIALS);
  }, 180_000);
});
