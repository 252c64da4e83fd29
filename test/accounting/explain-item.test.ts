import { describe, expect, it } from 'vitest';
import { emptyHeldState } from '../../src/held-items/held-item-store.js';
import { DAY, HOUR, MINUTE, post, SITE, subscription, whyWorld } from '../support/why-world.js';

/** Monday 23 November 2026, 11:00 UTC. */
const NOW = Date.parse('2026-11-23T11:00:00Z');
const WEEK_AGO = NOW - 7 * DAY;
const ENGINE = post('42', 'Analytical Engine', {
  createdAt: new Date(NOW - 2 * HOUR).toISOString(),
  tagline: 'Computing by steam',
});

function line(explanation: Awaited<ReturnType<ReturnType<typeof whyWorld>['explain']>>, id: string) {
  const found = explanation.lines.find((l) => l.subscriptionId === id);
  if (!found) throw new Error(`no line for ${id}: ${JSON.stringify(explanation)}`);
  return found;
}

describe('why an item was or was not posted: one verdict per subscription', () => {
  it('delivered: when, and the link to the message, without asking the directory', async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(subscription('s1', 'posts', WEEK_AGO));
    await world.posted('posts:new:42', NOW - HOUR, ['s1']);
    const answer = await world.explain(`${SITE}/posts/42`);
    expect(line(answer, 's1')).toEqual({
      subscriptionId: 's1',
      verdict: 'delivered',
      text: 'Posted here 10:00 UTC (1 h ago).',
      at: NOW - HOUR,
      link: 'https://acme.slack.com/archives/C0123/p1763895900000100',
    });
    expect(answer.item).toMatchObject({ key: 'posts:new:42', feed: 'posts', id: '42' });
    expect(world.lookups).toEqual([]);
  });

  it('delivered: says when it was last edited, or deleted after the directory removed it', async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(subscription('s1', 'posts', WEEK_AGO));
    await world.posted('posts:new:42', NOW - 3 * HOUR, ['s1']);
    await world.logged({
      at: NOW - HOUR,
      itemKey: 'posts:new:42',
      outcome: 'deleted',
      subscriptionIds: ['s1'],
    });
    expect(line(await world.explain('42'), 's1').text).toBe(
      'Posted here 08:00 UTC (3 h ago). It was deleted 10:00 UTC (1 h ago), after the directory removed the item.',
    );
  });

  it('delivered before the log existed: the ledger says when, the adapter makes the link', async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(subscription('s1', 'posts', WEEK_AGO), subscription('s2', 'posts', WEEK_AGO));
    await world.ledger.markDelivered('slack:C0123', 'posts:new:42', {
      messageId: '1763.5',
      postedAt: NOW - DAY,
    });
    const answer = await world.explain('42');
    expect(line(answer, 's1')).toMatchObject({
      verdict: 'delivered',
      text: 'Posted here Sun 22 Nov 11:00 UTC (24 h ago).',
      link: 'https://acme.slack.com/archives/C0123/p17635',
    });
    expect(line(answer, 's2').verdict).toBe('duplicate');
  });

  it('duplicate: posted through another subscription whose filters it passes too, with its link', async () => {
    const world = whyWorld(NOW);
    world.directory.posts.push(ENGINE);
    world.subscriptions.push(
      subscription('s1', 'posts', WEEK_AGO),
      subscription('s2', 'posts', WEEK_AGO, { filters: { minVotes: 5 } }),
      subscription('s3', 'posts', WEEK_AGO, { filters: { minVotes: 50 } }),
    );
    await world.posted('posts:new:42', NOW - HOUR, ['s1']);
    const answer = await world.explain('42');
    expect(line(answer, 's2')).toEqual({
      subscriptionId: 's2',
      verdict: 'duplicate',
      text: 'Already posted here through s1 10:00 UTC (1 h ago): a channel gets each item once.',
      at: NOW - HOUR,
      link: 'https://acme.slack.com/archives/C0123/p1763895900000100',
    });
    // One that its own filter keeps out is filtered, not a duplicate.
    expect(line(answer, 's3').text).toBe('Filtered out by --min-votes 50: it has 10 votes.');
    expect(world.lookups).toHaveLength(1);
  });

  it('not this feed: a subscription to another feed', async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(subscription('s1', 'posts', WEEK_AGO), subscription('s3', 'comments', WEEK_AGO));
    await world.posted('posts:new:42', NOW - HOUR, ['s1']);
    expect(line(await world.explain('42'), 's3')).toEqual({
      subscriptionId: 's3',
      verdict: 'not_this_feed',
      text: 'Follows comments; this is a post.',
    });
  });

  it('queued: its turn in the channel, paced to the platform', async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(subscription('s1', 'posts', WEEK_AGO));
    await world.queued('posts:new:41', ['s1']);
    await world.queued('posts:new:42', ['s1']);
    expect(line(await world.explain('42'), 's1')).toMatchObject({
      verdict: 'queued',
      text: "Waiting in the outbox, 1 message ahead of it, paced to Slack's limits.",
    });
  });

  it("queued: a retry after a failure, with the platform's reason and the next try", async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(subscription('s1', 'posts', WEEK_AGO));
    await world.queued('posts:new:42', ['s1'], { attempts: 2, notBefore: NOW + 4 * MINUTE });
    await world.logged({
      at: NOW - MINUTE,
      itemKey: 'posts:new:42',
      outcome: 'failed',
      code: 'http_503',
      reason: 'Service Unavailable',
      subscriptionIds: ['s1'],
    });
    expect(line(await world.explain('42'), 's1')).toMatchObject({
      verdict: 'queued',
      text: 'Waiting in the outbox: the last try failed (http_503: Service Unavailable); next try 11:04 UTC (in 4 min).',
      at: NOW + 4 * MINUTE,
    });
  });

  it('queued: waiting out a rate limit', async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(subscription('s1', 'posts', WEEK_AGO));
    await world.queued('posts:new:42', ['s1'], { notBefore: NOW + 30_000 });
    expect(line(await world.explain('42'), 's1').text).toBe(
      'Waiting in the outbox: Slack asked the bot to slow down; next try 11:00 UTC (in 30 s).',
    );
  });

  it("held for a digest: when it goes, in the schedule's zone", async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(
      subscription('s1', 'posts', WEEK_AGO, {
        schedule: { digest: { every: 'daily', at: { hour: 9, minute: 0 } }, timeZone: 'Europe/Berlin' },
      }),
    );
    await world.hold('s1', {
      ...emptyHeldState(),
      lastDigestAt: Date.parse('2026-11-23T08:00:00Z'),
      items: [
        {
          itemKey: 'posts:new:42',
          feed: 'posts',
          message: { kind: 'post', title: 'Analytical Engine', fallback: '' },
          discoveredAt: NOW - HOUR,
          reason: 'digest',
        },
      ],
    });
    const answer = await world.explain('42');
    expect(line(answer, 's1')).toEqual({
      subscriptionId: 's1',
      verdict: 'held',
      text: 'Held for the digest, which goes Tue 24 Nov 09:00 Europe/Berlin (in 21 h).',
      at: Date.parse('2026-11-24T08:00:00Z'),
    });
    expect(answer.item?.title).toBe('Analytical Engine');
    expect(world.lookups).toEqual([]);
  });

  it('held by quiet hours, and over a cap: until they end', async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(
      subscription('s1', 'posts', WEEK_AGO, {
        schedule: { quiet: { from: { hour: 10, minute: 0 }, to: { hour: 12, minute: 0 } } },
      }),
      subscription('s2', 'posts', WEEK_AGO, { schedule: { maxPerHour: 3 } }),
    );
    const item = (reason: 'quiet' | 'cap') => ({
      itemKey: 'posts:new:42',
      feed: 'posts',
      message: { kind: 'post' as const, title: 'Analytical Engine', fallback: '' },
      discoveredAt: NOW - 10 * MINUTE,
      reason,
    });
    await world.hold('s1', { ...emptyHeldState(), quietUntil: NOW + HOUR, items: [item('quiet')] });
    await world.hold('s2', { ...emptyHeldState(), capUntil: NOW + HOUR, items: [item('cap')] });
    const answer = await world.explain('42');
    expect(line(answer, 's1').text).toBe(
      'Held for quiet hours; they end 12:00 UTC (in 1 h), and it is posted then (in one summary if many were held).',
    );
    expect(line(answer, 's2').text).toBe(
      'Held over the cap (3 an hour): it goes in one summary 12:00 UTC (in 1 h).',
    );
  });

  it('a duplicate of what another subscription holds for its digest', async () => {
    const world = whyWorld(NOW);
    world.directory.posts.push(ENGINE);
    world.subscriptions.push(
      subscription('s1', 'posts', WEEK_AGO, { schedule: { digest: { every: 'hourly' } } }),
      subscription('s2', 'posts', WEEK_AGO),
    );
    await world.hold('s1', {
      ...emptyHeldState(),
      lastDigestAt: NOW,
      items: [
        {
          itemKey: 'posts:new:42',
          feed: 'posts',
          message: { kind: 'post', title: 'Analytical Engine', fallback: '' },
          discoveredAt: NOW - MINUTE,
          reason: 'digest',
        },
      ],
    });
    expect(line(await world.explain('42'), 's2')).toEqual({
      subscriptionId: 's2',
      verdict: 'duplicate',
      text: "Already taken here by s1's schedule (held, or in its digest): a channel gets each item once.",
    });
  });

  it('released in a digest: the digest it went out in, with its link', async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(
      subscription('s1', 'posts', WEEK_AGO, { schedule: { digest: { every: 'hourly' } } }),
    );
    await world.hold('s1', { ...emptyHeldState(), released: ['posts:new:42'], lastDigestAt: NOW });
    await world.logged({
      at: NOW - 2 * MINUTE,
      itemKey: 'digest:s1:2026-11-23T11:00:00.000Z:1',
      outcome: 'delivered',
      link: 'https://acme.slack.com/archives/C0123/p1',
      subscriptionIds: ['s1'],
    });
    // Its second part, in the first's thread: the answer links the digest's own message.
    await world.logged({
      at: NOW - MINUTE,
      itemKey: 'digest:s1:2026-11-23T11:00:00.000Z:2',
      outcome: 'delivered',
      link: 'https://acme.slack.com/archives/C0123/p2',
      subscriptionIds: ['s1'],
    });
    expect(line(await world.explain('42'), 's1')).toEqual({
      subscriptionId: 's1',
      verdict: 'delivered',
      text: 'Went out in the digest posted 10:58 UTC (2 min ago).',
      at: NOW - 2 * MINUTE,
      link: 'https://acme.slack.com/archives/C0123/p1',
    });
  });

  it('filtered out: which filter, and what the item had, with one lookup for every subscription', async () => {
    const world = whyWorld(NOW);
    world.directory.posts.push(ENGINE);
    await world.feedState('posts', { seen: ['42'], watermark: NOW - 2 * HOUR });
    world.subscriptions.push(
      subscription('s1', 'posts', WEEK_AGO, { filters: { keywords: ['ai', 'robots'] } }),
      subscription('s2', 'posts', WEEK_AGO, { filters: { minVotes: 50 } }),
      subscription('s3', 'posts', WEEK_AGO, { filters: { exclude: ['steam'] } }),
    );
    const answer = await world.explain(`${SITE}/posts/analytical-engine`);
    expect(line(answer, 's1')).toEqual({
      subscriptionId: 's1',
      verdict: 'filtered',
      text: 'Filtered out by --keyword ai, robots: it mentions none of them.',
    });
    expect(line(answer, 's2').text).toBe('Filtered out by --min-votes 50: it has 10 votes.');
    expect(line(answer, 's3').text).toBe('Filtered out by --exclude steam: it mentions "steam".');
    expect(world.lookups).toHaveLength(1);
    expect(answer.item).toEqual({
      key: 'posts:new:42',
      feed: 'posts',
      id: '42',
      title: 'Analytical Engine',
      url: `${SITE}/posts/analytical-engine`,
    });
  });

  it('not polled yet: the feed has not reached it, and when the next poll is', async () => {
    const world = whyWorld(NOW);
    world.directory.posts.push(ENGINE);
    await world.feedState('posts', { seen: [], watermark: NOW - 3 * HOUR });
    world.polling.push({ feed: 'posts', intervalMs: 5 * MINUTE, nextPollAt: NOW + 2 * MINUTE });
    world.subscriptions.push(subscription('s1', 'posts', WEEK_AGO));
    expect(line(await world.explain('42'), 's1')).toEqual({
      subscriptionId: 's1',
      verdict: 'not_polled',
      text: 'Not polled yet: the posts feed has not reached it; the next poll is 11:02 UTC (in 2 min).',
      at: NOW + 2 * MINUTE,
    });
  });

  it('not polled yet: a feed never polled', async () => {
    const world = whyWorld(NOW);
    world.directory.posts.push(ENGINE);
    world.subscriptions.push(subscription('s1', 'posts', NOW - 5 * MINUTE));
    expect(line(await world.explain('42'), 's1')).toMatchObject({
      verdict: 'not_polled',
      text: 'Not polled yet: the posts feed has not been polled, so it has found nothing so far.',
    });
  });

  it('too old: from before the subscription', async () => {
    const world = whyWorld(NOW);
    world.directory.posts.push(ENGINE);
    await world.feedState('posts', { seen: ['42'], watermark: NOW - HOUR });
    world.subscriptions.push(subscription('s1', 'posts', NOW - 30 * MINUTE));
    expect(line(await world.explain('42'), 's1')).toEqual({
      subscriptionId: 's1',
      verdict: 'too_old',
      text: 'Too old: it is from 09:00 UTC (2 h ago), before this subscription began 10:30 UTC (30 min ago); a subscription posts only what is found after it.',
      at: NOW - 2 * HOUR,
    });
  });

  it("failed: the platform's reason for refusing the message", async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(subscription('s1', 'posts', WEEK_AGO));
    await world.logged({
      at: NOW - 5 * MINUTE,
      itemKey: 'posts:new:42',
      outcome: 'dropped',
      code: 'invalid_blocks',
      reason: 'a block was too long',
      subscriptionIds: ['s1'],
    });
    expect(line(await world.explain('42'), 's1')).toEqual({
      subscriptionId: 's1',
      verdict: 'failed',
      text: 'Slack refused this message 10:55 UTC (5 min ago) (invalid_blocks: a block was too long); it was dropped, not retried.',
      at: NOW - 5 * MINUTE,
    });
    expect(world.lookups).toEqual([]);
  });

  it('paused: why, and how to resume it, without asking the directory', async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(
      subscription('s1', 'posts', WEEK_AGO, {
        paused: { code: 'channel_not_found', reason: 'Slack says the channel does not exist', at: NOW - DAY },
      }),
    );
    expect(line(await world.explain('42'), 's1')).toEqual({
      subscriptionId: 's1',
      verdict: 'paused',
      text: 'Paused: Slack says the channel does not exist. Nothing is posted for it until `resume s1`.',
      at: NOW - DAY,
    });
    expect(world.lookups).toEqual([]);
  });

  it('no record: found and matching, but nothing kept about it here', async () => {
    const world = whyWorld(NOW);
    world.directory.posts.push(ENGINE);
    await world.feedState('posts', { seen: ['42'], watermark: NOW - HOUR });
    world.subscriptions.push(subscription('s1', 'posts', WEEK_AGO));
    expect(line(await world.explain('42'), 's1')).toMatchObject({ verdict: 'no_record' });
  });

  it('reads comment, collection, live-event and notification links, and item keys', async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(subscription('s1', 'comments', WEEK_AGO));
    for (const [typed, key] of [
      [`${SITE}/posts/analytical-engine?comment=812`, 'comments:new:812'],
      ['comment:812', 'comments:new:812'],
      ['comments:new:812', 'comments:new:812'],
      [`<${SITE}/notifications/77|a notification>`, 'notifications:new:77'],
    ] as const) {
      await world.ledger.markDelivered('slack:C0123', key, { messageId: '1.1', postedAt: NOW });
      expect((await world.explain(typed)).item?.key).toBe(key);
    }
    world.directory.collections.push({
      id: '9',
      name: 'Steam picks',
      url: `${SITE}/@ada/collections/steam-picks`,
      featuredAt: new Date(NOW).toISOString(),
    } as never);
    await world.feedState('collections', { seen: ['9'], watermark: NOW });
    expect((await world.explain(`${SITE}/@ada/collections/steam-picks`)).item?.key).toBe('collections:new:9');
    world.directory.live.push({
      id: '5',
      name: 'AMA week',
      startsAt: null,
      liveVideo: true,
      url: `${SITE}/live/ama-week`,
    });
    expect((await world.explain(`${SITE}/live/ama-week`)).item?.key).toBe('live:new:5');
  });

  it('says what is wrong with what was pasted, and asks nothing', async () => {
    const world = whyWorld(NOW);
    world.subscriptions.push(subscription('s1', 'posts', WEEK_AGO));
    expect((await world.explain('https://evil.example/posts/42')).notice).toBe(
      'evil.example is not the directory, so that link names none of its items. Paste a link from www.example-directory.test.',
    );
    expect((await world.explain(`${SITE}/@ada`)).notice).toMatch(
      /^That is ada's page, a person, not an item/,
    );
    expect((await world.explain('comment:first')).notice).toBe(
      'A comment is named by its number, not "first".',
    );
    expect((await world.explain('!!')).notice).toMatch(/^That names no item\. Give a directory link/);
    expect(world.lookups).toEqual([]);
  });

  it('a channel that follows nothing, an item the directory does not have, a lookup the asker must wait for', async () => {
    const empty = whyWorld(NOW);
    expect(await empty.explain('42')).toEqual({
      notice: 'This channel follows nothing, so nothing is posted here: `subscribe` adds a feed.',
      lines: [],
    });
    const world = whyWorld(NOW);
    world.subscriptions.push(subscription('s1', 'posts', WEEK_AGO));
    expect(await world.explain('no-such-post')).toEqual({
      notice: 'The directory has no such post now: it was removed, or never there.',
      lines: [],
    });
    world.limitLookups(12_000);
    expect((await world.explain('analytical-engine')).notice).toBe(
      'Could not look the item up: you have asked for many lookups lately; try again in 12 s.',
    );
  });
});
