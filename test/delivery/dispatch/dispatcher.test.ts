import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { DeliveredLedger, type PostedReference } from '../../../src/delivery/delivered-ledger.js';
import type { DispatchEvent } from '../../../src/delivery/dispatch/delivery-attempt.js';
import { Dispatcher } from '../../../src/delivery/dispatch/dispatcher.js';
import { Outbox, type OutboxEntry } from '../../../src/delivery/outbox.js';
import { systemClock } from '../../../src/ports/clock.js';
import type { ChatAdapter, DeliveryOutcome, Destination, Message } from '../../../src/ports/index.js';
import { SubscriptionRepository } from '../../../src/subscriptions/subscription-repository.js';
import { freeLeases } from '../../support/free-leases.js';

/** A ledger whose writes can be made to fail, as a store outage would. */
class FlakyLedger extends DeliveredLedger {
  failWrites = 0;
  override async markDelivered(
    destination: string,
    itemKey: string,
    reference?: PostedReference,
  ): Promise<void> {
    if (this.failWrites > 0) {
      this.failWrites -= 1;
      throw new Error('store unavailable');
    }
    await super.markDelivered(destination, itemKey, reference);
  }
}

/** A platform scripted per message text. */
class ScriptedPlatform implements ChatAdapter {
  readonly platform = 'console';
  readonly pacing = {
    perDestination: { ratePerSecond: 1000, burst: 1000 },
    global: { ratePerSecond: 1000, burst: 1000 },
  };
  posted: string[] = [];
  /** Every message as the platform received it. */
  received: Message[] = [];
  script = new Map<string, DeliveryOutcome[]>();
  async start() {}
  async stop() {}
  health() {
    return { ready: true };
  }
  async deliver(_destination: Destination, message: Message): Promise<DeliveryOutcome> {
    this.received.push(message);
    const next = this.script.get(message.title)?.shift();
    if (next) return next;
    this.posted.push(message.title);
    return { status: 'delivered', platformMessageId: `m-${message.title}` };
  }
}

function entry(title: string, channelId = 'C1'): OutboxEntry {
  return {
    destination: { platform: 'console', channelId },
    destinationKey: `console:${channelId}`,
    itemKey: `comments:new:${title}`,
    message: { kind: 'comment', title, fallback: title },
    subscriptionIds: ['s1'],
    enqueuedAt: 0,
    attempts: 0,
    notBefore: 0,
  };
}

