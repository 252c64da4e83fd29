import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { JSON_WEBHOOK, jsonWebhookSignature } from '../../../adapters/webhooks/index.js';
import type { ChatAdapter, DeliveryOptions, Message } from '../../../src/ports/index.js';
import { FakeJsonReceiver, payloadSchemaProblems } from '../../fakes/webhooks/fake-json-receiver.js';
import { comment } from '../../fixtures/parsed-records.js';
import { everyMessageKind } from '../../support/every-message-kind.js';
import { JSON_SECRET, WebhookBook, webhookAdapter } from '../../support/webhook-world.js';

const receiver = await new FakeJsonReceiver(JSON_SECRET).listen();
afterAll(() => receiver.close());
const adapters: ChatAdapter[] = [];
afterEach(async () => {
  for (const adapter of adapters.splice(0)) await adapter.stop();
  expect(receiver.problems).toEqual([]);
});

function jsonWebhook(secret = JSON_SECRET) {
  const book = new WebhookBook();
  book.add('json-webhook', { name: 'ops', url: receiver.hookUrl, secret });
  const adapter = webhookAdapter(JSON_WEBHOOK, book);
  adapters.push(adapter);
  const destination = { platform: 'json-webhook', channelId: 'ops' };
  const options: DeliveryOptions = {
    idempotencyKey: 'json-webhook:ops|comments:new:812',
    item: { key: 'comments:new:812', record: { type: 'comment', comment } },
  };
  return { adapter, destination, post: (message: Message) => adapter.deliver(destination, message, options) };
}

const message: Message = { kind: 'comment', title: 'A comment', text: 'Body', fallback: 'A comment' };

describe('the generic JSON webhook', () => {
  it.each(everyMessageKind())(
    'sends a %s as a payload valid against the documented schema',
    (_name, composed) => {
      expect(payloadSchemaProblems(JSON_WEBHOOK.render(composed))).toEqual([]);
    },
  );

  it('sends the message and the directory record, signed so a receiver can verify it', async () => {
    const { post } = jsonWebhook();
    expect(await post({ ...message, mentions: [{ kind: 'user', id: 'alice' }] })).toMatchObject({
      status: 'delivered',
      platformMessageId: 'json-webhook:ops|comments:new:812',
    });
    const [received] = receiver.received.slice(-1);
    expect(received?.payload).toMatchObject({
      version: 1,
      event: 'item.posted',
      delivery: 'json-webhook:ops|comments:new:812',
      item: {
        key: 'comments:new:812',
        feed: 'comments',
        record: { type: 'comment', comment: { id: comment.id } },
      },
      message: { kind: 'comment', title: 'A comment' },
      mentions: [{ kind: 'user', id: 'alice' }],
    });
    const call = receiver.calls.at(-1);
    const timestamp = String(call?.headers['x-directory-bot-timestamp']);
    expect(call?.headers['x-directory-bot-signature']).toBe(
      jsonWebhookSignature(JSON_SECRET, timestamp, call?.raw ?? ''),
    );
  });

  it('is refused by a receiver holding another secret (the signature is checked, not decorative)', async () => {
    const { post } = jsonWebhook('another-secret-0123456789abcdef0123456789abcdef');
    expect(await post(message)).toMatchObject({ status: 'rejected', scope: 'destination' });
    expect(receiver.problems.splice(0)).toEqual(['bad signature']);
  });

  it('retries on 5xx, waits a 429’s Retry-After, and pauses on any other 4xx', async () => {
    const { post } = jsonWebhook();
    receiver.failNext({ status: 503, body: 'busy' });
    expect(await post(message)).toMatchObject({ status: 'failed', code: 'server_error' });
    receiver.failNext({ status: 429, body: 'slow down', headers: { 'retry-after': '7' } });
    expect(await post(message)).toMatchObject({ status: 'failed', code: 'rate_limited', retryAfterMs: 7000 });
    receiver.failNext({ status: 400, body: 'what is this' });
    expect(await post(message)).toMatchObject({
      status: 'rejected',
      scope: 'destination',
      reason: expect.stringContaining('400'),
    });
    expect(await post(message)).toMatchObject({ status: 'delivered' });
  });

  it('sends edits and deletions as events naming the posted message', async () => {
    const { adapter, destination } = jsonWebhook();
    const reference = { messageId: 'json-webhook:ops|comments:new:812' };
    expect(
      await adapter.edit?.(
        destination,
        reference,
        { ...message, title: 'Edited' },
        { key: 'comments:new:812' },
      ),
    ).toMatchObject({ status: 'delivered' });
    expect(await adapter.delete?.(destination, reference)).toMatchObject({ status: 'delivered' });
    const [edited, deleted] = receiver.received.slice(-2);
    expect(edited?.payload).toMatchObject({
      event: 'item.edited',
      messageId: reference.messageId,
      message: { title: 'Edited' },
    });
    expect(deleted?.payload).toMatchObject({
      event: 'item.deleted',
      messageId: reference.messageId,
      message: null,
    });
  });
});
