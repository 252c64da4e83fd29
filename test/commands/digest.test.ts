import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HeldItems } from '../../src/held-items/held-item-store.js';
import { composeDigest } from '../../src/messages/index.js';
import { CHANNEL, type Harness, startHarness } from '../support/command-harness.js';
import { dailyDigest, heldComment } from '../support/held-items.js';

const MANAGER = { canManageChannel: true };
/** 09:00 in Berlin, Monday 23 November 2026: the slot of the digest these tests store. */
const DUE = Date.parse('2026-11-23T08:00:00Z');

/**
 * `/directory digest <id> [part]` (issue 29): where a digest's later parts could not go in its
 * message's thread, that message names this command, which shows the whole digest a part at a time.
 */
describe('/directory digest', () => {
  let h: Harness;
  let held: HeldItems;
  beforeAll(async () => {
    // Where the schedule runner keeps each subscription's latest digest, as the bot wires it.
    const digests = { latest: (id: string) => held.latest(id) };
    h = await startHarness({ startMs: DUE + 60_000, handler: { digests } });
    held = new HeldItems({ keyv: h.store.keyv, directoryId: 'commands-test' });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    for (const s of await h.subscriptions.list()) await h.subscriptions.remove(s.platform, s.channelId, s.id);
  });

  async function digestSubscription() {
    await h.run('timezone Europe/Berlin', MANAGER);
    await h.run('subscribe comments --digest daily@09:00', MANAGER);
    const [subscription] = await h.subscriptions.forChannel('slack', CHANNEL);
    return subscription!;
  }

  it('shows each part of the latest digest, numbered, and says which comes next', async () => {
    const { id } = await digestSubscription();
    const items = Array.from({ length: 44 }, (_, i) => heldComment(i + 1, (i + 1) * 10));
    const parts = composeDigest(dailyDigest(items, { feed: 'comments' }), { rest: 'parts' });
    expect(parts.length).toBeGreaterThan(2);
    await held.keepLatest(id, { kind: 'digest', before: DUE, parts });

    const first = await h.run(`digest ${id}`);
    expect(first.error).toBeUndefined();
    expect(first.text).toBe(
      `The latest digest of ${id} too long for one message, due Mon 23 Nov 09:00 Europe/Berlin, part 1 of ${parts.length}. Next: digest ${id} 2.`,
    );
    expect(first.messages).toEqual([parts[0]]);
    const last = await h.run(`digest ${id} ${parts.length}`);
    expect(last.text).toMatch(new RegExp(`part ${parts.length} of ${parts.length}\\.$`));
    expect(last.messages).toEqual([parts.at(-1)]);
  });

  it('says so for a part past the end, a subscription without a schedule, one with no digest yet, and another channel’s id', async () => {
    const { id } = await digestSubscription();
    expect((await h.run(`digest ${id}`)).text).toBe(
      `${id} has posted no digest or summary too long for one message: each was shown whole in the channel.`,
    );
    const items = Array.from({ length: 30 }, (_, i) => heldComment(i + 1, (i + 1) * 10));
    const parts = composeDigest(dailyDigest(items, { feed: 'comments' }), { rest: 'parts' });
    await held.keepLatest(id, { kind: 'digest', before: DUE, parts });
    expect(await h.run(`digest ${id} ${parts.length + 1}`)).toMatchObject({
      text: `The latest digest of ${id} too long for one message has ${parts.length} parts.`,
      error: { code: 'command_usage', option: 'part' },
    });
    expect((await h.run(`digest ${id} 0`)).text).toBe('<part> must be a whole number from 1 to 10, got "0".');

    await h.run('subscribe posts', MANAGER);
    const plain = (await h.subscriptions.forChannel('slack', CHANNEL)).find((s) => s.feed === 'posts')!;
    expect((await h.run(`digest ${plain.id}`)).text).toBe(
      `${plain.id} has no digest, quiet hours or cap: its items are posted one by one.`,
    );
    expect((await h.run('digest s0000000')).text).toBe(
      'This channel has no subscription with id s0000000. See "subscriptions" for the list.',
    );
  });
});
