import { beforeEach, describe, expect, it } from 'vitest';
import type { Destination } from '../../../src/ports/index.js';
import { freshDelivery } from '../../support/discord-delivery.js';
import { CHANNEL_ID, OTHER_CHANNEL_ID, sampleMessage } from '../../support/discord-interactions.js';

const to = (channelId: string): Destination => ({ platform: 'discord', channelId });
const HOUR = 60 * 60 * 1000;

/**
 * A channel where the bot may not start threads: every refused start is a 403, and 10,000 of
 * those in 10 minutes get the bot's IP banned, so the refusal is remembered for the channel.
 */
describe('Discord thread starts refused by a channel', () => {
  let clock = Date.UTC(2026, 0, 5, 12);
  const fx = freshDelivery({ channels: [CHANNEL_ID, OTHER_CHANNEL_ID], adapter: { now: () => clock } });
  beforeEach(() => {
    clock = Date.UTC(2026, 0, 5, 12);
  });

  async function postIn(channelId: string, key: string): Promise<string> {
    const outcome = await fx.adapter.deliver(to(channelId), sampleMessage(), { idempotencyKey: key });
    if (outcome.status !== 'delivered' || outcome.platformMessageId === undefined)
      throw new Error('not posted');
    return outcome.platformMessageId;
  }
  const starts = () => fx.rest.callsTo('POST', '/channels/:id/messages/:id/threads');

  it('asks once per channel, and every later post’s comments go to the channel with the same reason', async () => {
    fx.rest.threads.noCreate.add(CHANNEL_ID);
    const first = await fx.adapter.openThread!(to(CHANNEL_ID), await postIn(CHANNEL_ID, 'p1'), 'Post 1');
    expect(first).toMatchObject({ status: 'refused', code: 'cannot_create_threads' });
    expect(first.status === 'refused' && first.reason).toContain('Create Public Threads');

    const second = await fx.adapter.openThread!(to(CHANNEL_ID), await postIn(CHANNEL_ID, 'p2'), 'Post 2');
    expect(second).toEqual(first);
    expect(starts().map((call) => call.status)).toEqual([403]);

    // Another channel is asked for itself.
    const elsewhere = await fx.adapter.openThread!(
      to(OTHER_CHANNEL_ID),
      await postIn(OTHER_CHANNEL_ID, 'p3'),
      'P3',
    );
    expect(elsewhere).toMatchObject({ status: 'opened' });
    expect(starts().map((call) => call.status)).toEqual([403, 201]);
  });

  it('asks again after an hour, so a permission granted since is used', async () => {
    fx.rest.threads.noCreate.add(CHANNEL_ID);
    const parent = await postIn(CHANNEL_ID, 'p1');
    await fx.adapter.openThread!(to(CHANNEL_ID), parent, 'Post 1');
    fx.rest.threads.noCreate.delete(CHANNEL_ID);
    clock += HOUR - 1;
    expect(await fx.adapter.openThread!(to(CHANNEL_ID), parent, 'Post 1')).toMatchObject({
      status: 'refused',
    });
    clock += 1;
    expect(await fx.adapter.openThread!(to(CHANNEL_ID), parent, 'Post 1')).toEqual({
      status: 'opened',
      threadId: parent,
    });
    expect(starts().map((call) => call.status)).toEqual([403, 201]);
  });

  it('does not remember a refusal about one message (its post was deleted)', async () => {
    const parent = await postIn(CHANNEL_ID, 'p1');
    fx.rest.edits.forget(CHANNEL_ID, parent);
    expect(await fx.adapter.openThread!(to(CHANNEL_ID), parent, 'Post 1')).toMatchObject({
      status: 'refused',
      code: 'parent_message_deleted',
    });
    const next = await fx.adapter.openThread!(to(CHANNEL_ID), await postIn(CHANNEL_ID, 'p2'), 'Post 2');
    expect(next).toMatchObject({ status: 'opened' });
  });
});
