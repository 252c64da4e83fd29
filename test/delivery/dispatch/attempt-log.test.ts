import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { DeliveredLedger } from '../../../src/delivery/delivered-ledger.js';
import { DeliveryLog } from '../../../src/delivery/delivery-log.js';
import { Dispatcher } from '../../../src/delivery/dispatch/dispatcher.js';
import { requestEdit } from '../../../src/delivery/edits.js';
import { Outbox, type OutboxEntry } from '../../../src/delivery/outbox.js';
import { systemClock } from '../../../src/ports/clock.js';
import type { Destination, MessageReference } from '../../../src/ports/index.js';
import { SubscriptionRepository } from '../../../src/subscriptions/subscription-repository.js';
import { freeLeases } from '../../support/free-leases.js';
import { RecordingAdapter } from '../../support/recording-adapter.js';

/** A platform with links to its messages, as Slack's and Discord's adapters give them. */
class LinkingPlatform extends RecordingAdapter {
  messageLink(destination: Destination, reference: MessageReference): string {
    return `https://chat.test/${destination.channelId}/${reference.messageId}`;
  }
}

function entry(id: string, channelId = 'C1', subscriptionId = 's1'): OutboxEntry {
  return {
    destination: { platform: 'console', channelId },
    destinationKey: `console:${channelId}`,
    itemKey: `comments:new:${id}`,
    message: { kind: 'comment', title: `Comment ${id}`, fallback: id },
    subscriptionIds: [subscriptionId],
    enqueuedAt: 0,
    attempts: 0,
    notBefore: 0,
  };
}

function setup(options: { log?: Keyv } = {}) {
  const keyv = new Keyv();
  const outbox = new Outbox({ keyv, directoryId: 'test' });
  const ledger = new DeliveredLedger({ keyv, ttlMs: 60_000, directoryId: 'test' });
  const subscriptions = new SubscriptionRepository({ keyv, leases: freeLeases, clock: systemClock });
  const errors: unknown[] = [];
  const log = new DeliveryLog({
    keyv: options.log ?? keyv,
    directoryId: 'test',
    ttlMs: 60_000,
    clock: systemClock,
    onError: (error) => errors.push(error),
  });
  const platform = new LinkingPlatform();
  const dispatcher = new Dispatcher({
    outbox,
    ledger,
    subscriptions,
    adapters: new Map([['console', platform]]),
    clock: systemClock,
    log,
    maxAttempts: 2,
  });
  const drain = async () => {
    dispatcher.start();
    await dispatcher.drained(2);
    await dispatcher.stop();
    await log.flushed();
  };
  return { keyv, outbox, ledger, subscriptions, platform, dispatcher, log, errors, drain };
}

describe('the delivery log, as attempts settle', () => {
  it('records a delivered message with its id, link, title and subscription', async () => {
    const { outbox, log, drain } = setup();
    await outbox.enqueue([entry('1')]);
    await drain();
    expect(await log.recent('console:C1')).toEqual([
      {
        at: expect.any(Number),
        destinationKey: 'console:C1',
        itemKey: 'comments:new:1',
        outcome: 'delivered',
        messageId: 'm1',
        link: 'https://chat.test/C1/m1',
        title: 'Comment 1',
        subscriptionIds: ['s1'],
      },
    ]);
  });

  it("records a failure with the platform's reason, then the delivery that replaced it", async () => {
    const { outbox, platform, log, drain } = setup();
    platform.behave('C1', { kind: 'fail', times: 1, retryAfterMs: 5 });
    await outbox.enqueue([entry('1')]);
    await outbox.enqueue([entry('2', 'C2')]);
    platform.behave('C2', { kind: 'fail', times: 5 });
    await drain();
    expect((await log.recent('console:C1')).map((r) => r.outcome)).toEqual(['delivered']);
    expect(await log.forItem('console:C2', 'comments:new:2')).toMatchObject({
      outcome: 'abandoned',
      code: 'rate_limited',
      reason: 'try later (after 2 attempts)',
    });
  });

  it('records a refused channel as rejected and what waited behind it as dropped', async () => {
    const { outbox, platform, log, drain } = setup();
    platform.behave('C1', { kind: 'reject', code: 'channel_not_found' });
    await outbox.enqueue([entry('1'), entry('2')]);
    await drain();
    expect((await log.recent('console:C1')).map((r) => [r.itemKey, r.outcome, r.code, r.reason])).toEqual([
      [
        'comments:new:2',
        'dropped',
        'channel_not_found',
        'the channel refused: channel C1: channel_not_found',
      ],
      ['comments:new:1', 'rejected', 'channel_not_found', 'channel C1: channel_not_found'],
    ]);
  });

  it("records an edit under the item's own key, with the link to the edited message", async () => {
    const { outbox, ledger, log, drain } = setup();
    await outbox.enqueue([{ ...entry('1'), shown: 'votes=1' }]);
    await drain();
    const edit = await requestEdit(
      {
        destination: { platform: 'console', channelId: 'C1' },
        destinationKey: 'console:C1',
        itemKey: 'comments:new:1',
        subscriptionIds: ['s1'],
        message: { kind: 'comment', title: 'Comment 1 (edited)', fallback: '1' },
        shown: 'votes=2',
      },
      { outbox, ledger, limits: { maxAgeMs: 60_000, minIntervalMs: 0 }, now: Date.now() },
    );
    expect(edit).toBe('queued');
    await drain();
    expect((await log.recent('console:C1')).map((r) => [r.itemKey, r.outcome, r.link])).toEqual([
      ['comments:new:1', 'edited', 'https://chat.test/C1/m1'],
      ['comments:new:1', 'delivered', 'https://chat.test/C1/m1'],
    ]);
  });

  it('never fails nor repeats a delivery when the log cannot be written', async () => {
    const broken = new Keyv();
    broken.getMany = (async () => {
      throw new Error('store down');
    }) as typeof broken.getMany;
    const { outbox, ledger, platform, errors, drain } = setup({ log: broken });
    await outbox.enqueue([entry('1'), entry('2', 'C2')]);
    await drain();
    expect(platform.deliveries.map((d) => d.channelId).sort()).toEqual(['C1', 'C2']);
    expect(platform.attempts).toHaveLength(2);
    expect(
      await ledger.delivered([
        { destination: 'console:C1', itemKey: 'comments:new:1' },
        { destination: 'console:C2', itemKey: 'comments:new:2' },
      ]),
    ).toEqual([true, true]);
    expect(outbox.size()).toBe(0);
    expect(errors.length).toBeGreaterThan(0);
  });

  it("keeps no record of a reminder DM: it is a person's, not a channel's", async () => {
    const { outbox, log, drain } = setup();
    const dm = {
      ...entry('r1'),
      destination: { platform: 'console', channelId: 'U1', direct: true as const },
    };
    await outbox.enqueue([{ ...dm, destinationKey: 'console:dm:U1', itemKey: 'reminder:r1' }]);
    await drain();
    expect(await log.recent('console:dm:U1')).toEqual([]);
  });
});
