import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveredLedger } from '../../src/delivery/delivered-ledger.js';
import { requestEdit } from '../../src/delivery/edits.js';
import { Outbox, type OutboxEntry } from '../../src/delivery/outbox.js';
import { ThreadDelivery } from '../../src/delivery/threads.js';
import { createManualClock } from '../../src/emulator/clock.js';
import type { Destination, Message, ThreadOpening } from '../../src/ports/index.js';
import type { BotStore } from '../../src/store/bot-store.js';
import { createStore } from '../../src/store/create-store.js';
import { storeBackends } from '../support/backends.js';
import { RecordingAdapter } from '../support/recording-adapter.js';
import { makeTempDir } from '../support/temp-dir.js';

/**
 * A post's ledger entry is written after the post by two hands: a thread start (the thread the
 * post's comments go in) and an edit (what the post shows now). Each is made here to land while
 * the other is half done, through each real store: neither may undo the other.
 */

const temp = makeTempDir();
afterAll(() => temp.cleanup());
const backends = await storeBackends(join(temp.path, 'ledger-races.sqlite'));

const CHANNEL = 'C-RACES';
const DESTINATION: Destination = { platform: 'console', channelId: CHANNEL };
const KEY = `console:${CHANNEL}`;
const POST = 'posts:new:1';

/** Something to wait for that the test lets happen when it chooses. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** A platform that starts threads, answering a start only when the test opens `answer`. */
class ThreadingPlatform extends RecordingAdapter {
  answer = gate();
  readonly asked = gate();
  threadStarts = 0;

  async openThread(): Promise<ThreadOpening> {
    this.threadStarts += 1;
    this.asked.open();
    await this.answer.opened;
    return { status: 'opened', threadId: 'thread-1' };
  }
}

/** An outbox whose queueing of an edit waits for the test, as a slow store write would. */
class SlowEditOutbox extends Outbox {
  release = gate();
  readonly reached = gate();

  override async enqueueEdit(entry: OutboxEntry) {
    this.reached.open();
    await this.release.opened;
    return super.enqueueEdit(entry);
  }
}

function comment(): OutboxEntry {
  const message: Message = { kind: 'comment', title: 'Comment 10', fallback: 'Comment 10' };
  return {
    destination: DESTINATION,
    destinationKey: KEY,
    itemKey: 'comments:new:10',
    message,
    subscriptionIds: ['s1'],
    enqueuedAt: 0,
    attempts: 0,
    notBefore: 0,
    thread: { parentKey: POST, title: 'Post 1' },
  };
}

describe.each(backends)('the delivered ledger on $name', (backend) => {
  let store: BotStore;
  beforeEach((context) => {
    if (backend.unavailable) context.skip(backend.unavailable);
    store = createStore({ url: backend.url, namespace: `ledger-races-${randomUUID()}` });
  });
  afterEach(async () => {
    await store?.keyv.clear().catch(() => {});
    await store?.close();
  });

  async function setup(outbox: Outbox) {
    const clock = createManualClock(1_000_000);
    const ledger = new DeliveredLedger({ keyv: store.keyv, ttlMs: 86_400_000, directoryId: 'races' });
    await ledger.markDelivered(KEY, POST, { messageId: 'm-1', postedAt: clock.now(), shown: 'votes=1' });
    const platform = new ThreadingPlatform();
    const threads = new ThreadDelivery({
      ledger,
      subscriptions: { noteThreadProblem: async () => {} },
      clock,
    });
    const startThread = () => threads.send(platform, comment(), comment().message);
    const edit = () =>
      requestEdit(
        {
          destination: DESTINATION,
          destinationKey: KEY,
          itemKey: POST,
          subscriptionIds: ['s1'],
          message: { kind: 'post', title: 'Post 1 (2 votes)', fallback: 'Post 1' },
          shown: 'votes=2',
        },
        { outbox, ledger, limits: { maxAgeMs: 86_400_000, minIntervalMs: 0 }, now: clock.now() },
      );
    return { ledger, platform, startThread, edit };
  }

  it('keeps an edit recorded while a thread was being started from the post', async () => {
    const outbox = new Outbox({ keyv: store.keyv, directoryId: 'races' });
    const { ledger, platform, startThread, edit } = await setup(outbox);
    const threading = startThread();
    await platform.asked.opened;
    expect(await edit()).toBe('queued');
    platform.answer.open();
    expect((await threading).status).toBe('delivered');

    const reference = await ledger.reference(KEY, POST);
    expect(reference).toMatchObject({ messageId: 'm-1', threadId: 'thread-1', shown: 'votes=2' });
  });

  it('keeps a thread started while an edit of the post was being queued', async () => {
    const outbox = new SlowEditOutbox({ keyv: store.keyv, directoryId: 'races' });
    const { ledger, platform, startThread, edit } = await setup(outbox);
    platform.answer.open();
    const editing = edit();
    await outbox.reached.opened;
    expect((await startThread()).status).toBe('delivered');
    outbox.release.open();
    expect(await editing).toBe('queued');

    const reference = await ledger.reference(KEY, POST);
    expect(reference).toMatchObject({ messageId: 'm-1', threadId: 'thread-1', shown: 'votes=2' });
    // The next reply goes in the same thread: no second one is started.
    expect((await startThread()).status).toBe('delivered');
    expect(platform.threadStarts).toBe(1);
  });

  it('never takes what an earlier message of the item showed for a later post of it', async () => {
    const { ledger, edit } = await setup(new Outbox({ keyv: store.keyv, directoryId: 'races' }));
    expect(await edit()).toBe('queued');
    // The ledger forgot the first post and the item was posted again, showing what it did then.
    await ledger.markDelivered(KEY, POST, { messageId: 'm-2', postedAt: 2_000_000, shown: 'votes=1' });
    expect(await ledger.reference(KEY, POST)).toEqual({
      messageId: 'm-2',
      postedAt: 2_000_000,
      shown: 'votes=1',
    });
  });
});
