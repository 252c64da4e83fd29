import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ChatAdapter,
  DELETE_REFUSED,
  type Destination,
  type Message,
} from '../../../src/ports/index.js';
import { FakeDiscordRest } from '../../fakes/discord/fake-discord-rest.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { DELIVERY_TOKEN, deliveryAdapter } from '../../support/discord-delivery.js';
import { CHANNEL_ID, discordScript } from '../../support/discord-interactions.js';
import { FakeCommandHandler } from '../../support/fake-command-handler.js';

const to: Destination = { platform: 'discord', channelId: CHANNEL_ID };
const posted: Message = {
  kind: 'post',
  title: 'Widget',
  fallback: 'New post: Widget',
  fields: [{ name: 'Votes', value: '3' }],
};
const edited: Message = { ...posted, title: 'Widget @everyone', fields: [{ name: 'Votes', value: '9' }] };

describe('Discord edits in place (PATCH message) and deletes (DELETE message)', () => {
  let rest: FakeDiscordRest;
  let adapter: ChatAdapter;

  beforeEach(async () => {
    rest = new FakeDiscordRest({ token: DELIVERY_TOKEN });
    await rest.listen();
    rest.addChannel(CHANNEL_ID);
    adapter = deliveryAdapter(rest.url, () => {});
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

  async function post(): Promise<string> {
    const outcome = await adapter.deliver(to, posted, { idempotencyKey: 'k' });
    if (outcome.status !== 'delivered' || outcome.platformMessageId === undefined)
      throw new Error('not posted');
    return outcome.platformMessageId;
  }

  it('replaces the posted message, with no mentions and within the spec', async () => {
    const id = await post();
    expect(await adapter.edit?.(to, { messageId: id }, edited)).toMatchObject({
      status: 'delivered',
      platformMessageId: id,
    });
    expect(rest.edits.edits).toHaveLength(1);
    const [edit] = rest.edits.edits;
    expect(edit?.messageId).toBe(id);
    expect(edit?.body).toMatchObject({ allowed_mentions: { parse: [] } });
    expect(JSON.stringify(rest.messages.get(CHANNEL_ID)?.[0]?.body)).toContain('9');
    expect(rest.callsTo('POST', '/channels/:id/messages')).toHaveLength(1);
    expect(rest.problems).toEqual([]);
  });

  it('after a refused token on an edit, the next edit and post reach Discord again', async () => {
    const id = await post();
    rest.setToken('a-reset-token');
    expect(await adapter.edit?.(to, { messageId: id }, edited)).toMatchObject({
      status: 'failed',
      code: 'unauthorized',
    });
    rest.setToken(DELIVERY_TOKEN);
    // discord.js dropped the token on the 401: without setting it again this fails locally.
    expect(await adapter.edit?.(to, { messageId: id }, edited)).toMatchObject({ status: 'delivered' });
    expect(await adapter.deliver(to, posted, { idempotencyKey: 'k2' })).toMatchObject({
      status: 'delivered',
    });
  });

  it('edits a comment reply in its thread, not a message of the parent channel', async () => {
    const parentId = await post();
    const opening = await adapter.openThread?.(to, parentId, 'Widget');
    if (opening?.status !== 'opened') throw new Error('no thread');
    const inThread: Destination = {
      ...to,
      thread: { parentMessageId: parentId, threadId: opening.threadId },
    };
    const reply = await adapter.deliver(inThread, { ...posted, title: 'Comment' }, { idempotencyKey: 'r' });
    if (reply.status !== 'delivered' || reply.platformMessageId === undefined) throw new Error('no reply');
    expect(reply.channelId).toBe(opening.threadId);
    const reference = { messageId: reply.platformMessageId, channelId: opening.threadId };
    expect(await adapter.edit?.(to, reference, edited)).toMatchObject({ status: 'delivered' });
    expect(rest.edits.edits.map((e) => [e.channelId, e.messageId])).toEqual([
      [opening.threadId, reply.platformMessageId],
    ]);
    expect(JSON.stringify(rest.messages.get(opening.threadId)?.[0]?.body)).toContain('9');
    expect(JSON.stringify(rest.messages.get(CHANNEL_ID)?.[0]?.body)).not.toContain('9');
  });

  it('edits a forum post’s starter message in the post’s own thread', async () => {
    rest.threads.forums.add(CHANNEL_ID);
    const outcome = await adapter.deliver(to, posted, { idempotencyKey: 'f' });
    if (
      outcome.status !== 'delivered' ||
      outcome.platformMessageId === undefined ||
      outcome.channelId === undefined
    )
      throw new Error('no post');
    expect(outcome.channelId).toBe(outcome.threadId);
    const reference = { messageId: outcome.platformMessageId, channelId: outcome.channelId };
    expect(await adapter.edit?.(to, reference, edited)).toMatchObject({ status: 'delivered' });
    expect(rest.edits.edits.map((e) => e.channelId)).toEqual([outcome.threadId]);
    expect(JSON.stringify(rest.messages.get(outcome.threadId ?? '')?.[0]?.body)).toContain('9');
    expect(rest.problems).toEqual([]);
  });

  it('drops an edit of a deleted message (10008) for that message only', async () => {
    const id = await post();
    rest.edits.forget(CHANNEL_ID, id);
    expect(await adapter.edit?.(to, { messageId: id }, edited)).toMatchObject({
      status: 'rejected',
      code: 'unknown_message',
      scope: 'message',
    });
  });

  it('reports lost permissions as the channel’s, for /directory status', async () => {
    const id = await post();
    rest.addChannel(CHANNEL_ID, 'missing_permissions');
    expect(await adapter.edit?.(to, { messageId: id }, edited)).toMatchObject({
      status: 'rejected',
      code: 'missing_permissions',
      scope: 'destination',
    });
  });

  it('deletes it with no body, and counts one already gone as done', async () => {
    const id = await post();
    expect(await adapter.delete?.(to, { messageId: id })).toMatchObject({ status: 'delivered' });
    expect(rest.edits.deletions).toEqual([{ channelId: CHANNEL_ID, messageId: id }]);
    expect(rest.messages.get(CHANNEL_ID)).toEqual([]);
    // Someone deleted it first (10008): nothing is left to do.
    expect(await adapter.delete?.(to, { messageId: id })).toMatchObject({ status: 'delivered' });
    expect(rest.problems).toEqual([]);
  });

  it('reports a refusal for permission (50013) as DELETE_REFUSED for that message only', async () => {
    const id = await post();
    rest.edits.refuseDeleting.add(id);
    expect(await adapter.delete?.(to, { messageId: id })).toMatchObject({
      status: 'rejected',
      code: DELETE_REFUSED,
      scope: 'message',
    });
    expect(rest.messages.get(CHANNEL_ID)).toHaveLength(1);
  });

  it('reports a channel the bot lost as the channel’s', async () => {
    const id = await post();
    rest.deleteChannel(CHANNEL_ID);
    expect(await adapter.delete?.(to, { messageId: id })).toMatchObject({
      status: 'rejected',
      scope: 'destination',
    });
  });
});
