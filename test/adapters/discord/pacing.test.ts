import Keyv from 'keyv';
import { afterEach, describe, expect, it } from 'vitest';
import type { DiscordRestEvent } from '../../../adapters/discord/index.js';
import { DeliveredLedger } from '../../../src/delivery/delivered-ledger.js';
import type { DispatchEvent } from '../../../src/delivery/dispatch/delivery-attempt.js';
import { Dispatcher } from '../../../src/delivery/dispatch/dispatcher.js';
import { Outbox, type OutboxEntry } from '../../../src/delivery/outbox.js';
import { systemClock } from '../../../src/ports/clock.js';
import type { ChatAdapter } from '../../../src/ports/index.js';
import { SubscriptionRepository } from '../../../src/subscriptions/subscription-repository.js';
import { FakeDiscordRest } from '../../fakes/discord/fake-discord-rest.js';
import { DELIVERY_TOKEN, deliveryAdapter } from '../../support/discord-delivery.js';
import { sampleMessage } from '../../support/discord-interactions.js';
import { freeLeases } from '../../support/free-leases.js';

const channelId = (i: number) => String(400_000_000_000_000_000n + BigInt(i));

function entry(channel: string, n: number): OutboxEntry {
  return {
    destination: { platform: 'discord', channelId: channel },
    destinationKey: `discord:${channel}`,
    itemKey: `comments:new:${n}`,
    message: sampleMessage({ title: `update ${n}` }),
    subscriptionIds: ['s1'],
    enqueuedAt: n,
    attempts: 0,
    notBefore: 0,
  };
}

/**
 * The outbox, the real Discord adapter (discord.js REST) and the fake REST API together: what a
 * server with many subscribed channels sees when a burst of updates goes out.
 */
describe('Discord delivery pacing', () => {
  let rest: FakeDiscordRest | undefined;
  let adapter: ChatAdapter | undefined;
  let dispatcher: Dispatcher | undefined;

  afterEach(async () => {
    await dispatcher?.stop();
    await adapter?.stop();
    await rest?.close();
  });

  async function burst(options: { channels: number; perChannel: number; bucketLimit: number }) {
    // A channel bucket far tighter than Discord's 5 per 5 s: a pace that is hard coded instead of
    // read from the headers would post into an empty bucket.
    rest = new FakeDiscordRest({
      token: DELIVERY_TOKEN,
      bucket: { limit: options.bucketLimit, windowMs: 1_000 },
    });
    await rest.listen();
    const sdkEvents: DiscordRestEvent[] = [];
    adapter = deliveryAdapter(rest.url, (event) => sdkEvents.push(event));
    // Not started: start()'s token check is a request outside the outbox, counted in the same
    // global second as the burst's first fifty (docs/discord.md, "Delivery and rate limits").
    const keyv = new Keyv();
    const outbox = new Outbox({ keyv, directoryId: 'pacing' });
    const entries: OutboxEntry[] = [];
    for (let i = 0; i < options.channels; i += 1) {
      rest.addChannel(channelId(i));
      for (let n = 0; n < options.perChannel; n += 1) entries.push(entry(channelId(i), n));
    }
    await outbox.enqueue(entries);
    const dispatched: DispatchEvent[] = [];
    dispatcher = new Dispatcher({
      outbox,
      ledger: new DeliveredLedger({ keyv, ttlMs: 60_000, directoryId: 'pacing' }),
      subscriptions: new SubscriptionRepository({ keyv, leases: freeLeases, clock: systemClock }),
      adapters: new Map([['discord', adapter]]),
      clock: systemClock,
      onEvent: (event) => dispatched.push(event),
    });
    dispatcher.start();
    await dispatcher.drained();
    return { rest, dispatched, sdkEvents };
  }

  it('a burst to more channels than the global limit allows at once gets no 429 and no retry', async () => {
    const { rest, dispatched, sdkEvents } = await burst({ channels: 60, perChannel: 2, bucketLimit: 1 });

    expect(rest.calls.filter((call) => call.status === 429)).toEqual([]);
    expect(dispatched.filter((event) => event.type !== 'delivered')).toEqual([]);
    // discord.js never had to hold a post back either: the outbox waited for the buckets itself.
    expect(sdkEvents.filter((event) => event.type === 'rateLimited')).toEqual([]);
    for (let i = 0; i < 60; i += 1) {
      const titles = rest.messages
        .get(channelId(i))
        ?.map((m) => (m.body['embeds'] as { title: string }[])[0]?.title);
      expect(titles).toEqual(['update 0', 'update 1']);
    }
  });
});
