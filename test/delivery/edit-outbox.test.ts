import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { DeliveredLedger } from '../../src/delivery/delivered-ledger.js';
import type { DispatchEvent } from '../../src/delivery/dispatch/delivery-attempt.js';
import { Dispatcher } from '../../src/delivery/dispatch/dispatcher.js';
import { requestEdit } from '../../src/delivery/edits.js';
import { EDIT_SUFFIX, Outbox, type OutboxEntry } from '../../src/delivery/outbox.js';
import { createManualClock } from '../../src/emulator/index.js';
import type {
  ChatAdapter,
  DeliveryOutcome,
  Destination,
  Message,
  MessageReference,
} from '../../src/ports/index.js';
import { SubscriptionRepository } from '../../src/subscriptions/subscription-repository.js';
import { freeLeases } from '../support/free-leases.js';

const DESTINATION = { platform: 'console', channelId: 'C1' };
const KEY = 'console:C1';
const LIMITS = { maxAgeMs: 24 * 3_600_000, minIntervalMs: 300_000 };

/** A platform that records posts and edits in order, and can answer a storm of 429s. */
class EditingPlatform implements ChatAdapter {
  readonly platform = 'console';
  readonly pacing = { global: { ratePerSecond: 1000, burst: 1000 } };
  readonly calls: string[] = [];
  /** Answers 429 to this many calls first (posts and edits alike). */
  storm = 0;
  gone = new Set<string>();
  async start() {}
  async stop() {}
  health() {
    return { ready: true };
  }
  #limited(): DeliveryOutcome | undefined {
    if (this.storm <= 0) return undefined;
    this.storm -= 1;
    return { status: 'failed', code: 'rate_limited', reason: '429', retryAfterMs: 1 };
  }
  async deliver(_d: Destination, message: Message): Promise<DeliveryOutcome> {
    const limited = this.#limited();
    if (limited) return limited;
    this.calls.push(`post ${message.title}`);
    return { status: 'delivered', platformMessageId: `m-${message.title}` };
  }
  /** How deletes answer: refused for this message (e.g. a 400), or done. */
  deleteAnswer: DeliveryOutcome | undefined;
  async delete(_d: Destination, reference: MessageReference): Promise<DeliveryOutcome> {
    if (this.deleteAnswer) return this.deleteAnswer;
    this.calls.push(`delete ${reference.messageId}`);
    return { status: 'delivered', platformMessageId: reference.messageId };
  }
  async edit(_d: Destination, reference: MessageReference, message: Message): Promise<DeliveryOutcome> {
    const limited = this.#limited();
    if (limited) return limited;
    if (this.gone.has(reference.messageId)) {
      return { status: 'rejected', code: 'message_not_found', reason: 'deleted', scope: 'message' };
    }
    this.calls.push(`edit ${reference.messageId} → ${message.title}`);
    return { status: 'delivered', platformMessageId: reference.messageId };
  }
}

function post(title: string): OutboxEntry {
  return {
    destination: DESTINATION,
    destinationKey: KEY,
    itemKey: `posts:new:${title}`,
    message: { kind: 'post', title, fallback: title },
    subscriptionIds: ['s1'],
    enqueuedAt: 0,
    attempts: 0,
    notBefore: 0,
  };
}

function setup() {
  const keyv = new Keyv();
  const clock = createManualClock(1_000_000);
  const outbox = new Outbox({ keyv, directoryId: 'test' });
  const ledger = new DeliveredLedger({ keyv, ttlMs: 86_400_000, directoryId: 'test' });
  const subscriptions = new SubscriptionRepository({ keyv, leases: freeLeases, clock });
  const platform = new EditingPlatform();
  const events: DispatchEvent[] = [];
  const dispatcher = new Dispatcher({
    outbox,
    ledger,
    subscriptions,
    adapters: new Map([['console', platform]]),
    clock,
    onEvent: (event) => events.push(event),
  });
  /** Asks for the message of `title` to look like `shown`, as a poll that saw it change would. */
  const edit = (title: string, shown: string) =>
    requestEdit(
      {
        destination: DESTINATION,
        destinationKey: KEY,
        itemKey: `posts:new:${title}`,
        subscriptionIds: ['s1'],
        message: { kind: 'post', title: `${title} (${shown})`, fallback: title },
        shown,
      },
      { outbox, ledger, limits: LIMITS, now: clock.now() },
    );
  return { keyv, clock, outbox, ledger, subscriptions, platform, dispatcher, events, edit };
}

