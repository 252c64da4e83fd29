import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createConsoleAdapter } from '../../adapters/console/index.js';
import type { FeedName } from '../../src/feeds/feed-names.js';
import type { ThreadSettings } from '../../src/subscriptions/thread-options.js';
import { createCapturingLogger } from '../support/capturing-logger.js';
import { startInstance, startWorld } from '../support/engine-harness.js';

/**
 * Threads end to end: the emulator's posts and comments → engine → outbox → the real console
 * adapter, which shows a reply indented under a line naming its parent, as the sandbox does.
 */

const world = await startWorld();
afterAll(() => world.close());
const instances: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(instances.splice(0).map((i) => i.close()));
});

async function consoleBot() {
  let screen = '';
  const adapter = createConsoleAdapter({
    write: (text) => (screen += text),
    logger: createCapturingLogger(),
  });
  const bot = await startInstance({
    emulator: world.emulator,
    storeUrl: world.sqliteUrl(),
    namespace: 'threads',
    adapters: [adapter],
  });
  instances.push(bot);
  await adapter.start({
    http: { mount: () => {} },
    commands: undefined as never,
    logger: createCapturingLogger(),
  });
  const subscribe = (channelId: string, feed: FeedName, threading?: ThreadSettings) =>
    bot.engine.subscriptions.add({
      platform: 'console',
      channelId,
      feed,
      filters: {},
      createdBy: 'test',
      ...(threading ? { threading } : {}),
    });
  const round = async () => {
    bot.engine.dispatcher.start();
    await bot.engine.pollAllOnce();
    await bot.engine.dispatcher.drained();
  };
  /** What one channel printed: its blocks, a reply's header starting with ↳. */
  const channel = (id: string) =>
    screen
      .split(/\n(?=── #| {2}↳ #)/)
      .map((block) => block.trim())
      .filter((block) => block.startsWith(`── #${id} ──`) || block.startsWith(`↳ #${id},`));
  return { bot, subscribe, round, channel };
}

describe('threads through the pipeline', () => {
  it("a posts subscription with --thread-comments gets its posts' comments under them, and only those", async () => {
    const { subscribe, round, channel } = await consoleBot();
    await subscribe('launches', 'posts', { comments: true });
    await subscribe('flat', 'posts', { off: true });
    await subscribe('flat', 'comments', { off: true });
    await round();

    const { admin } = world.emulator;
    const post = admin.addPost({ name: 'Threaded launch' });
    await round();
    const first = admin.addComment({ postId: Number(post.id), body: 'Congrats on the launch' });
    admin.addComment({
      postId: Number(post.id),
      parentCommentId: Number(first.id),
      body: 'Agreed, great work',
    });
    // A comment on a post this channel never received is not this subscription's business.
    admin.addComment({ body: 'Elsewhere entirely' });
    await round();

    const launches = channel('launches');
    expect(launches).toHaveLength(3);
    expect(launches[0]).toContain('Threaded launch');
    // The reply to a comment goes under the same post: the same thread.
    for (const reply of launches.slice(1)) {
      expect(reply).toMatch(/^↳ #launches, reply in the thread of console-\d+/);
      expect(
        reply
          .split('\n')
          .slice(1)
          .every((line) => line === '' || line.startsWith('    ')),
      ).toBe(true);
    }
    expect(launches.join('\n')).not.toContain('Elsewhere entirely');

    // --threads off: everything top-level, as before threads.
    const flat = channel('flat');
    expect(flat.length).toBeGreaterThanOrEqual(4);
    expect(flat.every((block) => block.startsWith('── #flat ──'))).toBe(true);
  });

  it('a comments subscription threads under a post the channel received, and posts the rest top-level', async () => {
    const { subscribe, round, channel } = await consoleBot();
    await subscribe('team', 'posts', { off: true });
    await subscribe('team', 'comments');
    await round();

    const { admin } = world.emulator;
    // A posts subscription with threads off still posts the parent; the comments one threads under it.
    const post = admin.addPost({ name: 'Our launch' });
    await round();
    admin.addComment({ postId: Number(post.id), body: 'First reply' });
    admin.addComment({ body: 'On some other post' });
    await round();

    const team = channel('team');
    const reply = team.find((block) => block.includes('First reply'));
    const other = team.find((block) => block.includes('On some other post'));
    expect(reply).toMatch(/^↳ #team, reply in the thread of console-\d+/);
    expect(other).toMatch(/^── #team ──/);
  });
});
