import { describe, expect, it } from 'vitest';
import { DISCORD_WEBHOOK, renderDiscordWebhookMessage } from '../../../adapters/discord/webhook.js';
import type { Message } from '../../../src/ports/index.js';
import { validateAgainstSpec } from '../../fakes/discord/discord-spec.js';
import { EXECUTE_WEBHOOK_BODY, FakeDiscordWebhooks } from '../../fakes/webhooks/fake-discord-webhooks.js';
import { everyMessageKind } from '../../support/every-message-kind.js';
import { webhooksOn } from '../../support/webhook-world.js';

const fake = await new FakeDiscordWebhooks().listen();
const discordWebhook = webhooksOn(fake, DISCORD_WEBHOOK);

const card: Message = {
  kind: 'post',
  title: 'Launch',
  url: 'https://directory.example/posts/launch',
  text: 'A launch @everyone <@123456789012345678>',
  fallback: 'Launch',
  actions: [
    { kind: 'command', label: 'Follow', verb: 'follow', target: '1', command: 'subscribe comments --post 1' },
    { kind: 'link', label: 'Open', url: 'https://directory.example/posts/launch' },
  ],
};

describe('Discord webhooks', () => {
  it.each(everyMessageKind())(
    'posts a %s with a body valid against the ExecuteWebhook schema',
    async (_name, message) => {
      expect(validateAgainstSpec(EXECUTE_WEBHOOK_BODY, renderDiscordWebhookMessage(message))).toEqual([]);
      const { post } = discordWebhook();
      expect(await post(message)).toMatchObject({
        status: 'delivered',
        platformMessageId: expect.any(String),
      });
    },
  );

  it("posts under the subscription's name and avatar, with no buttons and nothing in the text pinging", async () => {
    const { post, webhook } = discordWebhook();
    const outcome = await post({
      ...card,
      sender: { name: 'Launch radar', avatarUrl: 'https://img.example/radar.png' },
    });
    expect(outcome).toMatchObject({ status: 'delivered', bucket: { remaining: expect.any(Number) } });
    const [message] = fake.messagesOf(webhook.id);
    expect(message?.body).toMatchObject({
      username: 'Launch radar',
      avatar_url: 'https://img.example/radar.png',
    });
    expect(message?.body['components']).toBeUndefined();
    expect(message?.pinged).toEqual([]);
  });

  it('pings exactly the configured role and user: allowed_mentions names them and nothing else', async () => {
    const { post, webhook } = discordWebhook();
    await post({
      ...card,
      mentions: [
        { kind: 'role', id: '222222222222222222' },
        { kind: 'user', id: '333333333333333333' },
      ],
    });
    const [message] = fake.messagesOf(webhook.id);
    expect(message?.body['allowed_mentions']).toEqual({
      parse: [],
      roles: ['222222222222222222'],
      users: ['333333333333333333'],
    });
    expect(message?.pinged).toEqual(['role:222222222222222222', 'user:333333333333333333']);
  });

  it('edits a posted message in place and deletes it through the webhook message endpoints', async () => {
    const { post, adapter, destination, webhook } = discordWebhook();
    const posted = await post(card);
    const messageId = posted.status === 'delivered' ? (posted.platformMessageId as string) : '';
    const edited = await adapter.edit?.(destination, { messageId }, { ...card, title: 'Launch (edited)' });
    expect(edited).toMatchObject({ status: 'delivered' });
    expect(fake.messages.get(messageId)?.edits).toBe(1);
    const embeds = fake.messagesOf(webhook.id)[0]?.body['embeds'] as { title?: string }[];
    expect(embeds[0]?.title).toBe('Launch \\(edited\\)');
    expect(await adapter.delete?.(destination, { messageId })).toMatchObject({ status: 'delivered' });
    expect(fake.messages.has(messageId)).toBe(false);
    // Deleting what is already gone is done, and editing it is refused for that message only.
    expect(await adapter.delete?.(destination, { messageId })).toMatchObject({ status: 'delivered' });
    expect(await adapter.edit?.(destination, { messageId }, card)).toMatchObject({
      status: 'rejected',
      scope: 'message',
    });
  });

  it("makes each item a forum post named after it, and puts its comments into that post's thread", async () => {
    const { post, adapter, destination, webhook } = discordWebhook({ forum: true });
    const first = await post(card);
    expect(first).toMatchObject({
      status: 'delivered',
      threadId: expect.any(String),
      channelId: expect.any(String),
    });
    const threadId = first.status === 'delivered' ? (first.threadId as string) : '';
    const messageId = first.status === 'delivered' ? (first.platformMessageId as string) : '';
    expect(fake.messages.get(messageId)?.body['thread_name']).toBe('Launch');
    const reply = await post(
      { kind: 'comment', title: 'A comment', fallback: 'A comment' },
      {
        ...destination,
        thread: { parentMessageId: messageId, threadId },
      },
    );
    expect(reply).toMatchObject({ status: 'delivered', channelId: threadId });
    const replied = fake.messagesOf(webhook.id).at(-1);
    expect(replied?.channelId).toBe(threadId);
    // The forum is remembered: the next item goes straight to a forum post.
    const before = fake.calls.length;
    await post({ ...card, title: 'Second launch' });
    expect(fake.calls.length - before).toBe(1);
    // An edit reaches the message in its thread.
    expect(await adapter.edit?.(destination, { messageId, channelId: threadId }, card)).toMatchObject({
      status: 'delivered',
    });
  });

  it('pauses a webhook someone deleted (404 Unknown Webhook) and never posts there again', async () => {
    const { post, webhook } = discordWebhook();
    fake.deleteWebhook(webhook.id);
    expect(await post(card)).toMatchObject({
      status: 'rejected',
      code: 'webhook_gone',
      scope: 'destination',
    });
  });

  it("waits the bucket's reset once Discord says none remain", async () => {
    const { post } = discordWebhook();
    const outcomes = [];
    for (let i = 0; i < 5; i += 1) outcomes.push(await post(card));
    expect(outcomes.at(-1)).toMatchObject({
      status: 'delivered',
      bucket: { remaining: 0, resetAfterMs: expect.any(Number) },
    });
  });

  it('shows its URL with the token masked', () => {
    const url = new URL(fake.addWebhook().url);
    const token = url.pathname.split('/').at(-1) as string;
    expect(DISCORD_WEBHOOK.redact(url)).not.toContain(token);
  });
});
