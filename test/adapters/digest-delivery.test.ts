import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { composeDigest } from '../../src/messages/index.js';
import type { ChatAdapter } from '../../src/ports/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { createCapturingLogger } from '../support/capturing-logger.js';
import { DELIVERY_TOKEN, deliveryAdapter } from '../support/discord-delivery.js';
import { CHANNEL_ID, discordScript } from '../support/discord-interactions.js';
import { FakeCommandHandler } from '../support/fake-command-handler.js';
import { dailyDigest, heldComment } from '../support/held-items.js';

/**
 * A 200-item digest posted through the real adapters to the fake Slack and Discord APIs, which
 * check every request against the platforms' published limits and answer `invalid_blocks` /
 * 50035 as the real ones would: every part is accepted, in order, and every item is in one.
 */

// Comments with long bodies full of characters each platform must escape.
const items = Array.from({ length: 200 }, (_, i) =>
  heldComment(i, 1000 - i, `${i} & <!channel> @everyone *${'[x](https://evil.test) & '.repeat(20)}`),
);
const parts = composeDigest(dailyDigest(items, { feed: 'comments' }));
const commentUrl = /analytical-engine\?comment=(\d+)/g;

function itemsIn(bodies: unknown[]): string[] {
  return bodies.flatMap((body) =>
    [...JSON.stringify(body).matchAll(commentUrl)].map((match) => match[1] as string),
  );
}

describe('a 200-item digest through the fakes', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('splits into parts titled 1/N…N/N', () => {
    expect(parts.length).toBeGreaterThanOrEqual(10);
    expect(parts.map((part) => /\((\d+)\/(\d+)\)$/.exec(part.title)?.slice(1).join('/'))).toEqual(
      parts.map((_, i) => `${i + 1}/${parts.length}`),
    );
  });

  it('posts every part to Slack, all accepted', async () => {
    let now = 1_700_000_000_000;
    const slack = await new FakeSlackApi({ now: () => now }).start();
    close = () => slack.close();
    slack.addToken('xoxb-test', 'T1');
    slack.addChannel('C1');
    const adapter = createSlackAdapter({
      botToken: 'xoxb-test',
      signingSecret: 'secret',
      apiUrl: slack.apiUrl,
      logger: createCapturingLogger(),
    });
    for (const [index, part] of parts.entries()) {
      const outcome = await adapter.deliver({ platform: 'slack', channelId: 'C1' }, part, {
        idempotencyKey: `digest:${index}`,
      });
      expect(outcome.status).toBe('delivered');
      now += 1_100; // Slack's one message a second per channel
    }
    const posts = slack.callsTo('chat.postMessage');
    expect(posts).toHaveLength(parts.length);
    expect(slack.violations).toEqual([]);
    expect(itemsIn(posts.map((call) => call.params['blocks']))).toEqual(items.map((_, i) => String(i)));
    expect(JSON.stringify(posts.map((call) => call.params))).not.toContain('<!channel>');
  });

  it('posts every part to Discord, all accepted', async () => {
    // Pacing is the outbox's job (tested there); a roomy bucket keeps this test about limits.
    const now = 1_700_000_000_000;
    const rest = new FakeDiscordRest({
      token: DELIVERY_TOKEN,
      now: () => now,
      bucket: { limit: 100, windowMs: 5_000 },
    });
    await rest.listen();
    rest.addChannel(CHANNEL_ID);
    const adapter: ChatAdapter = deliveryAdapter(rest.url, () => {});
    await adapter.start({
      http: { mount: () => {} },
      commands: new FakeCommandHandler(discordScript),
      logger: createCapturingLogger(),
    });
    close = async () => {
      await adapter.stop();
      await rest.close();
    };
    for (const [index, part] of parts.entries()) {
      const outcome = await adapter.deliver({ platform: 'discord', channelId: CHANNEL_ID }, part, {
        idempotencyKey: `digest:${index}`,
      });
      expect(outcome).toMatchObject({ status: 'delivered' });
    }
    const posted = rest.messages.get(CHANNEL_ID) ?? [];
    expect(posted).toHaveLength(parts.length);
    expect(rest.problems).toEqual([]);
    expect(itemsIn(posted.map((message) => message.body['embeds']))).toEqual(items.map((_, i) => String(i)));
  });
});
