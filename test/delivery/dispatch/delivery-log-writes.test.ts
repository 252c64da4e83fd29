import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { DeliveredLedger } from '../../../src/delivery/delivered-ledger.js';
import { DeliveryLog, type DeliveryRecord } from '../../../src/delivery/delivery-log.js';
import { Dispatcher } from '../../../src/delivery/dispatch/dispatcher.js';
import type { DispatchEvent } from '../../../src/delivery/index.js';
import { EDIT_SUFFIX, Outbox, type OutboxEntry } from '../../../src/delivery/outbox.js';
import type {
  ChatAdapter,
  DeliveryOutcome,
  Destination,
  Message,
  MessageReference,
} from '../../../src/ports/index.js';
import { SubscriptionRepository } from '../../../src/subscriptions/subscription-repository.js';
import { freeLeases } from '../../support/free-leases.js';

const NOW = Date.UTC(2025, 2, 3, 10);

/** A platform answering each message by its title's script, with links to what it posts. */
class ScriptedPlatform implements ChatAdapter {
  readonly platform = 'slack';
  readonly pacing = { global: { ratePerSecond: 1000, burst: 1000 } };
  readonly posts: string[] = [];
  readonly script = new Map<string, DeliveryOutcome[]>();
  async start() {}
  async stop() {}
  health() {
    return { ready: true };
  }
  async deliver(_destination: Destination, message: Message): Promise<DeliveryOutcome> {
    const next = this.script.get(message.title)?.shift();
    if (next) return next;
    this.posts.push(message.title);
    return { status: 'delivered', platformMessageId: `1700.${this.posts.length}` };
  }
  async edit(): Promise<DeliveryOutcome> {
    return { status: 'delivered' };
  }
  messageLink(destination: Destination, reference: MessageReference): string {
    return `https://chat.example/${destination.channelId}/${reference.messageId}`;
  }
}

function entry(title: string, over: Partial<OutboxEntry> = {}): OutboxEntry {
  return {
    destination: { platform: 'slack', channelId: 'C1' },
    destinationKey: 'slack:C1',
    itemKey: `posts:new:${title}`,
    message: { kind: 'post', title, fallback: title },
    subscriptionIds: ['s1'],
    enqueuedAt: NOW,
    attempts: 0,
    notBefore: NOW,
    ...over,
  };
}

/** A log whose writes fail while `failing`, as a store outage would. */
class FlakyLog extends DeliveryLog {
  failing = false;
  override async record(record: DeliveryRecord): Promise<void> {
    if (this.failing) throw new Error('store unavailable');
    await super.record(record);
  }
}

function setup(maxAttempts = 20) {
  const keyv = new Keyv();
  const clock = { now: () => NOW };
  const outbox = new Outbox({ keyv, directoryId: 'd' });
  const ledger = new DeliveredLedger({ keyv, ttlMs: 86_400_000, directoryId: 'd' });
  const log = new FlakyLog({ keyv, directoryId: 'd', ttlMs: 86_400_000, clock });
  const platform = new ScriptedPlatform();
  const events: DispatchEvent[] = [];
  const dispatcher = new Dispatcher({
    outbox,
    ledger,
    subscriptions: new SubscriptionRepository({ keyv, leases: freeLeases, clock }),
    adapters: new Map([['slack', platform]]),
    clock,
    maxAttempts,
    log,
    onEvent: (event) => events.push(event),
  });
  return { outbox, ledger, log, platform, dispatcher, events };
}

async function run(
  dispatcher: Dispatcher,
  outbox: Outbox,
  entries: OutboxEntry[],
  log?: DeliveryLog,
): Promise<void> {
  await outbox.enqueue(entries);
  dispatcher.start();
  // Entries rescheduled into the future stay queued: wait for the attempts, not an empty outbox.
  for (let i = 0; i < 50 && outbox.heads().some((e) => e.notBefore <= NOW); i += 1)
    await new Promise((resolve) => setTimeout(resolve, 5));
  await dispatcher.stop();
  await log?.flushed();
}

