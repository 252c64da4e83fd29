import Keyv from 'keyv';
import { DeliveredLedger } from '../../src/delivery/delivered-ledger.js';
import { Dispatcher } from '../../src/delivery/dispatch/dispatcher.js';
import { Outbox } from '../../src/delivery/outbox.js';
import { runFeedOnce } from '../../src/engine/feed-runner.js';
import type { Feed } from '../../src/feeds/feed.js';
import type { FeedItem } from '../../src/feeds/feed-item.js';
import type { ComposeDigest } from '../../src/held-items/release-entries.js';
import { createScheduling, type SchedulingEvent } from '../../src/held-items/scheduling.js';
import type { Clock } from '../../src/ports/clock.js';
import type { Message } from '../../src/ports/index.js';
import type { ScheduleOptions } from '../../src/schedule/schedule-options.js';
import { formatLocal } from '../../src/schedule/schedule-slots.js';
import { SubscriptionRepository } from '../../src/subscriptions/subscription-repository.js';
import { freeLeases } from './free-leases.js';
import { RecordingAdapter } from './recording-adapter.js';

/**
 * A stand-in for src/messages' composeDigest, for these tests only: one message per 10 items,
 * titled so a test reads what arrived ("digest 3 items … late"); laid out as asked, so the
 * `summary` layout is the first message alone, saying how many more and where.
 */
export const testComposeDigest: ComposeDigest = (input, layout) => {
  const shown =
    input.top === undefined
      ? input.items
      : [...input.items].sort((a, b) => (b.votes ?? 0) - (a.votes ?? 0)).slice(0, input.top);
  const chunks = shown.length === 0 ? [[]] : chunk(shown, 10);
  const late =
    input.lateFor === undefined ? '' : ` late for ${formatLocal(input.lateFor, input.zone, 'day-time')}`;
  const messages = chunks.map((items, i): Message => {
    const part = chunks.length > 1 ? ` ${i + 1}/${chunks.length}` : '';
    const title = `${input.kind} ${input.items.length} items${part}${late}`;
    return { kind: 'info', title, text: items.map((item) => item.message.title).join('\n'), fallback: title };
  });
  if (layout.rest !== 'summary' || messages.length === 1) return messages;
  const rest = shown.length - (chunks[0]?.length ?? 0);
  const [first] = messages;
  return first ? [{ ...first, text: `${first.text}\nand ${rest} more: ${layout.seeMore}` }] : [];
};

function chunk<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

/** A `posts` item found at `discoveredAt`, titled by its id. */
export function postItem(id: string, discoveredAt: number, votes = 0): FeedItem {
  return {
    feed: 'posts',
    event: 'new',
    id,
    key: `posts:new:${id}`,
    record: { type: 'post', post: { id, name: `post ${id}`, votesCount: votes, makers: [], topics: [] } },
    facets: { text: `post ${id}`, usernames: [], postRefs: [id], votes },
    discoveredAt,
  };
}

/** The live feed's "starting soon" for an event starting at `startsAt`, found at `discoveredAt`. */
export function liveReminderItem(id: string, startsAt: number, discoveredAt: number): FeedItem {
  return {
    feed: 'live',
    event: 'reminder',
    id,
    key: `live:reminder:${id}`,
    record: {
      type: 'live',
      event: { id, name: `event ${id}`, startsAt: new Date(startsAt).toISOString(), liveVideo: false },
    },
    facets: { text: `event ${id}`, usernames: [], postRefs: [] },
    discoveredAt,
  };
}

/** A feed whose next poll returns whatever the test pushed. */
export class ScriptedFeed implements Feed<number> {
  readonly name = 'posts' as const;
  readonly quotaClass = 'v2-requests' as const;
  readonly costPerPoll = 1;
  pending: FeedItem[] = [];
  async poll(state: number | undefined) {
    return { items: this.pending.splice(0), nextState: (state ?? 0) + 1 };
  }
  async recent() {
    return [];
  }
}

/**
 * One poller's worth of the schedule pipeline on a shared store (in memory unless given) and a clock (manual in tests):
 * the real feed runner, held-items store, schedule runner, outbox, ledger and dispatcher, posting
 * to a recording adapter. `restart()` builds a new poller on the same store (a crash).
 */
export function scheduleWorld(
  clock: Clock,
  keyv = new Keyv(),
  adapter = new RecordingAdapter(),
  composeDigest: ComposeDigest = testComposeDigest,
) {
  const events: SchedulingEvent[] = [];
  let lastQueuedAt = 0;
  const feed = new ScriptedFeed();
  const subscriptions = new SubscriptionRepository({ keyv, leases: freeLeases, clock });
  const outbox = new Outbox({ keyv, directoryId: 'test' });
  const ledger = new DeliveredLedger({ keyv, ttlMs: 30 * 86_400_000, directoryId: 'test' });
  const dispatcher = new Dispatcher({
    outbox,
    ledger,
    subscriptions,
    adapters: new Map([[adapter.platform, adapter]]),
    clock,
  });
  const scheduling = createScheduling(
    { zoneOf: async (s) => s.schedule?.timeZone ?? 'UTC', composeDigest },
    {
      keyv,
      directoryId: 'test',
      subscriptions,
      outbox,
      ledger,
      clock,
      wake: () => dispatcher.wake(),
      platforms: () => new Set([adapter.platform]),
      repliesInThreads: () => adapter.repliesInThreads,
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'released' && event.messages > 0) lastQueuedAt = clock.now();
      },
    },
  );
  return {
    keyv,
    adapter,
    feed,
    events,
    outbox,
    held: scheduling.held,
    runner: scheduling.runner,
    /** When the last release queued a message (clock time): the runner's part of a digest's lateness. */
    lastQueuedAt: () => lastQueuedAt,
    subscriptions,
    async begin() {
      await outbox.load();
      dispatcher.start();
    },
    subscribe(schedule: ScheduleOptions | undefined, channelId = 'C1', feedName: 'posts' | 'live' = 'posts') {
      return subscriptions.add({
        platform: adapter.platform,
        channelId,
        feed: feedName,
        filters: {},
        ...(schedule ? { schedule } : {}),
        createdBy: 'U1',
      });
    },
    /** One poll finding these posts (discovered now), or these items. */
    async poll(...found: (string | FeedItem)[]) {
      feed.pending.push(...found.map((f) => (typeof f === 'string' ? postItem(f, clock.now()) : f)));
      const summary = await runFeedOnce(feed, {
        store: keyv,
        directoryId: 'test',
        subscriptions,
        outbox,
        ledger,
        dispatcher,
        compose: (item) => ({ kind: 'post', title: item.id, fallback: item.id }),
        clock,
        defaultRemindMinutes: 15,
        schedule: scheduling.gate,
      });
      await dispatcher.drained(2);
      return summary;
    },
    /** One schedule tick, then every queued message delivered. */
    async tick() {
      const result = await scheduling.runner.runOnce();
      await dispatcher.drained(2);
      return result;
    },
    titles: (channelId = 'C1') => adapter.delivered(channelId).map((m) => m.title),
    async stop() {
      await dispatcher.stop();
    },
  };
}
