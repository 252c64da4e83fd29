import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startInstance, startWorld, subscribeConsole } from '../support/engine-harness.js';
import { eventually } from '../support/polling.js';
import { RecordingAdapter } from '../support/recording-adapter.js';

const world = await startWorld();
afterAll(() => world.close());

const instances: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(instances.splice(0).map((i) => i.close()));
  world.emulator.admin.clearFaults();
  world.emulator.admin.resetQuotas();
});

async function instance(options: Partial<Parameters<typeof startInstance>[0]> = {}) {
  const created = await startInstance({
    emulator: world.emulator,
    storeUrl: world.sqliteUrl(),
    namespace: 'engine',
    ...options,
  });
  instances.push(created);
  return created;
}

function createActivity() {
  const { admin } = world.emulator;
  const soon = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const unfeatured = admin.addCollection({ name: 'Quiet collection' });
  return {
    comments: [admin.addComment({ body: 'first!' }), admin.addComment({ body: 'second <!channel>' })].map(
      (c) => String(c.id),
    ),
    posts: [admin.addPost({ name: 'Fresh post' }), admin.addPost({ name: 'Another post' })].map(
      (p) => p.v2_id,
    ),
    collections: [String(admin.featureCollection(unfeatured.id).id)],
    live: [String(admin.scheduleLive({ name: 'Launch AMA', startsAt: soon }).id)],
    notifications: [String(admin.addNotification('dev-token').id)],
  };
}

