import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type App, createApp } from '../../src/app/create-app.js';
import { SANDBOX_STORE_NAMESPACE } from '../../src/app/sandbox.js';
import { loadConfig } from '../../src/config/load-config.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { createSilentLogger } from '../../src/observability/create-logger.js';
import { systemClock } from '../../src/ports/clock.js';
import { createStore } from '../../src/store/create-store.js';
import { CHANNEL_ZONES_KEY, REMINDERS_KEY } from '../../src/subscriptions/index.js';
import { SubscriptionRepository } from '../../src/subscriptions/subscription-repository.js';
import { eventually } from '../support/polling.js';
import { makeTempDir } from '../support/temp-dir.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());

/** Every sandbox and live run of one test shares this store, as `npm start` in one folder does. */
function storeUrl(name: string): string {
  return `sqlite://${join(temp.path, `${name}.sqlite`)}`;
}

/** Fast cadence, lots of invented activity: what takes minutes by default takes seconds here. */
const FAST = { PORT: '0', POLL_MIN_INTERVAL_S: '1', SANDBOX_ACTIVITY_PER_MIN: '600' };

interface RunningApp {
  app: App;
  /** Everything the console adapter printed so far. */
  output(): string;
}

async function startApp(environment: Record<string, string>): Promise<RunningApp> {
  let output = '';
  const app = createApp(loadConfig({ environment, envFile: false }), {
    logger: createSilentLogger(),
    consoleWrite: (text) => {
      output += text;
    },
  });
  await app.start();
  return { app, output: () => output };
}

const FEED_ITEM = '── #sandbox ──';

function commentIds(output: string): number[] {
  return [...output.matchAll(/[?&]comment=(\d+)/g)].map((m) => Number(m[1]));
}

function liveEventIds(output: string): number[] {
  return [...output.matchAll(/\/live\/[\w-]*?-(\d+)\b/g)].map((m) => Number(m[1]));
}

/** Resolves once the poller has read `route` at least once (its first poll: the baseline). */
async function polled(emulator: RunningEmulator, route: RegExp): Promise<void> {
  await eventually(
    () => Object.keys(emulator.admin.stats().requests.byRoute).some((r) => route.test(r)),
    15_000,
    `a poll of ${route}`,
  );
}

