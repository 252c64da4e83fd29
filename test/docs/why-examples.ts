import { renderConsoleReply } from '../../adapters/console/render-console-reply.js';
import { HeldItems } from '../../src/held-items/index.js';
import { directoryKeys } from '../../src/store/index.js';
import type { Subscription } from '../../src/subscriptions/index.js';
import {
  SUBSCRIPTIONS_KEY,
  SUBSCRIPTIONS_VERSION_KEY,
} from '../../src/subscriptions/subscription-repository.js';
import { accountingWorld, CHANNEL, DESTINATION_KEY } from '../support/accounting-harness.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The `/directory why` answers docs/commands.md shows, made by the real command against the
 * emulator on a manual clock (Monday 23 November 2026, 10:20 UTC): a channel with three
 * subscriptions — comments mentioning "maps", a daily digest of comments at 09:00 in Berlin, and
 * posts — asked about a comment it received, one it holds for the digest, and one the comments
 * feed has not polled yet. why-docs.test.ts checks that the docs show exactly these.
 */
export async function whyExamples(): Promise<{ delivered: string; held: string; notPolled: string }> {
  const w = await accountingWorld();
  try {
    const { admin } = w.world.emulator;
    w.clock.set(Date.UTC(2026, 10, 23, 10, 0));
    const created = w.clock.now() - 2 * 24 * HOUR;
    const subscription = (id: string, extra: Partial<Subscription>): Subscription => ({
      id,
      ...CHANNEL,
      workspaceId: 'T0123ABCD',
      feed: 'comments',
      filters: {},
      createdBy: 'U0123ADMIN',
      createdAt: created,
      ...extra,
    });
    const maps = subscription('s1a2b3c', { filters: { keywords: ['maps'] } });
    const digest = subscription('s4d5e6f', {
      schedule: { digest: { every: 'daily', at: { hour: 9, minute: 0 } }, timeZone: 'Europe/Berlin' },
    });
    const posts = subscription('s7g8h9i', { feed: 'posts' });
    await w.bot.store.keyv.set(SUBSCRIPTIONS_KEY, [maps, digest, posts]);
    await w.bot.store.keyv.set(SUBSCRIPTIONS_VERSION_KEY, 'why-examples');

    // Two comments found by the poll at 10:01: the first mentions maps and was posted for
    // s1a2b3c; the other does not, and the digest holds it.
    const posted = admin.addComment({ body: 'These maps finally make the trail readable.' });
    const other = admin.addComment({ body: 'Does it work offline on a long hike?' });
    const postedKey = `comments:new:${posted['id']}`;
    // As the comments feed titles them: the post's name.
    const title = (comment: Record<string, unknown>) =>
      `New comment on ${(comment['post'] as { name: string } | undefined)?.name ?? 'a post'}`;
    const foundAt = w.clock.now() + MINUTE;
    w.clock.advance(20 * MINUTE);
    const link = 'https://acme.slack.com/archives/C0123ABCD/p1795410060000100';
    await w.bot.engine.ledger.markDelivered(DESTINATION_KEY, postedKey, {
      messageId: '1795410060.000100',
      postedAt: foundAt,
    });
    await w.bot.engine.deliveryLog.record({
      at: foundAt,
      destinationKey: DESTINATION_KEY,
      itemKey: postedKey,
      outcome: 'delivered',
      messageId: '1795410060.000100',
      link,
      title: title(posted),
      subscriptionIds: [maps.id],
    });
    const held = new HeldItems({ keyv: w.bot.store.keyv, directoryId: w.bot.directoryId });
    const message = { kind: 'comment' as const, title: title(other), fallback: 'comment' };
    await held.update(digest.id, () => ({
      next: {
        items: [
          {
            itemKey: `comments:new:${other['id']}`,
            feed: 'comments',
            message,
            discoveredAt: foundAt,
            reason: 'digest',
          },
        ],
        omitted: {},
        lastDigestAt: Date.UTC(2026, 10, 23, 8, 0),
      },
      result: undefined,
    }));
    const keys = directoryKeys(w.bot.directoryId);
    await w.bot.store.keyv.set(keys.feedState('comments'), { newestId: String(other['id']) });

    // A comment made since that poll: the feed reaches it at the next one.
    const newer = admin.addComment({ body: 'Launch day! The maps are live.' });
    await w.bot.store.keyv.set(keys.feedHealth, [
      { feed: 'comments', intervalMs: MINUTE, consecutiveFailures: 0, nextPollAt: w.clock.now() + 40_000 },
    ]);

    const ask = w.commands();
    return {
      delivered: renderConsoleReply(await ask(`why comment ${posted['id']}`)),
      held: renderConsoleReply(await ask(`why ${other['url']}`)),
      notPolled: renderConsoleReply(await ask(`why comment ${newer['id']}`)),
    };
  } finally {
    await w.close();
  }
}