describe('the pipeline against the emulator', () => {
  it('delivers every new item of every feed exactly once', async () => {
    const bot = await instance();
    await subscribeConsole(bot, 'news');
    const seeded = await bot.engine.pollAllOnce();
    expect(seeded.every((s) => s.queued === 0)).toBe(true);

    const created = createActivity();
    bot.engine.dispatcher.start();
    const summaries = await bot.engine.pollAllOnce();
    await bot.engine.dispatcher.drained();
    expect(Object.fromEntries(summaries.map((s) => [s.feed, s.queued]))).toEqual({
      posts: 2,
      comments: 2,
      collections: 1,
      live: 1,
      notifications: 1,
    });
    expect(bot.adapter.delivered('news')).toHaveLength(7);
    const titles = bot.adapter.delivered('news').map((m) => m.title);
    expect(titles).toEqual(
      expect.arrayContaining([expect.stringContaining('Fresh post'), expect.stringContaining('Launch AMA')]),
    );
    expect(created.comments).toHaveLength(2);

    // Nothing new upstream: nothing more is posted, however often we poll.
    await bot.engine.pollAllOnce();
    await bot.engine.pollAllOnce();
    await bot.engine.dispatcher.drained();
    expect(bot.adapter.delivered('news')).toHaveLength(7);
  });

  it('never floods a first subscription with the history that already exists upstream', async () => {
    const bot = await instance();
    expect(world.emulator.admin.counts().comments).toBeGreaterThanOrEqual(100);
    await subscribeConsole(bot, 'news');
    bot.engine.dispatcher.start();
    await bot.engine.pollAllOnce();
    await bot.engine.pollAllOnce();
    await bot.engine.dispatcher.drained();
    expect(bot.adapter.deliveries).toHaveLength(0);
  });

  it('gives a channel that subscribes later only what is found after it subscribed', async () => {
    const bot = await instance();
    await subscribeConsole(bot, 'old', ['comments']);
    await bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'only for the old channel' });
    bot.engine.dispatcher.start();
    await bot.engine.pollAllOnce();
    await bot.engine.subscriptions.add({
      platform: 'console',
      channelId: 'late',
      feed: 'comments',
      filters: {},
      createdBy: 't',
    });
    world.emulator.admin.addComment({ body: 'for both' });
    await bot.engine.pollAllOnce();
    await bot.engine.dispatcher.drained();
    expect(bot.adapter.delivered('old').map((m) => m.text)).toEqual(['only for the old channel', 'for both']);
    expect(bot.adapter.delivered('late').map((m) => m.text)).toEqual(['for both']);
  });

  it('catches up on a burst of 35 posts between two polls', async () => {
    const bot = await instance();
    await subscribeConsole(bot, 'launches', ['posts']);
    await bot.engine.pollAllOnce();
    const ids = Array.from(
      { length: 35 },
      (_, i) => world.emulator.admin.addPost({ name: `Burst ${i}` }).v2_id,
    );
    bot.engine.dispatcher.start();
    await bot.engine.pollAllOnce();
    await bot.engine.dispatcher.drained();
    expect(bot.adapter.delivered('launches')).toHaveLength(ids.length);
  });

  it('applies keyword, exclude and user filters in the bot', async () => {
    const bot = await instance();
    const add = (channelId: string, filters: object) =>
      bot.engine.subscriptions.add({
        platform: 'console',
        channelId,
        feed: 'comments',
        filters,
        createdBy: 't',
      });
    await add('ai', { keywords: ['ai'] });
    await add('not-crypto', { exclude: ['crypto'] });
    await bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'AI is everywhere' });
    world.emulator.admin.addComment({ body: 'crypto again' });
    world.emulator.admin.addComment({ body: 'I said nothing' });
    bot.engine.dispatcher.start();
    await bot.engine.pollAllOnce();
    await bot.engine.dispatcher.drained();
    expect(bot.adapter.delivered('ai').map((m) => m.text)).toEqual(['AI is everywhere']);
    expect(bot.adapter.delivered('not-crypto').map((m) => m.text)).toEqual([
      'AI is everywhere',
      'I said nothing',
    ]);
  });

  it('posts a "starting soon" reminder once, inside the chosen lead time', async () => {
    const bot = await instance();
    await bot.engine.subscriptions.add({
      platform: 'console',
      channelId: 'events',
      feed: 'live',
      filters: { remindMinutes: 30 },
      createdBy: 't',
    });
    await bot.engine.pollAllOnce();
    world.emulator.admin.scheduleLive({
      name: 'Office hours',
      startsAt: new Date(Date.now() + 20 * 60_000).toISOString(),
    });
    bot.engine.dispatcher.start();
    await bot.engine.pollAllOnce();
    await bot.engine.pollAllOnce();
    await bot.engine.dispatcher.drained();
    const kinds = bot.adapter.delivered('events').map((m) => m.kind);
    expect(kinds.sort()).toEqual(['live', 'live-reminder']);
  });

  it('keeps queued items across a restart and delivers them once', async () => {
    const storeUrl = world.sqliteUrl();
    const down = new RecordingAdapter();
    down.behave('news', { kind: 'fail', times: 1000, retryAfterMs: 300 });
    const first = await instance({ storeUrl, adapters: [down] });
    await subscribeConsole(first, 'news', ['comments']);
    await first.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'survives a restart' });
    first.engine.dispatcher.start();
    await first.engine.pollAllOnce();
    await eventually(() => down.attempts.length === 1, 5000, 'the failed attempt');
    await first.close();

    const second = await instance({ storeUrl });
    await second.engine.start();
    await eventually(() => second.adapter.deliveries.length === 1, 10_000, 'delivery after restart');
    expect(second.adapter.delivered('news').map((m) => m.text)).toEqual(['survives a restart']);
    await second.engine.pollAllOnce();
    await second.engine.dispatcher.drained();
    expect(second.adapter.deliveries).toHaveLength(1);
  });

  it('pauses a channel that fails permanently without delaying the others', async () => {
    const bot = await instance();
    bot.adapter.behave('gone', { kind: 'reject', code: 'channel_not_found' });
    bot.adapter.behave('slow', { kind: 'slow', ms: 1500 });
    await subscribeConsole(bot, 'gone', ['comments']);
    await subscribeConsole(bot, 'slow', ['comments']);
    await subscribeConsole(bot, 'fine', ['comments']);
    await bot.engine.pollAllOnce();
    for (let i = 0; i < 3; i += 1) world.emulator.admin.addComment({ body: `comment ${i}` });
    bot.engine.dispatcher.start();
    await bot.engine.pollAllOnce();
    await eventually(
      () => bot.adapter.delivered('fine').length === 3,
      1000,
      'the healthy channel (while another crawls)',
    );
    expect(bot.adapter.delivered('slow').length).toBeLessThan(3);
    await bot.engine.dispatcher.drained();
    expect(bot.adapter.delivered('gone')).toHaveLength(0);
    expect(bot.adapter.attempts.filter((a) => a.channelId === 'gone')).toHaveLength(1);
    const paused = (await bot.engine.subscriptions.list()).filter((s) => s.paused);
    expect(paused.map((s) => [s.channelId, s.paused?.code])).toEqual([['gone', 'channel_not_found']]);
  });

  it('retries a transient failure after the platform’s Retry-After and delivers once', async () => {
    const bot = await instance();
    bot.adapter.behave('flaky', { kind: 'fail', times: 2, retryAfterMs: 100 });
    await subscribeConsole(bot, 'flaky', ['comments']);
    await bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'eventually' });
    bot.engine.dispatcher.start();
    await bot.engine.pollAllOnce();
    await bot.engine.dispatcher.drained();
    expect(bot.adapter.delivered('flaky')).toHaveLength(1);
    expect(bot.adapter.attempts.filter((a) => a.channelId === 'flaky')).toHaveLength(3);
  });
});