describe('sandbox state and live state', () => {
  it('a real directory after a sandbox run posts its own new comment and live event, whatever ids the sandbox used', async () => {
    const store = storeUrl('switch');

    // The sandbox posts invented comments and live events, moving its positions past them.
    const sandbox = await startApp({ ...FAST, STORE_URL: store });
    let sandboxComments: number[] = [];
    let sandboxLive: number[] = [];
    try {
      await eventually(
        () => {
          sandboxComments = commentIds(sandbox.output());
          sandboxLive = liveEventIds(sandbox.output());
          return sandboxComments.some((id) => id > 321) && sandboxLive.length > 0;
        },
        25_000,
        'the sandbox to post comments and a live event',
      );
    } finally {
      await sandbox.app.stop();
    }
    const sandboxLiveId = Math.min(...sandboxLive);

    // A different directory on another port: other data, and ids that overlap the sandbox's.
    const real = await startEmulator({ port: 0, seed: 7 });
    try {
      // Its live events before `sandboxLiveId` already exist when the bot starts.
      while (real.admin.latestLiveEventId() < sandboxLiveId - 1) real.admin.scheduleLive({});
      const live = await startApp({
        PORT: '0',
        POLL_MIN_INTERVAL_S: '1',
        STORE_URL: store,
        DIRECTORY_BASE_URL: real.url,
        DIRECTORY_TOKEN: 'dev-token',
        SUBSCRIPTIONS: 'console:sandbox=comments;console:sandbox=live',
      });
      try {
        // A new directory starts from "now": after its first look, these are new.
        await polled(real, /comments/);
        await polled(real, /live/);
        const commentId = Number(
          real.admin.addComment({ body: 'A real comment about the real directory' })['id'],
        );
        const eventId = Number(real.admin.scheduleLive({ name: 'A real live event' })['id']);
        expect(commentId).toBeLessThan(Math.max(...sandboxComments));
        expect(eventId).toBe(sandboxLiveId);

        await eventually(
          () => live.output().includes('A real comment about the real directory'),
          20_000,
          `new comment ${commentId} (the sandbox's cursor was past it)`,
        );
        await eventually(
          () => live.output().includes('A real live event'),
          20_000,
          `new live event ${eventId} (the sandbox had posted an event with that id)`,
        );
        expect(commentIds(live.output())).toContain(commentId);
        expect(liveEventIds(live.output())).toContain(eventId);
      } finally {
        await live.app.stop();
      }
    } finally {
      await real.close();
    }
  }, 60_000);

  it('a second sandbox start in the same folder shows feed items like the first did', async () => {
    const store = storeUrl('restart');

    // A first run that invents (and posts) about a hundred events.
    const first = await startApp({ ...FAST, STORE_URL: store });
    try {
      await eventually(() => first.output().includes(FEED_ITEM), 15_000, 'the first run to show an item');
      await new Promise((resolve) => setTimeout(resolve, 5000));
    } finally {
      await first.app.stop();
    }

    // The emulator invents its world afresh from the same seed, so its ids start again where
    // the first run's did. Inventing more slowly, this run would need most of a minute to
    // pass the first run's positions if it read them: before the fix it stayed silent.
    const second = await startApp({ ...FAST, SANDBOX_ACTIVITY_PER_MIN: '120', STORE_URL: store });
    try {
      await eventually(() => second.output().includes(FEED_ITEM), 12_000, 'the second run to show an item');
    } finally {
      await second.app.stop();
    }
  }, 60_000);

  it('a second sandbox start forgets everything changed at the prompt: subscriptions, a digest, reminders, zones', async () => {
    const store = storeUrl('afresh');
    const first = await startApp({ ...FAST, STORE_URL: store });
    await eventually(() => first.output().includes(FEED_ITEM), 15_000, 'the first run to show an item');
    await first.app.stop();

    // What a person did at the first run's prompt, as its commands store it.
    const kept = createStore({ url: store, namespace: SANDBOX_STORE_NAMESPACE });
    const subscriptions = new SubscriptionRepository({
      keyv: kept.keyv,
      leases: kept.leases,
      clock: systemClock,
    });
    const seeded = await subscriptions.list();
    expect(seeded.map((s) => s.feed).sort()).toEqual([
      'collections',
      'comments',
      'live',
      'notifications',
      'posts',
    ]);
    await subscriptions.add({
      platform: 'console',
      channelId: 'sandbox',
      feed: 'comments',
      filters: { keywords: ['launch'] },
      createdBy: 'console',
    });
    const digest = await subscriptions.add({
      platform: 'console',
      channelId: 'sandbox',
      feed: 'posts',
      filters: {},
      schedule: { digest: { every: 'hourly' } },
      createdBy: 'console',
    });
    expect(digest.rescheduled).toBe(true);
    await kept.keyv.set(REMINDERS_KEY, [{ id: 'r1', eventId: 111 }]);
    await kept.keyv.set(CHANNEL_ZONES_KEY, [
      { platform: 'console', channelId: 'sandbox', zone: 'Asia/Tokyo' },
    ]);
    await kept.close();

    const second = await startApp({ ...FAST, STORE_URL: store });
    try {
      await eventually(() => second.output().includes(FEED_ITEM), 15_000, 'the second run to show an item');
      const after = createStore({ url: store, namespace: SANDBOX_STORE_NAMESPACE });
      try {
        const now = await new SubscriptionRepository({
          keyv: after.keyv,
          leases: after.leases,
          clock: systemClock,
        }).list();
        // The seeded five, as configured: no added subscription, no digest on the posts one.
        expect(now.map((s) => [s.feed, s.filters, s.schedule])).toEqual(
          seeded.map((s) => [s.feed, s.filters, undefined]),
        );
        expect(await after.keyv.get(REMINDERS_KEY)).toBeUndefined();
        expect(await after.keyv.get(CHANNEL_ZONES_KEY)).toBeUndefined();
      } finally {
        await after.close();
      }
    } finally {
      await second.app.stop();
    }
  }, 60_000);

  it("a sandbox on a live bot's explicit store leaves the live bot's subscriptions as they were", async () => {
    const store = storeUrl('shared');
    // What a live bot with SUBSCRIPTIONS=slack:C0LIVE=comments seeded, plus one added by a command.
    const live = createStore({ url: store });
    const liveSubscriptions = new SubscriptionRepository({
      keyv: live.keyv,
      leases: live.leases,
      clock: systemClock,
    });
    await liveSubscriptions.seed([{ platform: 'slack', channelId: 'C0LIVE', feed: 'comments', filters: {} }]);
    await liveSubscriptions.add({
      platform: 'discord',
      channelId: '1234',
      feed: 'live',
      filters: {},
      createdBy: 'U1',
    });
    const before = await liveSubscriptions.list();

    const sandbox = await startApp({ ...FAST, STORE_URL: store });
    try {
      await eventually(() => sandbox.output().includes(FEED_ITEM), 15_000, 'the sandbox to show an item');
    } finally {
      await sandbox.app.stop();
    }

    // Before the fix the sandbox's seed replaced every SUBSCRIPTIONS route with its console ones.
    expect(await liveSubscriptions.list()).toEqual(before);
    await live.close();
  }, 30_000);
});
