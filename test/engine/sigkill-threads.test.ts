import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmulator } from '../../src/emulator/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { killTrialEnv, spawnBot } from '../support/child-bot.js';
import { DELIVERY_TOKEN } from '../support/discord-delivery.js';
import { APP_ID } from '../support/discord-interactions.js';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * SIGKILL with threads on: the compiled bot delivers posts and their comments to a fake Discord
 * channel, threading each comment under its post's message, and is killed at random moments
 * (between starting a thread and storing its id included). Nothing may be lost, and no post may
 * get a second thread or a second message.
 */

const TRIALS = 12;
const CHANNEL = '300000000000000077';
const THREAD_STARTS = '/channels/:id/messages/:id/threads';
const temp = makeTempDir();
// Quota enough for the posts feed (V2) to poll every second like the comments feed.
const emulator = await startEmulator({
  port: 0,
  seed: 13,
  quotaComplexity: 1_000_000,
  quotaV2Requests: 100_000,
});
const discord = new FakeDiscordRest({ token: DELIVERY_TOKEN });
await discord.listen();
discord.addChannel(CHANNEL);
afterAll(async () => {
  await discord.close();
  await emulator.close();
  temp.cleanup();
});

function botEnv(): Record<string, string> {
  return {
    ...killTrialEnv({
      directoryUrl: emulator.url,
      storeUrl: `sqlite://${join(temp.path, 'sigkill-threads.sqlite')}`,
      subscriptions: `discord:${CHANNEL}=posts;discord:${CHANNEL}=comments`,
    }),
    DISCORD_TOKEN: DELIVERY_TOKEN,
    DISCORD_APPLICATION_ID: APP_ID,
    DISCORD_API_URL: discord.url,
    DISCORD_GATEWAY: 'false',
  };
}

/** Every message the fake Discord holds, in the channel and in its threads, as text. */
function everything(): string[] {
  const channels = [CHANNEL, ...discord.threads.of(CHANNEL).map((t) => t.id)];
  return channels.flatMap((id) => (discord.messages.get(id) ?? []).map((m) => JSON.stringify(m.body)));
}

const count = (texts: string[], marker: string) => texts.filter((t) => t.includes(marker)).length;

describe('killing the bot with SIGKILL while it threads comments', () => {
  it(`loses nothing and never starts a second thread for a post (${TRIALS} trials)`, async () => {
    const posts: { id: number; marker: string }[] = [];
    const comments: string[] = [];
    /** Which post each comment is on. */
    const postOf = new Map<string, string>();
    /** How many thread starts the fake had seen when each bot run began: a run's starts lie between two. */
    const runStarts: number[] = [];
    const starts = () => discord.callsTo('POST', THREAD_STARTS);
    let next = 0;
    const addActivity = () => {
      const marker = `post-marker-${String(next).padStart(3, '0')}`;
      next += 1;
      const post = emulator.admin.addPost({ name: marker });
      posts.push({ id: Number(post.id), marker });
      // Comments on this post and on earlier ones: some find their thread, some start it.
      for (const target of [posts.at(-1), posts[Math.floor(Math.random() * posts.length)]]) {
        const body = `comment-marker-${String(comments.length).padStart(3, '0')}`;
        comments.push(body);
        postOf.set(body, target!.marker);
        emulator.admin.addComment({ postId: target!.id, body });
      }
    };

    for (let trial = 0; trial < TRIALS; trial += 1) {
      runStarts.push(starts().length);
      // The first run logs at debug, where an empty poll is logged too.
      const bot = spawnBot(['start'], { ...botEnv(), ...(trial === 0 ? { LOG_LEVEL: 'debug' } : {}) });
      await bot.waitFor(/now polls and delivers/);
      if (trial === 0) await bot.waitFor(/"feed":"comments".*"msg":"polled feed"/);
      if (trial === 0) await bot.waitFor(/"feed":"posts".*"msg":"polled feed"/);
      else addActivity();
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2500));
      const exit = await bot.stop('SIGKILL');
      expect(exit.signal).toBe('SIGKILL');
    }

    runStarts.push(starts().length);
    const final = spawnBot(['start'], botEnv());
    await final.waitFor(/now polls and delivers/);
    const markers = [...posts.map((p) => p.marker), ...comments];
    for (let waited = 0; waited < 30_000; waited += 200) {
      if (markers.every((m) => count(everything(), m) >= 1)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await final.stop('SIGTERM')).code).toBe(0);

    const all = everything();
    expect(markers.filter((m) => count(all, m) === 0)).toEqual([]);
    // Discord's nonce makes a repeated post the same message: every post is in the channel once.
    const top = (discord.messages.get(CHANNEL) ?? []).map((m) => ({
      id: m.id,
      text: JSON.stringify(m.body),
    }));
    for (const { marker } of posts) {
      expect(top.filter((m) => m.text.includes(`"title":"${marker}`)).length, marker).toBe(1);
    }
    // Every thread start counts, 160004 answers included: the bot stores a thread's id before
    // posting in it, so one run starts a post's thread at most once, and only a kill between
    // the start and the store makes a later run ask again.
    const calls = starts();
    runStarts.push(calls.length);
    for (let run = 0; run + 1 < runStarts.length; run += 1) {
      const paths = calls.slice(runStarts[run], runStarts[run + 1]).map((c) => c.path);
      expect(paths.length, `run ${run} started a thread twice`).toBe(new Set(paths).size);
    }
    expect(calls.length).toBeLessThanOrEqual(new Set(calls.map((c) => c.path)).size + TRIALS);
    // Each comment in a thread is in its own post's: the thread's id is that post's message id.
    const postMessage = new Map(
      posts.map(({ marker }) => [marker, top.find((m) => m.text.includes(`"title":"${marker}`))?.id]),
    );
    for (const thread of discord.threads.of(CHANNEL)) {
      for (const message of discord.messages.get(thread.id) ?? []) {
        const comment = comments.find((c) => JSON.stringify(message.body).includes(c));
        expect(comment, `a message in thread ${thread.id} is no comment`).toBeDefined();
        expect(postMessage.get(postOf.get(comment!)!), comment).toBe(thread.id);
      }
    }
    expect(discord.threads.of(CHANNEL).length).toBeGreaterThan(0);
    // Comments are either in their post's thread or, when the post was not in yet, top-level: never both.
    expect(comments.filter((c) => count(all, c) > 1)).toEqual([]);
    expect(discord.problems).toEqual([]);
  }, 240_000);
});