describe('upstream failures', () => {
  it.each([
    ['a 503', { kind: 'status' as const, status: 503 }],
    ['an HTML error page', { kind: 'html' as const }],
    ['malformed JSON', { kind: 'malformed-json' as const }],
    ['a dropped connection', { kind: 'drop' as const }],
    ['a 429', { kind: 'status' as const, status: 429 }],
  ])(
    'survives %s: the poll fails, is recorded, and the next one delivers everything once',
    async (_name, fault) => {
      const bot = await instance();
      await subscribeConsole(bot, 'news', ['comments']);
      await bot.engine.pollAllOnce();
      world.emulator.admin.addComment({ body: 'through the storm' });
      world.emulator.admin.injectFault({ route: '/v1/comments', count: 5, ...fault });
      bot.engine.dispatcher.start();
      await expect(bot.engine.pollAllOnce()).rejects.toThrow();
      world.emulator.admin.clearFaults();
      world.emulator.admin.resetQuotas();
      if ('status' in fault && fault.status === 429) {
        // The client paused the class until the reset; a fresh instance on the same store continues.
        await bot.close();
      }
      const next =
        'status' in fault && fault.status === 429 ? await instance({ storeUrl: world.sqliteUrl() }) : bot;
      if (next !== bot) {
        await subscribeConsole(next, 'news', ['comments']);
        await next.engine.pollAllOnce();
        world.emulator.admin.addComment({ body: 'through the storm' });
        next.engine.dispatcher.start();
      }
      await next.engine.pollAllOnce();
      await next.engine.dispatcher.drained();
      expect(next.adapter.delivered('news').map((m) => m.text)).toEqual(['through the storm']);
    },
  );

  it('skips and counts a malformed record without losing its neighbours', async () => {
    const bot = await instance();
    await subscribeConsole(bot, 'news', ['comments']);
    await bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'good one' });
    world.emulator.admin.injectFault({ route: '/v1/comments', count: 1, kind: 'bad-record' });
    bot.engine.dispatcher.start();
    await bot.engine.pollAllOnce();
    await bot.engine.dispatcher.drained();
    const skipped = bot.clientEvents.filter((e) => e.type === 'record-skipped');
    expect(skipped.length).toBeGreaterThanOrEqual(1);
    expect(bot.adapter.delivered('news').length).toBeLessThanOrEqual(1);
  });
});

describe('scheduling', () => {
  it('polls only feeds someone subscribed to, on its own, and reports health', async () => {
    const bot = await instance();
    await subscribeConsole(bot, 'news', ['comments']);
    await bot.engine.start();
    await eventually(() => bot.engine.leader.isLeader, 5000, 'leadership');
    await eventually(
      () => bot.engine.polling.health().some((h) => h.feed === 'comments' && h.lastSuccessAt),
      5000,
      'a poll',
    );
    world.emulator.admin.addComment({ body: 'found by the scheduler' });
    await eventually(() => bot.adapter.deliveries.length === 1, 10_000, 'scheduled delivery');
    const health = bot.engine.polling.health();
    expect(health.find((h) => h.feed === 'posts')?.lastPollAt).toBeUndefined();
    expect(health.find((h) => h.feed === 'comments')?.consecutiveFailures).toBe(0);
  });
});