describe('edits in the outbox', () => {
  it('is owed only for a message the channel holds, and only when what it shows changed', async () => {
    const { ledger, clock, edit, outbox } = setup();
    expect(await edit('A', 'votes=2')).toBe('unposted');
    await ledger.markDelivered(KEY, 'posts:new:A', {
      messageId: 'm-A',
      postedAt: clock.now(),
      shown: 'votes=1',
    });
    expect(await edit('A', 'votes=1')).toBe('unchanged');
    expect(await edit('A', 'votes=2')).toBe('queued');
    expect(await edit('A', 'votes=3')).toBe('coalesced');
    expect(outbox.size()).toBe(1);
    clock.advance(LIMITS.maxAgeMs + 1);
    expect(await edit('A', 'votes=4')).toBe('too_old');
  });

  it('does not hold a deletion behind the interval of a pending edit it replaces', async () => {
    const { ledger, clock, edit, outbox } = setup();
    await ledger.markDelivered(KEY, 'posts:new:A', { messageId: 'm-A', postedAt: clock.now(), shown: 'v=1' });
    expect(await edit('A', 'v=2')).toBe('queued');
    const waiting = outbox.pendingEdit(KEY, 'posts:new:A');
    expect(waiting?.notBefore).toBe(clock.now() + LIMITS.minIntervalMs);
    const removal = { destination: DESTINATION, destinationKey: KEY, itemKey: 'posts:new:A' };
    const message = { kind: 'post' as const, title: 'A', fallback: 'A' };
    const request = { ...removal, subscriptionIds: ['s1'], message, shown: 'removed', delete: true as const };
    expect(await requestEdit(request, { outbox, ledger, limits: LIMITS, now: clock.now() })).toBe(
      'coalesced',
    );
    const deletion = outbox.pendingEdit(KEY, 'posts:new:A');
    expect(deletion?.edit?.delete).toBe(true);
    expect(deletion?.notBefore).toBe(clock.now());
  });

  it('marks a message it could not delete instead of leaving it as it was', async () => {
    const { ledger, clock, outbox, platform, dispatcher } = setup();
    await ledger.markDelivered(KEY, 'posts:new:A', { messageId: 'm-A', postedAt: clock.now(), shown: 'v=1' });
    platform.deleteAnswer = { status: 'rejected', code: 'invalid_body', reason: 'refused', scope: 'message' };
    const message = { kind: 'post' as const, title: 'Removed: A', fallback: 'A' };
    const removal = { destination: DESTINATION, destinationKey: KEY, itemKey: 'posts:new:A', message };
    const request = { ...removal, subscriptionIds: ['s1'], shown: 'removed', delete: true as const };
    expect(await requestEdit(request, { outbox, ledger, limits: LIMITS, now: clock.now() })).toBe('queued');
    dispatcher.start();
    await dispatcher.drained(2);
    await dispatcher.stop();
    expect(platform.calls).toEqual(['edit m-A → Removed: A']);
  });

  it('keeps only the latest state of a message, durably: a new poller after a SIGKILL sends that one', async () => {
    const { keyv, ledger, clock, edit, platform } = setup();
    await ledger.markDelivered(KEY, 'posts:new:A', {
      messageId: 'm-A',
      postedAt: clock.now(),
      shown: 'votes=1',
    });
    await edit('A', 'votes=2');
    await edit('A', 'votes=5');
    // The killed poller's memory is gone; the store is all the next one has.
    const outbox = new Outbox({ keyv, directoryId: 'test' });
    expect(await outbox.load()).toBe(1);
    const dispatcher = new Dispatcher({
      outbox,
      ledger,
      subscriptions: new SubscriptionRepository({ keyv, leases: freeLeases, clock }),
      adapters: new Map([['console', platform]]),
      clock,
    });
    clock.advance(LIMITS.minIntervalMs);
    dispatcher.start();
    await dispatcher.drained(2);
    await dispatcher.stop();
    expect(platform.calls).toEqual(['edit m-A → A (votes=5)']);
  });

  it('sends new messages before edits, even through a storm of 429s', async () => {
    const { ledger, clock, edit, outbox, platform, dispatcher } = setup();
    for (const title of ['A', 'B']) {
      await ledger.markDelivered(KEY, `posts:new:${title}`, {
        messageId: `m-${title}`,
        postedAt: 0,
        shown: '1',
      });
      await edit(title, '2');
    }
    await outbox.enqueue([post('C'), post('D'), post('E')]);
    platform.storm = 6;
    dispatcher.start();
    // The manual clock stands still; retries wait 1 ms of it, so move it along while draining.
    const ticking = setInterval(() => clock.advance(5), 1);
    await dispatcher.drained(2);
    clearInterval(ticking);
    await dispatcher.stop();
    expect(platform.calls).toEqual(['post C', 'post D', 'post E', 'edit m-A → A (2)', 'edit m-B → B (2)']);
  });

  it('drops an edit of a message deleted in the channel, counted, and the channel carries on', async () => {
    const { ledger, clock, edit, outbox, platform, dispatcher, events } = setup();
    await ledger.markDelivered(KEY, 'posts:new:A', { messageId: 'm-A', postedAt: 0, shown: '1' });
    await edit('A', '2');
    platform.gone.add('m-A');
    await outbox.enqueue([post('B')]);
    clock.advance(LIMITS.minIntervalMs);
    dispatcher.start();
    await dispatcher.drained(2);
    await dispatcher.stop();
    expect(platform.calls).toEqual(['post B']);
    expect(events.filter((e) => e.type === 'dropped').map((e) => e.entry.itemKey)).toEqual([
      `posts:new:A${EDIT_SUFFIX}`,
    ]);
    // The edit was not recorded as a delivery of a new item.
    expect(await ledger.delivered([{ destination: KEY, itemKey: `posts:new:A${EDIT_SUFFIX}` }])).toEqual([
      false,
    ]);
  });
});
