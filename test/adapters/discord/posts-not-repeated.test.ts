import { describe, expect, it } from 'vitest';
import type { Destination, MessageReference } from '../../../src/ports/index.js';
import { deliveryAdapter, freshDelivery } from '../../support/discord-delivery.js';
import { CHANNEL_ID, sampleMessage } from '../../support/discord-interactions.js';

const FORUM = '100000000000000077';
const to = (channelId: string): Destination => ({ platform: 'discord', channelId });

/**
 * A post whose answer never came may have been made. A forum post has no nonce, so discord.js must
 * not send it again by itself (its `retries`), or the forum gets the same item twice; the outbox
 * retries later, asking its ledger first. A message carries a nonce Discord enforces, so any
 * repeat returns the same message, and requests that are safe to repeat (edits) keep the retry.
 */
describe('Discord posts whose answer was lost', () => {
  // The fake holds an answer until released, so that request always times out; the others are
  // answered by the fake in this process in milliseconds.
  const fx = freshDelivery({ channels: [CHANNEL_ID], forums: [FORUM], adapter: { requestTimeoutMs: 500 } });

  it('a forum post that timed out is not posted again by discord.js', async () => {
    const held = fx.rest.holdNextAnswer('POST', '/channels/:id/threads');
    const outcome = await fx.adapter.deliver(to(FORUM), sampleMessage({ title: 'once' }), {
      idempotencyKey: 'a',
    });
    expect(outcome).toMatchObject({ status: 'failed' });
    held.release();
    expect(fx.rest.threads.of(FORUM).map((post) => post.name)).toEqual(['once']);
  });

  it('a channel post that timed out is one message: a repeat, by discord.js or the outbox, returns it by its nonce', async () => {
    const held = fx.rest.holdNextAnswer('POST', '/channels/:id/messages');
    // discord.js repeats it once after the timeout; the fake answers the repeat with the message
    // the held request made (Discord's enforce_nonce), so the post comes back delivered.
    const outcome = await fx.adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'a' });
    held.release();
    await fx.rest.waitForCall((call) => call.route === '/channels/:id/messages');
    const retried = await fx.adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'a' });
    expect(retried).toMatchObject({ status: 'delivered' });
    if (outcome.status === 'delivered' && retried.status === 'delivered')
      expect(outcome.platformMessageId).toBe(retried.platformMessageId);
    expect(fx.rest.messages.get(CHANNEL_ID)).toHaveLength(1);
  });

  it('an edit that timed out is repeated once by discord.js: it sets the same content again', async () => {
    const patient = deliveryAdapter(fx.rest.url, () => {});
    const posted = await patient.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'a' });
    await patient.stop();
    if (posted.status !== 'delivered') throw new Error('not posted');
    const reference: MessageReference = { messageId: posted.platformMessageId! };
    const held = fx.rest.holdNextAnswer('PATCH', '/channels/:id/messages/:id');
    const edited = await fx.adapter.edit!(to(CHANNEL_ID), reference, sampleMessage({ title: 'edited' }));
    expect(edited).toMatchObject({ status: 'delivered' });
    held.release();
  });
});
