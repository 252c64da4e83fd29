import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DeliveredLedger } from '../../src/delivery/delivered-ledger.js';
import { BackfillStash } from '../../src/engine/backfill-runner.js';
import { CHANNEL, type Harness, startHarness } from '../support/command-harness.js';

const MANAGER = { canManageChannel: true };
const DAY = 86_400_000;
const WHERE = `slack:${CHANNEL}`;

/**
 * `/directory subscribe … --backfill N` (issue 29): the command looks at the feed's latest once
 * (for its preview, from the lookup reserve), chooses the N most recent matching items, hands them
 * to the poller under the request it stores on the subscription, and says how many are coming.
 */
describe('/directory subscribe --backfill N', () => {
  let h: Harness;
  let stash: BackfillStash;
  let ledger: DeliveredLedger;
  beforeAll(async () => {
    // The desk as the engine wires it (src/engine/engine.ts), over the harness's store.
    const backfill = {
      withinMs: 30 * DAY,
      async keep(token: string, destination: string, items: readonly { key: string }[]) {
        await stash.keep(token, items as never);
        const had = await ledger.delivered(items.map((item) => ({ destination, itemKey: item.key })));
        return had.filter((already) => !already).length;
      },
    };
    h = await startHarness({ handler: { backfill } });
    stash = new BackfillStash({ keyv: h.store.keyv, directoryId: 'test' });
    ledger = new DeliveredLedger({ keyv: h.store.keyv, ttlMs: 30 * DAY, directoryId: 'test' });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    for (const s of await h.subscriptions.list()) await h.subscriptions.remove(s.platform, s.channelId, s.id);
    h.emulator.admin.clearFaults();
  });

  /** The posts the emulator lists newest first, as the posts feed reads them. */
  const newestPosts = async (count: number) =>
    (await h.client.listPosts({ first: count, order: 'NEWEST' })).nodes.map((post) => post.id);

  it('stores the request, keeps the items it chose oldest first, and says how many are coming', async () => {
    const reply = await h.run('subscribe posts --backfill 3', MANAGER);
    expect(reply.error).toBeUndefined();
    const [subscription] = await h.subscriptions.forChannel('slack', CHANNEL);
    expect(reply.text).toBe(
      `Subscribed this channel to posts (everything). Id: ${subscription?.id} (to stop: unsubscribe ${subscription?.id}).\n` +
        'Posting the 3 most recent matching items here now, oldest first; new ones will follow.',
    );
    // No preview card: the channel gets the items themselves.
    expect(reply.messages).toEqual([]);
    expect(subscription?.backfill).toMatchObject({ count: 3, at: h.clock.now() });
    const kept = await stash.read(subscription!.backfill!.token);
    const newest = (await newestPosts(3)).reverse();
    expect(kept?.map((item) => item.id)).toEqual(newest);
  });

  it('counts only what the channel has not had: a repeated subscribe posts nothing twice', async () => {
    await h.run('subscribe posts --backfill 2', MANAGER);
    const [first] = await h.subscriptions.forChannel('slack', CHANNEL);
    const chosen = (await stash.read(first!.backfill!.token)) ?? [];
    for (const item of chosen) await ledger.markDelivered(WHERE, item.key);
    const again = await h.run('subscribe posts --backfill 2', MANAGER);
    expect(again.text).toContain(
      'This channel already has the 2 most recent matching items; new ones will appear here.',
    );
    const more = await h.run('subscribe posts --backfill 3', MANAGER);
    expect(more.text).toContain(
      'Posting the most recent matching item here now (of the 3 most recent, the ones this channel has not had yet), oldest first; new ones will follow.',
    );
  });

  it('says when fewer match, and when nothing does', async () => {
    const reply = await h.run('subscribe posts --keyword zzzunmatched --backfill 5', MANAGER);
    expect(reply.text).toContain(
      'Nothing from the last 30 days matches these filters, so nothing is posted now; new matching items will appear in this channel.',
    );
  });

  it('keeps the request for the poller when the directory does not answer, and says so', async () => {
    h.emulator.admin.injectFault({ route: '/v2/api/graphql', count: 3, kind: 'status', status: 503 });
    const reply = await h.run('subscribe posts --backfill 4', MANAGER);
    expect(reply.error).toBeUndefined();
    expect(reply.text).toContain(
      'The 4 most recent matching items will be posted here once the directory answers. No preview:',
    );
    const [subscription] = await h.subscriptions.forChannel('slack', CHANNEL);
    expect(subscription?.backfill?.count).toBe(4);
    expect(await stash.read(subscription!.backfill!.token)).toBeUndefined();
  });

  it.each([
    ['subscribe posts --backfill 50', '--backfill must be a whole number from 0 to 20, got "50".'],
    ['subscribe posts --backfill -1', '--backfill must be a whole number from 0 to 20, got "-1".'],
    ['subscribe posts --backfill many', '--backfill expects a whole number, got "many".'],
  ])('refuses %s before anything is stored', async (text, problem) => {
    const reply = await h.run(text, MANAGER);
    expect(reply).toMatchObject({ text: problem, error: { code: 'command_usage', option: 'backfill' } });
    expect(await h.subscriptions.list()).toEqual([]);
  });
});
