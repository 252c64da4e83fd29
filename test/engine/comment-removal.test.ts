import { afterAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/emulator/index.js';
import { COMMENT_CHECK_EVERY_POLLS } from '../../src/feeds/comment-check.js';
import { editsBot } from '../support/edits-bot.js';
import { startWorld } from '../support/engine-harness.js';

const clock = createManualClock(Date.parse('2026-11-23T12:00:00Z'));
const world = await startWorld({ clock });
afterAll(() => world.close());
const { admin } = world.emulator;

const POLL_MS = 60_000;

/** A bot subscribed to comments in #talk; `pollAndSend(n)`: n polls a minute apart, each sending what is due. */
async function commentsBot(namespace: string) {
  const { bot, pollAndSend: pollOnce } = await editsBot(world, clock, 'comments', namespace, 'talk');
  const pollAndSend = async (times = 1) => {
    for (let i = 0; i < times; i += 1) {
      clock.advance(POLL_MS);
      await pollOnce();
    }
  };
  return { bot, pollAndSend };
}

const commentRequests = () => admin.stats().requests.byRoute['/v1/comments'] ?? 0;

describe('comments removed upstream', () => {
  it('edits a posted comment once to say it was removed, within a tenth more comment requests', async () => {
    const { bot, pollAndSend } = await commentsBot('comment-removed');
    try {
      admin.resetStats();
      const doomed = admin.addComment({ body: 'Doomed remark' });
      admin.addComment({ body: 'Kept remark' });
      await pollAndSend();
      expect(bot.adapter.deliveries).toHaveLength(2);
      const [doomedMessage, keptMessage] = bot.adapter.delivered('talk');
      // A check lists the comment before it goes, so the next one can see it missing.
      await pollAndSend(COMMENT_CHECK_EVERY_POLLS);
      expect(bot.adapter.edits).toHaveLength(0);

      admin.removeComment(doomed.id as number);
      await pollAndSend(COMMENT_CHECK_EVERY_POLLS * 2);
      expect(bot.adapter.edits).toHaveLength(1);
      const edit = bot.adapter.edits[0]!;
      expect(edit.messageId).toBe('m1');
      expect(edit.message.title).toBe(`Removed from the directory: ${doomedMessage!.title}`);
      expect(bot.adapter.current('m2')?.title).toBe(keptMessage!.title);
      expect(bot.adapter.deliveries).toHaveLength(2);

      // 31 polls, each one request while caught up, plus one check every tenth poll.
      const polls = 1 + COMMENT_CHECK_EVERY_POLLS * 3;
      expect(commentRequests()).toBe(polls + 3);
      expect((commentRequests() - polls) / polls).toBeLessThanOrEqual(0.1);
    } finally {
      await bot.close();
    }
  });

  it('marks nothing when the check fails upstream, and marks the removal once a check succeeds', async () => {
    const { bot, pollAndSend } = await commentsBot('comment-check-fails');
    try {
      const doomed = admin.addComment({ body: 'Doomed remark' });
      await pollAndSend(COMMENT_CHECK_EVERY_POLLS);
      expect(bot.adapter.deliveries).toHaveLength(1);

      // The next check (two attempts: the harness retries once) answers 503.
      admin.removeComment(doomed.id as number);
      await pollAndSend(COMMENT_CHECK_EVERY_POLLS - 1);
      admin.injectFault({ route: '/v1/comments', count: 2, kind: 'status', status: 503 });
      await pollAndSend();
      expect(admin.pendingFaults()).toHaveLength(0);
      expect(bot.adapter.edits).toHaveLength(0);

      await pollAndSend(COMMENT_CHECK_EVERY_POLLS);
      expect(bot.adapter.edits.map((e) => e.message.title)).toEqual([
        `Removed from the directory: ${bot.adapter.deliveries[0]!.message.title}`,
      ]);
    } finally {
      await bot.close();
    }
  });

  it('marks a comment removed before any check listed it', async () => {
    const { bot, pollAndSend } = await commentsBot('comment-removed-unchecked');
    try {
      const doomed = admin.addComment({ body: 'Gone before the check' });
      await pollAndSend();
      expect(bot.adapter.deliveries).toHaveLength(1);

      // Removed while the check is still nine polls away: no check ever listed it.
      admin.removeComment(doomed.id as number);
      await pollAndSend(COMMENT_CHECK_EVERY_POLLS);
      expect(bot.adapter.edits.map((e) => e.message.title)).toEqual([
        `Removed from the directory: ${bot.adapter.deliveries[0]!.message.title}`,
      ]);
    } finally {
      await bot.close();
    }
  });

  it('marks a delivered comment removed after 50 newer ones pushed it past the newest listing', async () => {
    const { bot, pollAndSend } = await commentsBot('comment-removed-older');
    try {
      const post = admin.addPost({ name: 'Followed launch' });
      await bot.engine.subscriptions.add({
        platform: 'console',
        channelId: 'followed',
        feed: 'comments',
        filters: { post: String(post.id) },
        createdBy: 't',
      });
      const doomed = admin.addComment({ postId: post.id as number, body: 'Old remark, later removed' });
      const kept = admin.addComment({ postId: post.id as number, body: 'Old remark, kept' });
      for (let i = 0; i < 60; i += 1) admin.addComment({ body: `Chatter ${i}` });
      await pollAndSend(COMMENT_CHECK_EVERY_POLLS);
      const followed = bot.adapter.delivered('followed');
      expect(followed).toHaveLength(2);

      admin.removeComment(doomed.id as number);
      admin.resetStats();
      // The newest 50 no longer reach it: the checks between take turns looking further back.
      await pollAndSend(COMMENT_CHECK_EVERY_POLLS * 2);
      const marked = bot.adapter.edits.filter((e) => e.channelId === 'followed');
      expect(marked.map((e) => e.message.title)).toEqual([
        `Removed from the directory: ${followed[0]!.title}`,
      ]);
      const ids = bot.adapter.deliveries.flatMap((d, i) => (d.channelId === 'followed' ? [`m${i + 1}`] : []));
      expect(marked.map((e) => e.messageId)).toEqual([ids[0]]);
      expect(bot.adapter.current(ids[1]!)?.title).toBe(followed[1]!.title);
      expect(kept.id).toBeGreaterThan(doomed.id as number);
      // Still one poll's request each, plus one check every tenth poll.
      expect(commentRequests()).toBe(COMMENT_CHECK_EVERY_POLLS * 2 + 2);
    } finally {
      await bot.close();
    }
  });

  it('never takes a comment just past the newest 50 for removed because its time is later than theirs', async () => {
    const { bot, pollAndSend } = await commentsBot('comment-id-edge');
    try {
      // Upstream clocks disagree: a comment stamped ten minutes ahead of the 50 written after it.
      // Listed by id, it is the 51st, just past the newest 50 a check reads; by time, it is newer
      // than all of them.
      const now = clock.now();
      clock.set(now + 10 * 60_000);
      admin.addComment({ body: 'Stamped ahead of its time' });
      clock.set(now);
      for (let i = 0; i < 50; i += 1) admin.addComment({ body: `Written after it, ${i}` });
      await pollAndSend(COMMENT_CHECK_EVERY_POLLS * 2);
      expect(bot.adapter.deliveries).toHaveLength(51);
      expect(bot.adapter.edits.filter((e) => e.message.title.startsWith('Removed'))).toEqual([]);
    } finally {
      await bot.close();
    }
  });
});
