import { describe, expect, it } from 'vitest';
import type { Destination } from '../../../src/ports/index.js';
import { freshDelivery } from '../../support/discord-delivery.js';
import { sampleMessage } from '../../support/discord-interactions.js';

const FORUM = '100000000000000077';
const to: Destination = { platform: 'discord', channelId: FORUM };

describe('Discord forum channels', () => {
  const fx = freshDelivery({ channels: [], forums: [FORUM] });

  const plainPosts = () => fx.rest.callsTo('POST', '/channels/:id/messages');
  const forumPosts = () => fx.rest.callsTo('POST', '/channels/:id/threads');

  it('tries a plain post only once: a channel known to be a forum gets forum posts straight away', async () => {
    for (const key of ['a', 'b', 'c']) {
      const outcome = await fx.adapter.deliver(to, sampleMessage({ title: key }), { idempotencyKey: key });
      expect(outcome).toMatchObject({ status: 'delivered' });
    }
    expect(plainPosts().map((call) => call.status)).toEqual([400]);
    expect(forumPosts().map((call) => call.status)).toEqual([201, 201, 201]);
    expect(fx.rest.threads.of(FORUM).map((post) => post.name)).toEqual(['a', 'b', 'c']);
  });

  it('says a forum that requires tags needs changing, not that it is no text channel', async () => {
    fx.rest.threads.requireTags.add(FORUM);
    const outcome = await fx.adapter.deliver(to, sampleMessage(), { idempotencyKey: 'a' });
    expect(outcome).toMatchObject({ status: 'rejected', code: 'forum_tag_required', scope: 'destination' });
    expect(outcome.status === 'rejected' && outcome.reason).toContain('Require people to select tags');

    // Once the operator turned the setting off and resumed, the next item goes straight to a forum post.
    fx.rest.threads.requireTags.delete(FORUM);
    expect(await fx.adapter.deliver(to, sampleMessage(), { idempotencyKey: 'b' })).toMatchObject({
      status: 'delivered',
    });
    expect(plainPosts()).toHaveLength(1);
  });

  it('keeps the plain post’s refusal when the forum post is refused for no forum reason', async () => {
    fx.rest.failNextMessage(FORUM, {
      status: 400,
      code: 50008,
      message: 'Cannot send messages in a non-text channel',
    });
    fx.rest.failNextForumPost(FORUM, { status: 400, code: 50035, message: 'Invalid Form Body' });
    const outcome = await fx.adapter.deliver(to, sampleMessage(), { idempotencyKey: 'a' });
    // Not dropped as one bad message: the channel pauses with the reason it gave.
    expect(outcome).toMatchObject({ status: 'rejected', code: 'not_a_text_channel', scope: 'destination' });
    // Nor taken for a forum: the next item tries a plain post again.
    await fx.adapter.deliver(to, sampleMessage(), { idempotencyKey: 'b' });
    expect(plainPosts()).toHaveLength(2);
  });

  it('retries later, without pausing, a forum post that failed for the moment', async () => {
    fx.rest.failNextForumPost(FORUM, { status: 503, code: 0, message: 'Service Unavailable' });
    const outcome = await fx.adapter.deliver(to, sampleMessage(), { idempotencyKey: 'a' });
    expect(outcome).toMatchObject({ status: 'failed' });
    expect(await fx.adapter.deliver(to, sampleMessage(), { idempotencyKey: 'a' })).toMatchObject({
      status: 'delivered',
    });
  });

  it('keeps the plain post’s refusal for a channel that is no forum either', async () => {
    fx.rest.threads.forums.delete(FORUM);
    fx.rest.failNextMessage(
      FORUM,
      { status: 400, code: 50008, message: 'Cannot send messages in a non-text channel' },
      2,
    );
    const outcome = await fx.adapter.deliver(to, sampleMessage(), { idempotencyKey: 'a' });
    expect(outcome).toMatchObject({ status: 'rejected', code: 'not_a_text_channel' });
    await fx.adapter.deliver(to, sampleMessage(), { idempotencyKey: 'b' });
    expect(plainPosts()).toHaveLength(2);
  });
});
