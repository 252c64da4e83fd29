import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../src/delivery/index.js';
import { HeldItems } from '../../src/held-items/index.js';
import { accountingWorld, CHANNEL, DESTINATION_KEY } from '../support/accounting-harness.js';

type World = Awaited<ReturnType<typeof accountingWorld>>;
const HOUR = 3_600_000;

let w: World;
beforeEach(async () => {
  w = await accountingWorld();
});
afterEach(async () => {
  await w.close();
});

/** A comment added to the directory now, and the key the comments feed gives it. */
function newComment(body = 'A comment about maps') {
  const comment = w.world.emulator.admin.addComment({ body });
  return { id: String(comment['id']), key: `comments:new:${comment['id']}` };
}

function entry(itemKey: string, subscriptionId: string, extra: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    destination: { ...CHANNEL },
    destinationKey: DESTINATION_KEY,
    itemKey,
    message: { kind: 'comment', title: 'Ada on Atlas', fallback: 'Ada on Atlas' },
    subscriptionIds: [subscriptionId],
    enqueuedAt: w.clock.now(),
    attempts: 0,
    notBefore: w.clock.now(),
    ...extra,
  };
}

describe('what became of an item, per subscription of the channel', () => {
  it('delivered: when and where; for the other subscriptions a duplicate, filtered out, or another feed', async () => {
    const { id, key } = newComment();
    const { subscription: comments } = await w.subscribe('comments');
    const { subscription: keyword } = await w.subscribe('comments', { filters: { keywords: ['maps'] } });
    const { subscription: launch } = await w.subscribe('comments', { filters: { keywords: ['launch'] } });
    const { subscription: posts } = await w.subscribe('posts');
    w.clock.advance(HOUR);
    const postedAt = w.clock.now();
    await w.bot.engine.ledger.markDelivered(DESTINATION_KEY, key, { messageId: '1700.000100', postedAt });
    await w.bot.engine.deliveryLog.record({
      at: postedAt,
      destinationKey: DESTINATION_KEY,
      itemKey: key,
      outcome: 'delivered',
      messageId: '1700.000100',
      link: 'https://acme.slack.com/archives/C0WHY/p1700000100',
      title: 'Ada on Atlas',
      subscriptionIds: [comments.id],
    });
    w.clock.advance(3 * 60_000);
    const requests = w.requests();

    const answer = await w.explain(`comment ${id}`);
    expect(answer.item).toMatchObject({ key, feed: 'comments', id, title: '"A comment about maps"' });
    expect(answer.lines).toEqual([
      {
        subscriptionId: comments.id,
        verdict: 'delivered',
        text: 'Delivered 11:00 UTC (3 min ago): https://acme.slack.com/archives/C0WHY/p1700000100',
        at: postedAt,
        link: 'https://acme.slack.com/archives/C0WHY/p1700000100',
      },
      {
        subscriptionId: keyword.id,
        verdict: 'duplicate',
        text: `A duplicate: posted here 11:00 UTC (3 min ago) for subscription ${comments.id}, and a channel gets each item once: https://acme.slack.com/archives/C0WHY/p1700000100`,
        at: postedAt,
        link: 'https://acme.slack.com/archives/C0WHY/p1700000100',
      },
      {
        subscriptionId: launch.id,
        verdict: 'filtered',
        text: 'Filtered out by --keyword "launch": it mentions none of them.',
      },
      { subscriptionId: posts.id, verdict: 'not_this_feed', text: 'Follows posts; this is a comment.' },
    ]);
    // Whether the filtered subscriptions would have taken it: the comment itself, asked for once.
    expect(w.requests()).toBe(requests + 1);
  });

  it('explains from the records an item the directory no longer has (removed upstream)', async () => {
    const { id, key } = newComment();
    const { subscription } = await w.subscribe('comments');
    await w.subscribe('comments', { filters: { keywords: ['maps'] } });
    await w.bot.engine.ledger.markDelivered(DESTINATION_KEY, key, {
      messageId: '1.2',
      postedAt: w.clock.now(),
    });
    w.world.emulator.admin.removeComment(Number(id));
    const answer = await w.explain(`comment ${id}`);
    expect(answer.notice).toBe(`The directory has no comment ${id}.`);
    expect(answer.noticeCode).toBe('not_found');
    expect(answer.lines.map((line) => [line.subscriptionId, line.verdict])).toEqual([
      [subscription.id, 'delivered'],
      [expect.any(String), 'duplicate'],
    ]);
  });

  it('asks the directory nothing when the records settle every line', async () => {
    const { id, key } = newComment();
    const { subscription } = await w.subscribe('comments');
    await w.subscribe('comments', { format: 'compact', threading: { off: true } });
    await w.subscribe('posts');
    await w.bot.engine.ledger.markDelivered(DESTINATION_KEY, key, {
      messageId: '1.2',
      postedAt: w.clock.now(),
    });
    const requests = w.requests();
    const answer = await w.explain(`comment ${id}`);
    expect(answer.lines.map((line) => line.verdict)).toEqual(['delivered', 'not_this_feed']);
    expect(answer.lines[0]?.subscriptionId).toBe(subscription.id);
    expect(answer.item?.title).toBe(`comment ${id}`);
    expect(w.requests()).toBe(requests);
  });

  it("queued: its place in the channel's queue, or the retry after a failure in the platform's words", async () => {
    const { id, key } = newComment();
    const { subscription } = await w.subscribe('comments');
    await w.bot.engine.outbox.enqueue([
      entry('comments:new:1', subscription.id),
      entry(key, subscription.id),
    ]);
    let [line] = (await w.explain(`comment ${id}`)).lines;
    expect(line).toMatchObject({
      verdict: 'queued',
      text: "Queued: 1 message ahead of it here; the channel is paced to Slack's limits.",
    });

    const [waiting] = await w.bot.engine.outbox
      .load()
      .then(() => w.bot.engine.outbox.queued(DESTINATION_KEY).slice(1));
    await w.bot.engine.outbox.reschedule(waiting!, w.clock.now() + 2 * 60_000);
    await w.bot.engine.deliveryLog.record({
      at: w.clock.now(),
      destinationKey: DESTINATION_KEY,
      itemKey: key,
      outcome: 'failed',
      code: 'rate_limited',
      reason: 'Slack answered 429',
      subscriptionIds: [subscription.id],
    });
    [line] = (await w.explain(`comment ${id}`)).lines;
    expect(line).toMatchObject({
      verdict: 'queued',
      text: 'Queued: retrying 10:02 UTC (in 2 min) after 1 failed attempt: Slack answered 429 (rate_limited).',
      at: w.clock.now() + 2 * 60_000,
    });
  });

  it('held: for the digest, through quiet hours, over the cap — each with when it goes', async () => {
    const { id, key } = newComment();
    const { subscription: digest } = await w.subscribe('comments', {
      schedule: { digest: { every: 'daily', at: { hour: 9, minute: 0 } }, top: 5, timeZone: 'Asia/Tokyo' },
    });
    const held = new HeldItems({ keyv: w.bot.store.keyv, directoryId: w.bot.directoryId });
    const message = { kind: 'comment' as const, title: 'Ada on Atlas', fallback: 'Ada on Atlas' };
    await held.update(digest.id, () => ({
      next: {
        items: [{ itemKey: key, feed: 'comments', message, discoveredAt: w.clock.now(), reason: 'digest' }],
        omitted: {},
        lastDigestAt: Date.UTC(2026, 10, 21, 0, 0),
      },
      result: undefined,
    }));
    const [line] = (await w.explain(`comment ${id}`)).lines;
    // 10:00 UTC is 19:00 in Tokyo: the next digest is tomorrow at 09:00 there.
    expect(line).toEqual({
      subscriptionId: digest.id,
      verdict: 'held',
      text: 'Held for the digest (it lists the top 5 by votes): it goes Sun 22 Nov 09:00 Asia/Tokyo (in 14 h).',
      at: Date.UTC(2026, 10, 22, 0, 0),
    });
  });

  it('held through quiet hours and over a cap, each until its window ends', async () => {
    const quietItem = newComment();
    const capItem = newComment();
    const { subscription: quiet } = await w.subscribe('comments', {
      schedule: { quiet: { from: { hour: 22, minute: 0 }, to: { hour: 11, minute: 0 } } },
    });
    const held = new HeldItems({ keyv: w.bot.store.keyv, directoryId: w.bot.directoryId });
    const message = { kind: 'comment' as const, title: 'x', fallback: 'x' };
    const now = w.clock.now();
    await held.update(quiet.id, () => ({
      next: {
        items: [
          { itemKey: quietItem.key, feed: 'comments', message, discoveredAt: now, reason: 'quiet' },
          { itemKey: capItem.key, feed: 'comments', message, discoveredAt: now, reason: 'cap' },
        ],
        omitted: {},
        quietUntil: now + HOUR,
        capUntil: now + 30 * 60_000,
      },
      result: undefined,
    }));
    expect((await w.explain(`comment ${quietItem.id}`)).lines[0]?.text).toBe(
      'Held through quiet hours: it goes 11:00 UTC (in 1 h).',
    );
    expect((await w.explain(`comment ${capItem.id}`)).lines[0]?.text).toBe(
      'Held over the volume cap (its limit): it goes 10:30 UTC (in 30 min), in one summary.',
    );
  });

  it('released with the digest: the digest message that took it, and its link', async () => {
    const { id, key } = newComment();
    const { subscription } = await w.subscribe('comments', {
      schedule: { digest: { every: 'hourly' } },
    });
    const held = new HeldItems({ keyv: w.bot.store.keyv, directoryId: w.bot.directoryId });
    await held.update(subscription.id, () => ({
      next: { items: [], omitted: {}, lastDigestAt: Date.UTC(2026, 10, 21, 11, 0), released: [key] },
      result: undefined,
    }));
    w.clock.advance(HOUR);
    await w.bot.engine.deliveryLog.record({
      at: w.clock.now(),
      destinationKey: DESTINATION_KEY,
      itemKey: `digest:${subscription.id}:2026-11-21T11:00:00.000Z:1`,
      outcome: 'delivered',
      link: 'https://acme.slack.com/archives/C0WHY/p1700003600',
      subscriptionIds: [subscription.id],
    });
    w.clock.advance(10 * 60_000);
    const [line] = (await w.explain(`comment ${id}`)).lines;
    expect(line).toMatchObject({
      verdict: 'delivered',
      text: 'Went out in the digest posted 11:00 UTC (10 min ago): https://acme.slack.com/archives/C0WHY/p1700003600',
      link: 'https://acme.slack.com/archives/C0WHY/p1700003600',
    });
  });

  it('filtered: which filter, and what the item had', async () => {
    const { id } = newComment('Nothing about that here');
    const { subscription } = await w.subscribe('comments', { filters: { keywords: ['launch', 'release'] } });
    await w.setFeedState('comments', { newestId: id });
    const requests = w.requests();
    const answer = await w.explain(`comment ${id}`);
    expect(answer.item?.title).toBe('"Nothing about that here"');
    expect(answer.lines).toEqual([
      {
        subscriptionId: subscription.id,
        verdict: 'filtered',
        text: 'Filtered out by --keyword "launch" or "release": it mentions none of them.',
      },
    ]);
    // One request: the comment itself.
    expect(w.requests()).toBe(requests + 1);
  });

  it('not polled yet: when the next poll is; a feed that never polled records what exists first', async () => {
    const { id } = newComment();
    await w.subscribe('comments');
    await w.setHealth([
      { feed: 'comments', intervalMs: 60_000, consecutiveFailures: 0, nextPollAt: w.clock.now() + 40_000 },
    ]);
    expect((await w.explain(`comment ${id}`)).lines[0]).toMatchObject({
      verdict: 'not_polled',
      text: 'The comments feed has not polled yet: its first poll records what exists then and posts only what comes after; its next poll is 10:00 UTC (in 40 s).',
    });
    await w.setFeedState('comments', { newestId: String(Number(id) - 1) });
    expect((await w.explain(`comment ${id}`)).lines[0]).toMatchObject({
      verdict: 'not_polled',
      text: 'Not polled yet: the comments feed has not reached it; its next poll is 10:00 UTC (in 40 s).',
      at: w.clock.now() + 40_000,
    });
  });

  it('too old: from before the subscription', async () => {
    const { id } = newComment();
    w.clock.advance(2 * HOUR);
    const { subscription } = await w.subscribe('comments');
    await w.setFeedState('comments', { newestId: id });
    expect((await w.explain(`comment ${id}`)).lines).toEqual([
      {
        subscriptionId: subscription.id,
        verdict: 'too_old',
        text: 'Too old: it appeared 10:00 UTC (2 h ago), before this subscription was made at 12:00 UTC (just now); a subscription posts only what appears after it.',
        at: Date.UTC(2026, 10, 21, 10, 0),
      },
    ]);
  });

  it("failed: the platform's reason", async () => {
    const { id, key } = newComment();
    const { subscription } = await w.subscribe('comments');
    await w.bot.engine.deliveryLog.record({
      at: w.clock.now(),
      destinationKey: DESTINATION_KEY,
      itemKey: key,
      outcome: 'dropped',
      code: 'invalid_blocks',
      reason: 'Slack refused the blocks',
      subscriptionIds: [subscription.id],
    });
    expect((await w.explain(`comment ${id}`)).lines[0]).toMatchObject({
      verdict: 'failed',
      text: 'Failed: dropped 10:00 UTC (just now); Slack refused it: Slack refused the blocks (invalid_blocks).',
    });
  });

  it('paused: why, and since when', async () => {
    const { id } = newComment();
    const { subscription } = await w.subscribe('comments');
    await w.bot.engine.subscriptions.pauseDestination(
      'slack',
      'C0WHY',
      'channel_not_found',
      'the channel is gone',
    );
    expect((await w.explain(`comment ${id}`)).lines[0]).toMatchObject({
      verdict: 'paused',
      text: `Paused since 10:00 UTC (just now): Slack refused the channel: the channel is gone (channel_not_found). Nothing is posted for it until it is resumed (resume ${subscription.id}).`,
    });
  });

  it('says what it could not check when the person may not ask the directory again yet', async () => {
    const { id } = newComment();
    await w.subscribe('comments');
    const requests = w.requests();
    const answer = await w.explain(`comment ${id}`, { allowLookup: () => 12_000 });
    expect(answer.notice).toBe('You have asked the directory often in the last minute (ask again in 12 s).');
    expect(answer.noticeCode).toBe('unchecked');
    expect(answer.lines[0]).toMatchObject({ verdict: 'unknown' });
    expect(answer.lines[0]?.text).toContain('so its filters and age were not checked');
    expect(w.requests()).toBe(requests);
  });
});