describe('the delivery log, written where attempts settle', () => {
  it('records a post with its message id, link, title and subscriptions', async () => {
    const { outbox, log, dispatcher } = setup();
    await run(dispatcher, outbox, [entry('42')], log);
    expect(await log.forItem('slack:C1', 'posts:new:42')).toEqual({
      at: NOW,
      destinationKey: 'slack:C1',
      itemKey: 'posts:new:42',
      outcome: 'delivered',
      messageId: '1700.1',
      link: 'https://chat.example/C1/1700.1',
      title: '42',
      subscriptionIds: ['s1'],
    });
  });

  it("records the platform's reason for a refused message, a refused channel and a retried failure", async () => {
    const { outbox, log, platform, dispatcher } = setup();
    platform.script.set('bad', [
      { status: 'rejected', code: 'invalid_blocks', reason: 'bad block', scope: 'message' },
    ]);
    platform.script.set('flaky', [{ status: 'failed', code: 'http_503', reason: 'Service Unavailable' }]);
    await run(dispatcher, outbox, [entry('bad'), entry('flaky')], log);
    expect(await log.forItem('slack:C1', 'posts:new:bad')).toMatchObject({
      outcome: 'dropped',
      code: 'invalid_blocks',
      reason: 'bad block',
    });
    const flaky = await log.recent('slack:C1');
    expect(flaky.filter((r) => r.itemKey === 'posts:new:flaky').map((r) => r.outcome)).toContain('failed');

    const gone = setup();
    gone.platform.script.set('x', [{ status: 'rejected', code: 'channel_not_found', reason: 'no channel' }]);
    await run(gone.dispatcher, gone.outbox, [entry('x')], gone.log);
    expect(await gone.log.forItem('slack:C1', 'posts:new:x')).toMatchObject({
      outcome: 'rejected',
      code: 'channel_not_found',
    });
  });

  it('records a rate limit not at all: the message is waiting, not failing', async () => {
    const { outbox, log, platform, dispatcher } = setup();
    platform.script.set('slow', [
      { status: 'failed', code: 'rate_limited', reason: '429', retryAfterMs: 60_000 },
    ]);
    await run(dispatcher, outbox, [entry('slow')], log);
    expect(await log.forItem('slack:C1', 'posts:new:slow')).toBeUndefined();
  });

  it('records a message given up on after its attempts', async () => {
    const { outbox, log, platform, dispatcher } = setup(1);
    platform.script.set('doomed', [{ status: 'failed', code: 'http_500', reason: 'boom' }]);
    await run(dispatcher, outbox, [entry('doomed')], log);
    expect(await log.forItem('slack:C1', 'posts:new:doomed')).toMatchObject({
      outcome: 'abandoned',
      code: 'http_500',
    });
  });

  it('records an edit under the item, not its edit key', async () => {
    const { outbox, log, dispatcher } = setup();
    const edit = entry('7', {
      itemKey: `posts:new:7${EDIT_SUFFIX}`,
      edit: { messageId: '1700.9', revision: 1 },
    });
    await run(dispatcher, outbox, [edit], log);
    expect(await log.forItem('slack:C1', 'posts:new:7')).toMatchObject({
      outcome: 'edited',
      messageId: '1700.9',
      link: 'https://chat.example/C1/1700.9',
    });
  });

  it('never fails nor repeats a delivery when the log cannot be written', async () => {
    const { outbox, ledger, log, platform, dispatcher, events } = setup();
    log.failing = true;
    await run(dispatcher, outbox, [entry('1'), entry('2')], log);
    expect(platform.posts).toEqual(['1', '2']);
    expect(outbox.size()).toBe(0);
    expect(await ledger.delivered([{ destination: 'slack:C1', itemKey: 'posts:new:1' }])).toEqual([true]);
    expect(events.filter((e) => e.type === 'log-failed')).toHaveLength(2);
    expect(events.filter((e) => e.type === 'error')).toHaveLength(0);
  });

  it("keeps no record of a person's direct messages", async () => {
    const { outbox, log, dispatcher, platform } = setup();
    (platform as ChatAdapter).deliverDirect = async () => ({ status: 'delivered', platformMessageId: 'd1' });
    const dm = entry('dm', {
      destination: { platform: 'slack', channelId: 'U1', direct: true },
      destinationKey: 'slack:dm:U1',
      itemKey: 'reminder:r1',
    });
    await run(dispatcher, outbox, [dm], log);
    expect(await log.recent('slack:dm:U1')).toEqual([]);
  });
});
