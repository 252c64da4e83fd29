import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../src/delivery/outbox.js';
import { createDirectoryClient } from '../../src/directory/index.js';
import { createItemComposer } from '../../src/engine/compose-item.js';
import { createEngine, type EngineOptions } from '../../src/engine/engine.js';
import { systemClock } from '../../src/ports/clock.js';
import type { BotStore } from '../../src/store/bot-store.js';
import { createStore } from '../../src/store/create-store.js';
import { directoryIdFor, LEGACY_POLLER_LEASE } from '../../src/store/directory-keys.js';
import type { SubscriptionSeed } from '../../src/subscriptions/subscription-spec.js';
import { startWorld, TEST_SETTINGS } from '../support/engine-harness.js';
import { eventually } from '../support/polling.js';
import { RecordingAdapter } from '../support/recording-adapter.js';

let world: Awaited<ReturnType<typeof startWorld>>;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world.close());

/** A bot of this version on `store`, reading the world's emulator, posting to Slack. */
function startBot(store: BotStore, extra: Partial<EngineOptions> = {}) {
  const client = createDirectoryClient({ baseUrl: world.emulator.url, token: 'dev-token' });
  const slack = new RecordingAdapter('slack');
  const console = new RecordingAdapter('console');
  const engine = createEngine({
    store,
    client,
    directoryId: directoryIdFor(world.emulator.url),
    upgradeFromUnprefixedState: true,
    adapters: [slack, console],
    clock: systemClock,
    compose: createItemComposer(systemClock),
    settings: TEST_SETTINGS,
    ...extra,
  });
  return {
    engine,
    slack,
    console,
    async stop() {
      await engine.stop();
      await client.close();
    },
  };
}

describe('upgrading from a version without directory keys', () => {
  it('does not poll while a dyno of the earlier version still holds its poller lease', async () => {
    const store = createStore({ url: world.sqliteUrl() });
    // The old dyno of a Heroku preboot overlap: polling under the lease name it knows.
    expect(await store.leases.acquire(LEGACY_POLLER_LEASE, 'old-dyno', 60_000)).toBe(true);
    const bot = startBot(store);
    try {
      await bot.engine.start();
      // Several lease rounds (renewal every 200 ms): before the fix it led in the first.
      await new Promise((resolve) => setTimeout(resolve, 800));
      expect(bot.engine.leader.isLeader).toBe(false);

      // The old dyno stops and releases its lease: the new one takes over.
      await store.leases.release(LEGACY_POLLER_LEASE, 'old-dyno');
      await eventually(() => bot.engine.leader.isLeader, 3000, 'the new version to lead');

      // An earlier version started again (a rollback) makes it stand down rather than both post.
      expect(await store.leases.acquire(LEGACY_POLLER_LEASE, 'rolled-back-dyno', 60_000)).toBe(true);
      await eventually(() => !bot.engine.leader.isLeader, 3000, 'the new version to stand down');
    } finally {
      await bot.stop();
      await store.close();
    }
  });

  /** A message an earlier version queued and never got to post. */
  function queued(platform: string, channelId: string, title: string): OutboxEntry {
    return {
      destination: { platform, channelId },
      destinationKey: `${platform}:${channelId}`,
      itemKey: `comment:${title}`,
      message: { kind: 'comment', title, fallback: title },
      subscriptionIds: ['s1'],
      enqueuedAt: Date.now() - 60_000,
      attempts: 0,
      notBefore: 0,
    };
  }

  it('posts the messages an earlier version left queued for real channels, once, and not what it had already posted', async () => {
    const store = createStore({ url: world.sqliteUrl() });
    // What the earlier version left in the store (keys without a directory id): a message
    // waiting for Slack, one it posted but died before removing (its ledger says so), and
    // a sandbox run's console message.
    const waiting = queued('slack', 'C1', 'Waiting for Slack');
    const alreadyPosted = queued('slack', 'C2', 'Already posted to Slack');
    const sandboxLine = queued('console', 'sandbox', 'An invented comment');
    await store.keyv.set('outbox:destinations', ['slack:C1', 'slack:C2', 'console:sandbox']);
    await store.keyv.set('outbox:queue:slack:C1', [waiting]);
    await store.keyv.set('outbox:queue:slack:C2', [alreadyPosted]);
    await store.keyv.set('outbox:queue:console:sandbox', [sandboxLine]);
    await store.keyv.set(`sent:slack:C2:${alreadyPosted.itemKey}`, 1, 86_400_000);

    const first = startBot(store);
    try {
      await first.engine.start();
      await eventually(() => first.slack.delivered('C1').length > 0, 5000, 'the queued Slack message');
      // Give the other two every chance to be (wrongly) posted.
      await eventually(() => first.engine.outbox.size() === 0, 5000, 'the outbox to drain');
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await first.stop();
    }
    // A restart does not move (or post) anything again.
    await store.keyv.set('outbox:destinations', ['slack:C3']);
    await store.keyv.set('outbox:queue:slack:C3', [queued('slack', 'C3', 'Written after the upgrade')]);
    const second = startBot(store);
    try {
      await second.engine.start();
      await eventually(() => second.engine.leader.isLeader, 3000, 'the restarted bot to lead');
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      await second.stop();
      await store.close();
    }

    expect(first.slack.delivered('C1').map((m) => m.title)).toEqual(['Waiting for Slack']);
    expect(first.slack.delivered('C2')).toEqual([]);
    expect(first.console.deliveries).toEqual([]);
    expect(second.slack.deliveries).toEqual([]);
  });
});