describe('what it accepts', () => {
  it('every kind of directory link, item keys and ids, in one request at most', async () => {
    const post = w.world.emulator.admin.addPost({ name: 'Atlas Maps' });
    await w.subscribe('posts');
    await w.subscribe('comments');
    const site = 'https://www.example-directory.test';
    const asked = async (item: string) => {
      const before = w.requests();
      const answer = await w.explain(item);
      expect(w.requests() - before).toBeLessThanOrEqual(1);
      return answer;
    };
    expect((await asked(`${site}/posts/${post['slug']}`)).item).toMatchObject({
      feed: 'posts',
      title: 'Atlas Maps',
    });
    expect((await asked(`<${site}/posts/${post['slug']}>`)).item?.feed).toBe('posts');
    const { id } = newComment('Maps!');
    expect((await asked(`${site}/posts/${post['slug']}?comment=${id}`)).item).toMatchObject({
      feed: 'comments',
      id,
    });
    expect((await asked(`comments:new:${id}`)).item?.id).toBe(id);
    expect((await asked(`comment:${id}`)).item?.id).toBe(id);
    expect((await asked(`post ${post['slug']}`)).item?.title).toBe('Atlas Maps');
    expect((await asked(`${site}/@${'ada'}`)).notice).toMatch(/profile: a person is not an item/);
    expect((await asked('https://elsewhere.example/posts/1')).notice).toMatch(
      /^elsewhere\.example is not the directory/,
    );
    expect((await asked(`${site}/topics/maps`)).notice).toMatch(
      /^That page of the directory is not one item/,
    );
    expect((await asked('42')).notice).toBe(
      'Which 42? This channel follows posts and comments: say post 42 or comment 42.',
    );
    expect((await asked('comment launch-day')).notice).toBe('"launch-day" is not a comment id.');
    expect((await asked('what is this')).notice).toMatch(/^"what is this" names no item/);
  });

  it('a bare id in a channel that follows one feed, and says when the directory has no such item', async () => {
    const { id } = newComment();
    await w.subscribe('comments');
    expect((await w.explain(id)).item?.key).toBe(`comments:new:${id}`);
    expect(await w.explain('post no-such-post')).toEqual({
      notice: 'The directory has no post no-such-post.',
      noticeCode: 'not_found',
      lines: [],
    });
  });

  it('says so when the channel has no subscriptions', async () => {
    expect(await w.explain('comment 1')).toEqual({
      notice: 'This channel has no subscriptions, so nothing is posted here.',
      noticeCode: 'no_subscriptions',
      lines: [],
    });
  });
});
