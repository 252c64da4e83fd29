import { describe, expect, it } from 'vitest';
import type { Destination } from '../../../src/ports/index.js';
import { freshDelivery } from '../../support/discord-delivery.js';
import { CHANNEL_ID, sampleMessage } from '../../support/discord-interactions.js';

const to: Destination = { platform: 'discord', channelId: CHANNEL_ID };
/** Longer than any test may take: discord.js waiting it out would time the test out. */
const RETRY_AFTER_S = 60;

/**
 * Everything the outbox sends comes back at once as `failed` with `retryAfterMs` when Discord
 * answers 429, instead of discord.js sleeping through the wait with a delivery worker: edits and
 * thread starts as well as posts, so the outbox's pacing decides when they go again.
 */
describe('Discord 429s on what the outbox sends', () => {
  const fx = freshDelivery({ channels: [CHANNEL_ID] });

  async function post(): Promise<string> {
    const outcome = await fx.adapter.deliver(to, sampleMessage(), { idempotencyKey: 'post' });
    if (outcome.status !== 'delivered' || outcome.platformMessageId === undefined)
      throw new Error('not posted');
    return outcome.platformMessageId;
  }
  const rateLimited = { status: 'failed', code: 'rate_limited', retryAfterMs: expect.any(Number) };

  it('an edit answered 429 goes back to the outbox with the wait', async () => {
    const messageId = await post();
    fx.rest.rateLimitChannel(CHANNEL_ID, 1, RETRY_AFTER_S, false, '/channels/:id/messages/:id');
    const outcome = await fx.adapter.edit!(to, { messageId }, sampleMessage({ title: 'new' }));
    expect(outcome).toMatchObject(rateLimited);
    expect(outcome.status === 'failed' && outcome.retryAfterMs).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000);
    expect(fx.rest.callsTo('PATCH', '/channels/:id/messages/:id').map((call) => call.status)).toEqual([429]);
  });

  it('a thread start answered 429 goes back to the outbox with the wait', async () => {
    const messageId = await post();
    fx.rest.rateLimitChannel(CHANNEL_ID, 1, RETRY_AFTER_S, false, '/channels/:id/messages/:id/threads');
    const opening = await fx.adapter.openThread!(to, messageId, 'Post');
    expect(opening).toMatchObject(rateLimited);
    expect(fx.rest.threads.of(CHANNEL_ID)).toEqual([]);
  });

  it('unarchiving a thread answered 429 is retried later, not taken as the thread refusing', async () => {
    const messageId = await post();
    await fx.adapter.openThread!(to, messageId, 'Post');
    fx.rest.threads.archive(messageId);
    fx.rest.rateLimitChannel(messageId, 1, RETRY_AFTER_S, false, '/channels/:id');
    const reply = { ...to, thread: { parentMessageId: messageId, threadId: messageId } };
    const outcome = await fx.adapter.deliver(reply, sampleMessage(), { idempotencyKey: 'reply' });
    expect(outcome).toMatchObject(rateLimited);
  });
});