describe('changing directory and coming back', () => {
  const commentsToSlack: SubscriptionSeed[] = [
    { platform: 'slack', channelId: 'C1', feed: 'comments', filters: {} },
  ];
  const commentPolls = () =>
    Object.entries(world.emulator.admin.stats().requests.byRoute)
      .filter(([route]) => /comments/.test(route))
      .reduce((sum, [, count]) => sum + Number(count), 0);
  const posted = (adapter: RecordingAdapter) => JSON.stringify(adapter.delivered('C1'));

  it('starts from "now" on a return to a directory read before, dropping what it had queued then', async () => {
    const store = createStore({ url: world.sqliteUrl() });
    const directoryA = directoryIdFor(world.emulator.url);

    // Directory A, read for a while: its feeds have positions.
    const firstA = startBot(store, { seeds: commentsToSlack });
    await firstA.engine.start();
    const polls = commentPolls();
    await eventually(() => commentPolls() > polls, 15_000, 'a poll of A');
    await firstA.stop();
    // A message for A still queued when the bot left it (Slack was down, say).
    await store.keyv.set(`dir:${directoryA}:outbox:destinations`, ['slack:C1']);
    await store.keyv.set(`dir:${directoryA}:outbox:queue:slack:C1`, [
      {
        destination: { platform: 'slack', channelId: 'C1' },
        destinationKey: 'slack:C1',
        itemKey: 'comment:stale',
        message: { kind: 'comment', title: 'Queued when A was left', fallback: 'Queued when A was left' },
        subscriptionIds: ['s1'],
        enqueuedAt: Date.now(),
        attempts: 3,
        notBefore: 0,
      } satisfies OutboxEntry,
    ]);

    // The operator points the bot at directory B; meanwhile A goes on without it.
    const b = startBot(store, { seeds: commentsToSlack, directoryId: 'another-directory' });
    await b.engine.start();
    await eventually(() => b.engine.leader.isLeader, 3000, 'the bot on B to lead');
    await b.stop();
    world.emulator.admin.addComment({ body: 'Said while the bot read B' });

    // Back to A: like a first run, only what comes after this start is posted.
    const secondA = startBot(store, { seeds: commentsToSlack });
    try {
      await secondA.engine.start();
      const before = commentPolls();
      await eventually(() => commentPolls() > before, 15_000, 'the first poll after coming back');
      world.emulator.admin.addComment({ body: 'Said after coming back' });
      await eventually(
        () => posted(secondA.slack).includes('Said after coming back'),
        5000,
        'the new comment',
      );
    } finally {
      await secondA.stop();
      await store.close();
    }
    expect(posted(secondA.slack)).not.toContain('Said while the bot read B');
    expect(posted(secondA.slack)).not.toContain('Queued when A was left');
  });

  it('resumes where it was after a restart on the same directory', async () => {
    const store = createStore({ url: world.sqliteUrl() });
    // A poll that has finished, so its position is stored: a request the emulator saw may
    // still be cut short by the stop, and a bot stopped before its first position is stored
    // rightly starts from "now" next time.
    let finishedPolls = 0;
    const first = startBot(store, {
      seeds: commentsToSlack,
      onEvent: (event) => {
        if (event.source === 'polling' && event.type === 'polled') finishedPolls += 1;
      },
    });
    await first.engine.start();
    await eventually(() => finishedPolls > 0, 15_000, 'a finished poll');
    await first.stop();
    world.emulator.admin.addComment({ body: 'Said during the restart' });

    const second = startBot(store, { seeds: commentsToSlack });
    try {
      await second.engine.start();
      await eventually(() => posted(second.slack).includes('Said during the restart'), 15_000, 'the comment');
    } finally {
      await second.stop();
      await store.close();
    }
  });
});
