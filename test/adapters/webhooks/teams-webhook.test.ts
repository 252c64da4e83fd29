import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { renderTeamsMessage, TEAMS_LIMITS, TEAMS_WEBHOOK } from '../../../adapters/webhooks/index.js';
import { recognizeWebhook } from '../../../src/app/webhook-recognition.js';
import type { ChatAdapter, Message } from '../../../src/ports/index.js';
import { adaptiveCardProblems } from '../../fakes/webhooks/adaptive-card-schema.js';
import { FakeTeamsWorkflows, TEAMS_BODY_MAX_BYTES } from '../../fakes/webhooks/fake-teams-workflows.js';
import { everyMessageKind } from '../../support/every-message-kind.js';
import { WebhookBook, webhookAdapter } from '../../support/webhook-world.js';

const fake = await new FakeTeamsWorkflows().listen();
afterAll(() => fake.close());
const adapters: ChatAdapter[] = [];
afterEach(async () => {
  for (const adapter of adapters.splice(0)) await adapter.stop();
});

async function teamsWebhook(name: string) {
  const webhook = fake.addWebhook();
  const book = new WebhookBook();
  book.add('teams-webhook', { name, url: webhook.url });
  const adapter = webhookAdapter(TEAMS_WEBHOOK, book);
  adapters.push(adapter);
  await adapter.start({ http: { mount: () => {} } } as never);
  const post = (message: Message) =>
    adapter.deliver({ platform: 'teams-webhook', channelId: name }, message, { idempotencyKey: `${name}|x` });
  return { webhook, adapter, post };
}

const card = (message: Message) => renderTeamsMessage(message).attachments[0].content;

describe('Teams Workflows webhooks', () => {
  it.each(everyMessageKind())(
    'posts a %s as an Adaptive Card valid against the published schema',
    async (_name, message) => {
      expect(adaptiveCardProblems(card(message))).toEqual([]);
      const { post } = await teamsWebhook(`kind-${fake.calls.length}`);
      expect(await post(message)).toEqual({ status: 'delivered' });
      expect(fake.problems).toEqual([]);
      const posted = fake.posts.at(-1)?.card;
      // The title is on the card, linked to the item when it has a link.
      const title = JSON.stringify(posted);
      expect(title).toContain(message.url === undefined ? 'TextBlock' : message.url);
    },
  );

  it('shows every list entry of a digest and every field as a fact', () => {
    const [, digest] = everyMessageKind().find(([name]) => name === 'digest part 1') ?? [];
    const body = JSON.stringify(card(digest as Message));
    for (const entry of (digest as Message).entries ?? []) expect(body).toContain(entry.url as string);
    const [, postMessage] = everyMessageKind()[0] ?? [];
    const facts = (card(postMessage as Message).body.find((e) => e['type'] === 'FactSet')?.['facts'] ??
      []) as unknown[];
    expect(facts).toHaveLength((postMessage as Message).fields?.length ?? 0);
  });

  it('keeps a card with a 100,000-character body and 600 fields within the 28 KB limit', async () => {
    const long = 'a&<*_['.repeat(20_000);
    const message: Message = {
      kind: 'post',
      title: long,
      url: 'https://directory.example/p/1',
      text: long,
      fields: Array.from({ length: 600 }, (_, i) => ({ name: `${i} ${long}`, value: long })),
      entries: Array.from({ length: 20 }, (_, i) => ({
        title: long.slice(0, 150),
        url: `https://d.example/${i}`,
        rank: i + 1,
      })),
      footer: long,
      fallback: long,
    };
    const body = JSON.stringify(renderTeamsMessage(message));
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(TEAMS_LIMITS.bodyBytes);
    expect(Buffer.byteLength(body)).toBeLessThan(TEAMS_BODY_MAX_BYTES);
    const { post } = await teamsWebhook('huge');
    expect(await post(message)).toEqual({ status: 'delivered' });
    expect(fake.problems).toEqual([]);
  });

  it('mentions exactly the configured people and tags, with an entity behind each <at> tag', async () => {
    const { post } = await teamsWebhook('mentions');
    const message: Message = {
      kind: 'comment',
      title: 'Comment',
      text: 'ping <at>Jane</at> and @everyone',
      fallback: 'Comment',
      mentions: [
        { kind: 'user', id: 'jane@contoso.com', label: 'Jane Doe' },
        { kind: 'tag', id: 'MTk6YWJj', label: 'Oncall' },
      ],
    };
    expect(await post(message)).toEqual({ status: 'delivered' });
    expect(fake.problems).toEqual([]);
    expect(fake.posts.at(-1)?.pinged).toEqual(['user:jane@contoso.com', 'tag:MTk6YWJj']);
    // The comment's own <at> tag is broken: it is text, not a mention.
    expect(JSON.stringify(fake.posts.at(-1)?.card)).not.toContain('<at>Jane</at>');
  });

  it('pauses a webhook whose workflow was turned off (404), and drops a card Teams found too large (413)', async () => {
    const { post, webhook } = await teamsWebhook('gone');
    fake.turnOff(webhook.id);
    expect(await post({ kind: 'info', title: 'x', fallback: 'x' })).toMatchObject({
      status: 'rejected',
      code: 'webhook_gone',
      scope: 'destination',
    });
  });

  it('waits as long as a 429 says and posts no more than 4 a second to one webhook', async () => {
    const { post } = await teamsWebhook('busy');
    const outcomes = [];
    for (let i = 0; i < 5; i += 1) outcomes.push(await post({ kind: 'info', title: `n${i}`, fallback: 'x' }));
    // Unpaced here (the outbox paces): the fifth in one second is refused with Retry-After.
    const refused = outcomes.filter((o) => o.status === 'failed');
    expect(refused.length).toBeLessThanOrEqual(1);
    for (const outcome of refused)
      expect(outcome).toMatchObject({ code: 'rate_limited', retryAfterMs: expect.any(Number) });
    fake.problems.splice(0);
  });

  it('refuses a retired Office 365 connector URL, saying how to make a Workflows one', () => {
    const recognized = recognizeWebhook(
      [TEAMS_WEBHOOK],
      'https://contoso.webhook.office.com/webhookb2/abc@def/IncomingWebhook/123/456',
      false,
    );
    expect(recognized).toEqual({ problem: expect.stringMatching(/retired.*Workflows/) });
  });

  it('shows its URL with the signature masked', () => {
    const url = new URL(fake.addWebhook().url);
    const shown = TEAMS_WEBHOOK.redact(url);
    expect(shown).not.toContain(url.searchParams.get('sig') as string);
    expect(shown).toContain('sig=****');
  });
});
