import { renderConsoleReply } from '../../adapters/console/render-console-reply.js';
import { whyReply } from '../../src/commands/why.js';
import { emptyHeldState } from '../../src/held-items/held-item-store.js';
import { DAY, HOUR, MINUTE, post, SITE, subscription, whyWorld } from '../support/why-world.js';

/**
 * The `/directory why` answers docs/commands.md shows, each made by the real `explainItem` over
 * what a channel's bot would keep: why-docs.test.ts renders them and checks the docs show them.
 * Monday 23 November 2026, 11:00 UTC; channel C0123 on Slack.
 */
export const NOW = Date.parse('2026-11-23T11:00:00Z');
const CREATED = NOW - 14 * DAY;

/** A post posted here by one subscription: a duplicate for a second, filtered out by a third. */
async function delivered() {
  const world = whyWorld(NOW);
  world.subscriptions.push(
    subscription('s1a2b3c', 'posts', CREATED),
    subscription('s4d5e6f', 'posts', CREATED, { filters: { minVotes: 5 } }),
    subscription('s0j1k2l', 'posts', CREATED, { filters: { keywords: ['ai'] } }),
    subscription('s7g8h9i', 'comments', CREATED),
  );
  world.directory.posts.push(post('42', 'Analytical Engine', { votesCount: 12 }));
  await world.posted('posts:new:42', NOW - 2 * HOUR - 5 * MINUTE, ['s1a2b3c'], 'Analytical Engine');
  return { world, asked: `${SITE}/posts/analytical-engine`, item: 'posts:new:42', id: '42' };
}

/** A comment that two subscriptions' filters keep out, one that was not polled yet for the feed. */
async function filtered() {
  const world = whyWorld(NOW);
  world.subscriptions.push(
    subscription('s7g8h9i', 'comments', CREATED, { filters: { user: 'ada' } }),
    subscription('s0j1k2l', 'comments', CREATED, { filters: { post: 'difference-engine' } }),
    subscription('s1a2b3c', 'posts', CREATED),
  );
  world.directory.comments.push({
    id: '812',
    body: 'Could it run on a smaller boiler?',
    createdAt: new Date(NOW - 40 * MINUTE).toISOString(),
    url: `${SITE}/posts/analytical-engine?comment=812`,
    postId: '42',
    post: post('42', 'Analytical Engine'),
    user: { id: 'u2', username: 'charles', name: 'Charles', redacted: false },
  });
  await world.feedState('comments', { newestId: '815' });
  return { world, asked: `${SITE}/posts/analytical-engine?comment=812`, item: 'comments:new:812', id: '812' };
}

/** A post held for a Berlin channel's 09:00 digest, and waiting in the outbox for another. */
async function held() {
  const world = whyWorld(NOW);
  world.subscriptions.push(
    subscription('s1a2b3c', 'posts', CREATED, {
      schedule: { digest: { every: 'daily', at: { hour: 9, minute: 0 } }, top: 5, timeZone: 'Europe/Berlin' },
    }),
    subscription('s4d5e6f', 'posts', CREATED, {
      platform: 'slack',
      channelId: 'C0123',
      filters: { minVotes: 100 },
    }),
  );
  await world.hold('s1a2b3c', {
    ...emptyHeldState(),
    lastDigestAt: Date.parse('2026-11-23T08:00:00Z'),
    items: [
      {
        itemKey: 'posts:new:57',
        feed: 'posts',
        message: {
          kind: 'post',
          title: 'Jacquard Loom',
          url: `${SITE}/posts/jacquard-loom`,
          fallback: 'New post: Jacquard Loom',
        },
        discoveredAt: NOW - 25 * MINUTE,
        reason: 'digest',
        votes: 130,
      },
    ],
  });
  await world.queued('posts:new:56', ['s4d5e6f']);
  await world.queued('posts:new:57', ['s4d5e6f'], {
    message: {
      kind: 'post',
      title: 'Jacquard Loom',
      url: `${SITE}/posts/jacquard-loom`,
      fallback: 'New post: Jacquard Loom',
    },
  });
  return { world, asked: '57', item: 'posts:new:57', id: '57' };
}

export const WHY_EXAMPLES = { delivered, filtered, held } as const;

/** The answer `/directory why` gives in an example channel, as the console prints it. */
export async function renderedExample(name: keyof typeof WHY_EXAMPLES): Promise<string> {
  const { world, asked } = await WHY_EXAMPLES[name]();
  const explanation = await world.explain(asked);
  const feeds = new Map(world.subscriptions.map((s) => [s.id, s.feed]));
  return renderConsoleReply(whyReply(explanation, feeds));
}
