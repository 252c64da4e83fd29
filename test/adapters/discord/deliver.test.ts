import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter, type DiscordRestEvent, nonceFor } from '../../../adapters/discord/index.js';
import type { ChatAdapter, Destination } from '../../../src/ports/index.js';
import { FakeDiscordRest } from '../../fakes/discord/fake-discord-rest.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { DELIVERY_TOKEN, deliveryAdapter } from '../../support/discord-delivery.js';
import {
  APP_ID,
  CHANNEL_ID,
  discordScript,
  OTHER_CHANNEL_ID,
  sampleMessage,
} from '../../support/discord-interactions.js';
import { FakeCommandHandler } from '../../support/fake-command-handler.js';

const TOKEN = DELIVERY_TOKEN;
const to = (channelId: string): Destination => ({ platform: 'discord', channelId });

describe('Discord delivery', () => {
  let rest: FakeDiscordRest;
  let adapter: ChatAdapter;
  let events: DiscordRestEvent[];

  beforeEach(async () => {
    rest = new FakeDiscordRest({ token: TOKEN });
    await rest.listen();
    rest.addChannel(CHANNEL_ID);
    rest.addChannel(OTHER_CHANNEL_ID);
    events = [];
    adapter = deliveryAdapter(rest.url, (event) => events.push(event));
    await adapter.start({
      http: { mount: () => {} },
      commands: new FakeCommandHandler(discordScript),
      logger: createCapturingLogger(),
    });
  });

  afterEach(async () => {
    await adapter.stop();
    await rest.close();
  });

  it('posts the rendered embed with a nonce, enforce_nonce and no mentions', async () => {
    const outcome = await adapter.deliver(to(CHANNEL_ID), sampleMessage(), {
      idempotencyKey: 'discord:c3:post:42:new',
    });
    expect(outcome).toMatchObject({ status: 'delivered' });
    const [call] = rest.callsTo('POST', '/channels/:id/messages');
    expect(call?.body).toMatchObject({
      nonce: nonceFor('discord:c3:post:42:new'),
      enforce_nonce: true,
      allowed_mentions: { parse: [] },
      embeds: [{ title: 'Directory Bot' }],
    });
    expect(nonceFor('discord:c3:post:42:new').length).toBeLessThanOrEqual(25);
    expect(rest.problems).toEqual([]);
    expect(events.some((e) => e.type === 'response' && e.status === 200)).toBe(true);
  });

  it('does not post twice when a delivery is retried with the same idempotency key', async () => {
    const first = await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'k1' });
    const again = await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'k1' });
    expect(again).toMatchObject({
      status: 'delivered',
      platformMessageId: first.status === 'delivered' && first.platformMessageId,
    });
    expect(rest.messages.get(CHANNEL_ID)).toHaveLength(1);
  });

  it('rejects permanently when the channel was deleted, without retrying', async () => {
    rest.deleteChannel(CHANNEL_ID);
    const outcome = await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'k2' });
    expect(outcome).toMatchObject({ status: 'rejected', code: 'unknown_channel', scope: 'destination' });
    expect(rest.callsTo('POST', '/channels/:id/messages')).toHaveLength(1);
  });

  it('drops only the message on a 400 Invalid Form Body, and the channel keeps taking posts', async () => {
    rest.failNextMessage(CHANNEL_ID);
    const refused = await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'bad' });
    expect(refused).toMatchObject({ status: 'rejected', code: 'invalid_body', scope: 'message' });
    expect(refused.status === 'rejected' && refused.reason).toContain('50035');
    expect(await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'good' })).toMatchObject({
      status: 'delivered',
    });
    expect(rest.callsTo('POST', '/channels/:id/messages')).toHaveLength(2);
  });

  it('treats a 400 about the channel (not a text channel) as the destination’s problem', async () => {
    rest.failNextMessage(CHANNEL_ID, { code: 50008, message: 'Cannot send messages in a non-text channel' });
    expect(await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'vc' })).toMatchObject({
      status: 'rejected',
      code: 'not_a_text_channel',
      scope: 'destination',
    });
  });

  it('rejects permanently on Missing Access and Missing Permissions', async () => {
    rest.addChannel(CHANNEL_ID, 'missing_access');
    rest.addChannel(OTHER_CHANNEL_ID, 'missing_permissions');
    expect(await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'a' })).toMatchObject({
      status: 'rejected',
      code: 'missing_access',
      scope: 'destination',
    });
    expect(
      await adapter.deliver(to(OTHER_CHANNEL_ID), sampleMessage(), { idempotencyKey: 'b' }),
    ).toMatchObject({
      status: 'rejected',
      code: 'missing_permissions',
    });
  });

  it('fails transiently on a refused token, is not ready until a post goes through again', async () => {
    expect(adapter.health()).toEqual({ ready: true });
    rest.setToken('a-reset-token');
    const refused = await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'u1' });
    expect(refused).toMatchObject({ status: 'failed', code: 'unauthorized' });
    expect(adapter.health()).toEqual({
      ready: false,
      reason: 'Discord rejected the bot token (401 Unauthorized)',
    });
    // Still refused on the next attempt: the request reached Discord again rather than failing locally.
    expect(await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'u2' })).toMatchObject({
      status: 'failed',
      code: 'unauthorized',
    });
    expect(rest.calls.filter((c) => c.status === 401)).toHaveLength(2);
    rest.setToken(TOKEN);
    expect(await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'u3' })).toMatchObject({
      status: 'delivered',
    });
    expect(adapter.health()).toEqual({ ready: true });
  });

  it('turns a 429 storm into a transient failure with retryAfterMs instead of waiting it out', async () => {
    rest.rateLimitChannel(CHANNEL_ID, 100, 30);
    const outcome = await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'k3' });
    expect(outcome.status).toBe('failed');
    expect(outcome).toMatchObject({ code: 'rate_limited' });
    expect(outcome.status === 'failed' && outcome.retryAfterMs).toBeGreaterThanOrEqual(30_000);
    // One request only: discord.js did not sit in a retry loop against the storm.
    expect(rest.callsTo('POST', '/channels/:id/messages')).toHaveLength(1);
    // Another channel is not held up behind the limited one.
    expect(
      await adapter.deliver(to(OTHER_CHANNEL_ID), sampleMessage(), { idempotencyKey: 'k4' }),
    ).toMatchObject({
      status: 'delivered',
    });
  });

  it('fails fast once a channel bucket is exhausted, and another channel still delivers', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect(
        await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: `b${i}` }),
      ).toMatchObject({
        status: 'delivered',
      });
    }
    const sixth = await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'b5' });
    expect(sixth).toMatchObject({ status: 'failed', code: 'rate_limited' });
    expect(sixth.status === 'failed' && sixth.retryAfterMs).toBeGreaterThan(0);
    // discord.js knew from the headers: the sixth never reached the server as a 429.
    expect(rest.calls.filter((c) => c.status === 429)).toHaveLength(0);
    expect(events.some((e) => e.type === 'rateLimited' && e.route === '/channels/:id/messages')).toBe(true);
    expect(
      await adapter.deliver(to(OTHER_CHANNEL_ID), sampleMessage(), { idempotencyKey: 'o1' }),
    ).toMatchObject({
      status: 'delivered',
    });
  });

  it('reports a global 429 with a long retry as a transient failure', async () => {
    rest.rateLimitChannel(CHANNEL_ID, 1, 5, true);
    const outcome = await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'g1' });
    expect(outcome).toMatchObject({ status: 'failed', code: 'rate_limited' });
    expect(outcome.status === 'failed' && outcome.retryAfterMs).toBeGreaterThanOrEqual(5_000);
  });

  it('paces channels by the bucket Discord states, and never more than 50 requests in any second overall', async () => {
    expect(adapter.pacing.perDestination).toBeUndefined();
    expect(adapter.pacing.global).toMatchObject({ limit: 50 });
    expect((adapter.pacing.global as { windowMs: number }).windowMs).toBeGreaterThanOrEqual(1_000);
    const outcome = await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'b1' });
    // The fake grants 5 per 5 s: four remain, and the outbox is told when the window resets.
    expect(outcome).toMatchObject({ status: 'delivered', bucket: { remaining: 4 } });
    const resetAfterMs = outcome.status === 'delivered' ? (outcome.bucket?.resetAfterMs ?? 0) : 0;
    expect(resetAfterMs).toBeGreaterThan(4_000);
    expect(resetAfterMs).toBeLessThanOrEqual(5_000 + 50);
  });
});

describe('Discord delivery without a reachable API', () => {
  it('fails transiently on a network error', async () => {
    const rest = new FakeDiscordRest();
    const url = await rest.listen();
    await rest.close();
    const adapter = createDiscordAdapter({
      token: TOKEN,
      applicationId: APP_ID,
      apiUrl: url,
      gateway: false,
      logger: createCapturingLogger(),
    });
    await adapter.start({
      http: { mount: () => {} },
      commands: new FakeCommandHandler(discordScript),
      logger: createCapturingLogger(),
    });
    const outcome = await adapter.deliver(to(CHANNEL_ID), sampleMessage(), { idempotencyKey: 'n1' });
    expect(outcome).toMatchObject({ status: 'failed', code: 'network' });
    await adapter.stop();
  });
});