/** A platform whose posts hang until the test lets them through, as a platform that stopped answering. */
class StalledPlatform implements ChatAdapter {
  readonly pacing = { global: { ratePerSecond: 1000, burst: 1000 } };
  inFlight = 0;
  readonly #waiting: (() => void)[] = [];
  constructor(readonly platform: string) {}
  async start() {}
  async stop() {}
  health() {
    return { ready: true };
  }
  async deliver(): Promise<DeliveryOutcome> {
    this.inFlight += 1;
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
    return { status: 'delivered' };
  }
  release(): void {
    for (const resolve of this.#waiting.splice(0)) resolve();
  }
}

function setup() {
  const keyv = new Keyv();
  const outbox = new Outbox({ keyv, directoryId: 'test' });
  const ledger = new FlakyLedger({ keyv, ttlMs: 60_000, directoryId: 'test' });
  const subscriptions = new SubscriptionRepository({ keyv, leases: freeLeases, clock: systemClock });
  const platform = new ScriptedPlatform();
  const dispatcher = new Dispatcher({
    outbox,
    ledger,
    subscriptions,
    adapters: new Map([['console', platform]]),
    clock: systemClock,
  });
  return { keyv, outbox, ledger, subscriptions, platform, dispatcher };
}

describe('the dispatcher', () => {
  it('adds "Mute this subscription" for the subscription each message is delivered for, storing nothing for it', async () => {
    const { outbox, platform, dispatcher } = setup();
    const open = { kind: 'link' as const, label: 'Open', url: 'https://directory.example/posts/1' };
    const queued = { ...entry('muted'), message: { ...entry('muted').message, actions: [open] } };
    await outbox.enqueue([queued]);
    dispatcher.start();
    await dispatcher.drained(5);
    await dispatcher.stop();
    expect(platform.received[0]?.actions).toEqual([
      open,
      { kind: 'command', label: 'Mute this subscription', verb: 'mute', target: 's1', command: 'pause s1' },
    ]);
    // Added on the way out: the queued message (composed once, shared by destinations) is untouched.
    expect(queued.message.actions).toEqual([open]);
  });

  it('adds no Mute button to a compact or title message: those formats carry no buttons', async () => {
    const { outbox, platform, dispatcher } = setup();
    await outbox.enqueue([{ ...entry('line'), message: { ...entry('line').message, layout: 'line' } }]);
    dispatcher.start();
    await dispatcher.drained(5);
    await dispatcher.stop();
    expect(platform.received[0]?.title).toBe('line');
    expect(platform.received[0]?.actions).toBeUndefined();
  });

  it('never posts twice when recording a delivery fails after the platform confirmed it', async () => {
    const { outbox, ledger, platform, dispatcher } = setup();
    ledger.failWrites = 1;
    await outbox.enqueue([entry('once')]);
    dispatcher.start();
    await dispatcher.drained(5);
    await dispatcher.stop();
    expect(platform.posted).toEqual(['once']);
    expect(await ledger.delivered([{ destination: 'console:C1', itemKey: 'comments:new:once' }])).toEqual([
      true,
    ]);
    // Where it was posted survives the failed first recording: threads and edits need it.
    expect((await ledger.reference('console:C1', 'comments:new:once'))?.messageId).toBe('m-once');
  });

  it('drops a message the platform can never accept and carries on with the channel', async () => {
    const { outbox, subscriptions, platform, dispatcher } = setup();
    await subscriptions.add({
      platform: 'console',
      channelId: 'C1',
      feed: 'comments',
      filters: {},
      createdBy: 't',
    });
    platform.script.set('broken', [
      { status: 'rejected', scope: 'message', code: 'invalid_blocks', reason: 'bad image' },
    ]);
    await outbox.enqueue([entry('broken'), entry('fine')]);
    dispatcher.start();
    await dispatcher.drained(5);
    await dispatcher.stop();
    expect(platform.posted).toEqual(['fine']);
    expect((await subscriptions.list()).every((s) => !s.paused)).toBe(true);
  });

  it('does not send a message routed just before its channel refused the bot, and sends one routed after a resume', async () => {
    const { outbox, subscriptions, platform, dispatcher } = setup();
    const { subscription } = await subscriptions.add({
      platform: 'console',
      channelId: 'C1',
      feed: 'comments',
      filters: {},
      createdBy: 't',
    });
    const routed = (title: string) => ({ ...entry(title), subscriptionIds: [subscription.id] });
    platform.script.set('archived', [
      { status: 'rejected', scope: 'destination', code: 'is_archived', reason: 'channel archived' },
    ]);
    await outbox.enqueue([routed('archived')]);
    dispatcher.start();
    await dispatcher.drained(5);
    // Routing read the subscriptions before the pause was written: its message arrives after the drop.
    await outbox.enqueue([routed('routed before the pause')]);
    dispatcher.wake();
    await dispatcher.drained(5);
    expect(platform.received.map((m) => m.title)).toEqual(['archived']);
    expect((await subscriptions.list())[0]?.paused?.code).toBe('is_archived');
    // Once the channel is followed again, its messages go.
    await subscriptions.resume('console', 'C1', subscription.id);
    await outbox.enqueue([routed('after the resume')]);
    dispatcher.wake();
    await dispatcher.drained(5);
    await dispatcher.stop();
    expect(platform.posted).toEqual(['after the resume']);
  });

  it('keeps retrying through a long rate-limit storm without giving up', async () => {
    const { outbox, platform, dispatcher } = setup();
    const storm = Array.from({ length: 40 }, () => ({
      status: 'failed' as const,
      code: 'rate_limited',
      reason: '429',
      retryAfterMs: 1,
    }));
    platform.script.set('patient', storm);
    await outbox.enqueue([entry('patient')]);
    dispatcher.start();
    await dispatcher.drained(5);
    await dispatcher.stop();
    expect(platform.posted).toEqual(['patient']);
  });

  it('after a takeover, does not re-post what the previous poller delivered but did not remove', async () => {
    const { keyv, ledger, platform } = setup();
    const previous = new Outbox({ keyv, directoryId: 'test' });
    await previous.enqueue([entry('already-sent'), entry('not-yet')]);
    await ledger.markDelivered('console:C1', 'comments:new:already-sent');

    const outbox = new Outbox({ keyv, directoryId: 'test' });
    expect(await outbox.load()).toBe(2);
    const dispatcher = new Dispatcher({
      outbox,
      ledger,
      subscriptions: new SubscriptionRepository({ keyv, leases: freeLeases, clock: systemClock }),
      adapters: new Map([['console', platform]]),
      clock: systemClock,
      onEvent: (event) => events.push(event),
    });
    const events: DispatchEvent[] = [];
    dispatcher.start();
    await dispatcher.drained(5);
    await dispatcher.stop();
    expect(platform.posted).toEqual(['not-yet']);
    // Each check is reported, so a takeover's saved duplicates can be counted (logs, benchmarks).
    expect(
      events
        .filter((e) => e.type === 'ledger-checked')
        .map((e) => [e.entry.itemKey, e.alreadyPosted, e.takeover]),
    ).toEqual([
      ['comments:new:already-sent', true, true],
      ['comments:new:not-yet', false, true],
    ]);
  });

  it('takes channels in turns: in a burst, every channel gets its first message before any gets its second', async () => {
    const { outbox, platform, dispatcher } = setup();
    const channels = Array.from({ length: 40 }, (_, i) => `C${i}`);
    await outbox.enqueue(
      channels.flatMap((channel) => [1, 2, 3].map((n) => entry(`${channel}-${n}`, channel))),
    );
    dispatcher.start();
    await dispatcher.drained(5);
    await dispatcher.stop();
    // One channel after another, each would empty its own rate-limit bucket while the last
    // channels had nothing yet, and their final messages would wait out their buckets at the end.
    expect(platform.posted.slice(0, 40).sort()).toEqual(channels.map((c) => `${c}-1`).sort());
    expect(platform.posted.slice(40, 80).sort()).toEqual(channels.map((c) => `${c}-2`).sort());
    for (const channel of channels) {
      expect(platform.posted.filter((title) => title.startsWith(`${channel}-`))).toEqual(
        [1, 2, 3].map((n) => `${channel}-${n}`),
      );
    }
  });

  it('keeps posting to one platform while every post to another hangs', async () => {
    const keyv = new Keyv();
    const outbox = new Outbox({ keyv, directoryId: 'test' });
    const stalled = new StalledPlatform('slack');
    const working = new ScriptedPlatform();
    const dispatcher = new Dispatcher({
      outbox,
      ledger: new DeliveredLedger({ keyv, ttlMs: 60_000, directoryId: 'test' }),
      subscriptions: new SubscriptionRepository({ keyv, leases: freeLeases, clock: systemClock }),
      adapters: new Map<string, ChatAdapter>([
        ['slack', stalled],
        ['console', working],
      ]),
      clock: systemClock,
      concurrency: 4,
    });
    const hanging = Array.from({ length: 10 }, (_, i) => ({
      ...entry(`stuck ${i}`, `S${i}`),
      destination: { platform: 'slack', channelId: `S${i}` },
      destinationKey: `slack:S${i}`,
    }));
    await outbox.enqueue([...hanging, entry('through')]);
    dispatcher.start();
    await waitUntil(() => working.posted.length > 0);
    expect(working.posted).toEqual(['through']);
    expect(stalled.inFlight).toBe(4);
    stalled.release();
    await dispatcher.stop();
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i += 1) await new Promise((resolve) => setTimeout(resolve, 5));
}
