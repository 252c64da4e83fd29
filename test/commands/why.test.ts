import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountingWorld, DESTINATION_KEY } from '../support/accounting-harness.js';

type World = Awaited<ReturnType<typeof accountingWorld>>;

let w: World;
beforeEach(async () => {
  w = await accountingWorld();
});
afterEach(async () => {
  await w.close();
});

describe('/directory why', () => {
  it('answers anyone in the channel, one line per subscription, under a card linked to the item', async () => {
    const comment = w.world.emulator.admin.addComment({ body: 'Field notes on maps' });
    const key = `comments:new:${comment['id']}`;
    const { subscription: comments } = await w.subscribe('comments');
    const { subscription: posts } = await w.subscribe('posts');
    await w.bot.engine.ledger.markDelivered(DESTINATION_KEY, key, {
      messageId: '1.2',
      postedAt: w.clock.now(),
    });
    await w.bot.engine.deliveryLog.record({
      at: w.clock.now(),
      destinationKey: DESTINATION_KEY,
      itemKey: key,
      outcome: 'delivered',
      link: 'https://acme.slack.com/archives/C0WHY/p12',
      title: 'New comment on Atlas',
      subscriptionIds: [comments.id],
    });
    const ask = w.commands();
    // Not a channel manager: a read command, as subscriptions and status are.
    const reply = await ask(`why comment ${comment['id']}`);
    expect(reply.error).toBeUndefined();
    expect(reply.visibility).toBe('ephemeral');
    expect(reply.text).toBe(`What became of comment ${comment['id']} in this channel, per subscription.`);
    expect(reply.messages).toEqual([
      expect.objectContaining({
        kind: 'info',
        title: 'Why: New comment on Atlas',
        text: [
          `${comments.id} (comments): Delivered 10:00 UTC (just now): https://acme.slack.com/archives/C0WHY/p12`,
          `${posts.id} (posts): Follows posts; this is a comment.`,
        ].join('\n'),
      }),
    ]);
  });

  it('takes a link wrapped as chat clients send it, and a kind and id typed apart', async () => {
    const comment = w.world.emulator.admin.addComment({ body: 'Hello' });
    await w.subscribe('comments');
    const ask = w.commands();
    const link = `<https://www.example-directory.test/posts/x?comment=${comment['id']}|a link>`;
    expect((await ask(`why ${link}`)).text).toContain(`comment ${comment['id']}`);
    expect((await ask(`why comment ${comment['id']}`)).text).toContain(`comment ${comment['id']}`);
  });

  it('refuses a bad argument with the usage, and says what the directory does not have', async () => {
    await w.subscribe('comments');
    const ask = w.commands();
    const bad = await ask('why banana');
    expect(bad.error).toMatchObject({
      code: 'command_usage',
      usage: expect.stringContaining('why <item link'),
    });
    expect(bad.text).toMatch(/^"banana" names no item/);
    const missing = await ask('why comment 99999999');
    expect(missing.error?.code).toBe('upstream_not_found');
    expect(missing.text).toBe('The directory has no comment 99999999.');
    const none = await ask('why');
    expect(none.error?.code).toBe('command_usage');
  });

  it("spends the asker's lookup allowance: past it, the answer says what it could not check", async () => {
    const comment = w.world.emulator.admin.addComment({ body: 'Hello' });
    await w.subscribe('comments');
    const ask = w.commands({ userRateLimit: { perMinute: 1 } });
    expect((await ask(`why comment ${comment['id']}`)).messages[0]?.text).not.toContain('not checked');
    const requests = w.requests();
    const second = await ask(`why comment ${comment['id']}`);
    expect(second.text).toContain('You have asked the directory often in the last minute');
    expect(second.messages[0]?.text).toContain('so its filters and age were not checked');
    expect(w.requests()).toBe(requests);
    // Another person has their own allowance.
    expect((await ask(`why comment ${comment['id']}`, 'U0OTHER')).messages[0]?.text).not.toContain(
      'not checked',
    );
  });

  it('is listed by help', async () => {
    const help = await w.commands()('help why');
    expect(JSON.stringify(help)).toContain('why comment 812');
  });
});
