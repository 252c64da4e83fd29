import { describe, expect, it } from 'vitest';
import { composeDigest, composePostMessage, formatMessage } from '../../src/messages/index.js';
import { ENTRY_LIMITS, entryWeight } from '../../src/ports/index.js';
import { post as directoryPost } from '../fixtures/parsed-records.js';
import { DAY, DUE, dailyDigest, HOUR, heldComment, heldPost } from '../support/held-items.js';

describe('composeDigest: a top-N digest of posts', () => {
  it('ranks by votes, then comments, then whoever was found first, and shows the top N', () => {
    const items = [
      heldPost(1, { votes: 80, comments: 3, minutesBefore: 300 }),
      heldPost(2, { votes: 120, comments: 14 }),
      heldPost(3, { votes: 80, comments: 9, minutesBefore: 100 }),
      heldPost(4, { votes: 80, comments: 9, minutesBefore: 200 }), // same numbers as 3, found earlier
      heldPost(5, { votes: 300, comments: 1 }),
      heldPost(6, { votes: 2, comments: 0 }),
    ];
    const [digest, ...rest] = composeDigest(dailyDigest(items, { top: 5 }));
    expect(rest).toEqual([]);
    expect(digest?.kind).toBe('digest');
    expect(digest?.title).toBe('Top 5 posts · Mon 23 Nov');
    expect(digest?.entries?.map((entry) => [entry.rank, entry.title, entry.detail])).toEqual([
      [1, 'Launch 5', '300 votes · 1 comment'],
      [2, 'Launch 2', '120 votes · 14 comments'],
      [3, 'Launch 4', '80 votes · 9 comments'],
      [4, 'Launch 3', '80 votes · 9 comments'],
      [5, 'Launch 1', '80 votes · 3 comments'],
    ]);
    expect(digest?.entries?.[0]?.url).toBe('https://www.example-directory.test/posts/launch-5');
    expect(digest?.text).toBe('The 5 with the most votes of 6 posts found since Sun 22 Nov 09:00.');
    expect(digest?.fallback).toMatch(/^Top 5 posts · Mon 23 Nov: 1\. Launch 5, 2\. Launch 2/);
    expect(digest?.footer).toBe('Directory · daily digest · times in Europe/Berlin');
    // The instant, for platforms that show it in each reader's own zone.
    expect(digest?.timestamp).toBe(new Date(DUE).toISOString());
    // No per-item buttons: each line links to its item.
    expect(digest?.actions).toBeUndefined();
  });

  it('says "Top 3" when the day had only three posts, and ranks posts without numbers last', () => {
    const items = [heldPost(1), heldPost(2, { votes: 0, comments: 0 }), heldPost(3, { votes: 1 })];
    const [digest] = composeDigest(dailyDigest(items, { top: 5 }));
    expect(digest?.title).toBe('Top 3 posts · Mon 23 Nov');
    expect(digest?.text).toBe('All 3 posts found since Sun 22 Nov 09:00, by votes.');
    expect(digest?.entries?.map((entry) => [entry.title, entry.detail])).toEqual([
      ['Launch 3', '1 vote'],
      ['Launch 2', '0 votes · 0 comments'],
      ['Launch 1', undefined],
    ]);
  });

  it('shows an item held twice once, with its latest numbers', () => {
    const first = heldPost(1, { votes: 3, minutesBefore: 600 });
    const again = { ...heldPost(1, { votes: 90, minutesBefore: 30 }) };
    const [digest] = composeDigest(dailyDigest([first, heldPost(2, { votes: 50 }), again], { top: 5 }));
    expect(digest?.entries?.map((entry) => [entry.title, entry.detail])).toEqual([
      ['Launch 1', '90 votes'],
      ['Launch 2', '50 votes'],
    ]);
  });

  it('names the week for a weekly digest and the hour for an hourly one', () => {
    const items = [heldPost(1, { votes: 5 })];
    const weekly = composeDigest(
      dailyDigest(items, {
        top: 5,
        period: { from: DUE - 7 * DAY, to: DUE },
        recurrence: { every: 'weekly', day: 'mon', at: { hour: 9, minute: 0 } },
      }),
    );
    expect(weekly[0]?.title).toBe('Top 1 post · week to Mon 23 Nov');
    expect(weekly[0]?.footer).toBe('Directory · weekly digest · times in Europe/Berlin');
    const hourly = composeDigest(
      dailyDigest(items, { top: 5, period: { from: DUE - HOUR, to: DUE }, recurrence: { every: 'hourly' } }),
    );
    expect(hourly[0]?.title).toBe('Top 1 post · 08:00–09:00');
    // Late after an outage, an hourly digest covers more than its hour: its start names its day.
    const late = composeDigest(
      dailyDigest(items, {
        top: 5,
        period: { from: DUE - 2 * DAY, to: DUE },
        recurrence: { every: 'hourly' },
      }),
    );
    expect(late[0]?.title).toBe('Top 1 post · Sat 21 Nov 09:00–09:00');
    // On time, the hour before midnight is still one hour: no day named.
    const midnight = composeDigest(
      dailyDigest(items, {
        top: 5,
        period: { from: DUE - 10 * HOUR, to: DUE - 9 * HOUR },
        recurrence: { every: 'hourly' },
      }),
    );
    expect(midnight[0]?.title).toBe('Top 1 post · 23:00–00:00');
  });
});

describe('composeDigest: every item, oldest first', () => {
  it('lists a comments digest oldest first in each item one-line form, with the local time found', () => {
    const items = [heldComment(3, 10), heldComment(1, 50), heldComment(2, 30)];
    const [digest] = composeDigest(
      dailyDigest(items, { period: { from: DUE - HOUR, to: DUE }, recurrence: { every: 'hourly' } }),
    );
    expect(digest?.title).toBe('3 new comments since 08:00');
    expect(digest?.entries).toEqual([
      {
        title: 'New comment by Ada Lovelace on "Analytical Engine": Congrats on the launch!',
        url: 'https://www.example-directory.test/posts/analytical-engine?comment=1',
        detail: '08:10',
      },
      expect.objectContaining({ detail: '08:30' }),
      expect.objectContaining({ detail: '08:50' }),
    ]);
    expect(digest?.entries?.every((entry) => entry.rank === undefined)).toBe(true);
  });

  it('writes the start of a period on another local day with its day', () => {
    const [digest] = composeDigest(dailyDigest([heldComment(1, 20 * 60)], { feed: 'comments' }));
    expect(digest?.title).toBe('1 new comment since Sun 22 Nov 09:00');
    expect(digest?.entries?.[0]?.detail).toBe('Sun 22 Nov 13:00');
  });

  it('keeps a long comment to one short line', () => {
    const [digest] = composeDigest(
      dailyDigest([heldComment(1, 5, `Line one\nline two ${'long '.repeat(400)}`)]),
    );
    const title = digest?.entries?.[0]?.title ?? '';
    expect(title).not.toContain('\n');
    expect(title.length).toBeLessThanOrEqual(ENTRY_LIMITS.title);
    expect(title.endsWith('…')).toBe(true);
  });
});

describe('composeDigest: split into parts at item boundaries', () => {
  it('splits the top 50 into 1/3, 2/3, 3/3 with the ranking running on', () => {
    const items = Array.from({ length: 60 }, (_, i) => heldPost(i + 1, { votes: 1000 - i, comments: i }));
    const parts = composeDigest(dailyDigest(items, { top: 50 }));
    expect(parts.map((part) => part.title)).toEqual([
      'Top 50 posts · Mon 23 Nov (1/3)',
      'Top 50 posts · Mon 23 Nov (2/3)',
      'Top 50 posts · Mon 23 Nov (3/3)',
    ]);
    expect(parts.flatMap((part) => part.entries?.map((entry) => entry.rank))).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    expect(parts[0]?.text).toContain('The 50 with the most votes of 60 posts');
    expect(parts[1]?.text).toBeUndefined();
    expect(parts[2]?.fallback).toMatch(/^Top 50 posts · Mon 23 Nov \(3\/3\): 41\. Launch 41/);
  });

  it('keeps every part within the neutral bound, whatever the lines hold', () => {
    const long = '&<>*_`[]()|'.repeat(40);
    const items = Array.from({ length: 200 }, (_, i) =>
      heldPost(i, {
        votes: i,
        comments: i,
        name: `${i} ${long}`,
        url: `https://www.example-directory.test/posts/${'x'.repeat(350)}${i}`,
      }),
    );
    const parts = composeDigest(dailyDigest(items));
    expect(parts.length).toBeGreaterThan(10);
    expect(parts[0]?.title).toBe(`200 new posts since Sun 22 Nov 09:00 (1/${parts.length})`);
    for (const part of parts) {
      const entries = part.entries ?? [];
      expect(entries.length).toBeLessThanOrEqual(ENTRY_LIMITS.entries);
      expect(entries.reduce((sum, entry) => sum + entryWeight(entry), 0)).toBeLessThanOrEqual(
        ENTRY_LIMITS.weight,
      );
    }
    // Nothing is lost: every item appears once, oldest first.
    expect(
      parts.flatMap((part) => part.entries ?? []).map((entry) => /x(\d+)$/.exec(entry.url ?? '')?.[1]),
    ).toEqual(Array.from({ length: 200 }, (_, i) => String(199 - i)));
  });

  it('is one message in the channel: the first part, with the rest as replies in its thread', () => {
    const items = Array.from({ length: 44 }, (_, i) => heldComment(i + 1, (i + 1) * 60));
    const input = { ...dailyDigest(items, { feed: 'comments' }), lateFor: DUE, omitted: 3 };
    const [head, ...replies] = composeDigest(input, { rest: 'thread' });
    const parts = composeDigest(input, { rest: 'parts' });
    expect(parts.length).toBeGreaterThan(2);
    expect(head?.title).toBe('44 new comments since Sun 22 Nov 09:00');
    // The same lines as the numbered parts, the first part's in the channel.
    expect(head?.entries).toEqual(parts[0]?.entries);
    const rest = 44 - (head?.entries?.length ?? 0);
    expect(head?.text?.split('\n\n')).toEqual([
      'Late: this digest was due at Mon 23 Nov 09:00 (the bot was offline).',
      `And ${rest} more comments in this message's thread.`,
      '3 more items were found in this period but not kept (the oldest): a schedule holds at most 100 items at a time.',
    ]);
    expect(replies.map((reply) => reply.title)).toEqual(
      parts.slice(1).map((_, i) => `44 new comments since Sun 22 Nov 09:00 (${i + 2}/${parts.length})`),
    );
    expect(replies.map((reply) => reply.entries)).toEqual(parts.slice(1).map((part) => part.entries));
    expect(replies.every((reply) => reply.text === undefined)).toBe(true);
  });

  it('where it cannot thread, is the first part alone, saying how many more and where to see them', () => {
    const items = Array.from({ length: 60 }, (_, i) => heldPost(i + 1, { votes: 1000 - i }));
    const seeMore = '/directory digest s1a2b3c 2';
    const messages = composeDigest(dailyDigest(items, { top: 50 }), { rest: 'summary', seeMore });
    expect(messages).toHaveLength(1);
    const [head] = messages;
    expect(head?.title).toBe('Top 50 posts · Mon 23 Nov');
    expect(head?.entries?.map((entry) => entry.rank)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(head?.text).toBe(
      'The 50 with the most votes of 60 posts found since Sun 22 Nov 09:00.\n\n' +
        'And 30 more posts: see them with /directory digest s1a2b3c 2.',
    );
  });

  it('says nothing of a rest when everything fits one message, in any layout', () => {
    const items = Array.from({ length: 5 }, (_, i) => heldPost(i + 1, { votes: i }));
    const one = composeDigest(dailyDigest(items, { top: 5 }));
    for (const layout of [{ rest: 'thread' as const }, { rest: 'summary' as const, seeMore: 'x' }])
      expect(composeDigest(dailyDigest(items, { top: 5 }), layout)).toEqual(one);
  });

  it('leaves off a link too long to be worth its room, keeping the line', () => {
    const url = `https://www.example-directory.test/posts/${'x'.repeat(ENTRY_LIMITS.url)}`;
    const [digest] = composeDigest(dailyDigest([heldPost(1, { votes: 1, url })], { top: 5 }));
    expect(digest?.entries).toEqual([{ title: 'Launch 1', detail: '1 vote', rank: 1 }]);
  });
});

describe('composeDigest: quiet hours, caps, empty and late', () => {
  it('summarises what quiet hours held, with the window in local time', () => {
    const items = Array.from({ length: 9 }, (_, i) => ({
      ...heldComment(i, 60 * (9 - i)),
      reason: 'quiet' as const,
    }));
    const [summary, ...rest] = composeDigest({
      kind: 'quiet',
      feed: 'comments',
      items,
      period: { from: DUE - 11 * HOUR, to: DUE - 2 * HOUR },
      zone: 'Europe/Berlin',
    });
    expect(rest).toEqual([]);
    expect(summary?.title).toBe('While quiet hours were on (22:00–07:00): 9 updates');
    expect(summary?.entries).toHaveLength(9);
    expect(summary?.footer).toBe('Directory · quiet hours summary · times in Europe/Berlin');
  });

  it('folds what a cap held into "and 12 more", naming the limit and its window', () => {
    const items = Array.from({ length: 12 }, (_, i) => ({
      ...heldComment(i, 59 - i),
      reason: 'cap' as const,
    }));
    const input = {
      kind: 'cap' as const,
      feed: 'comments',
      items,
      period: { from: DUE - HOUR, to: DUE },
      zone: 'Europe/Berlin',
    };
    const [summary] = composeDigest({ ...input, cap: { max: 10, per: 'hour' } });
    expect(summary?.title).toBe('And 12 more comments');
    expect(summary?.text).toBe(
      "Held back by this channel's limit of 10 an hour (08:00–09:00), oldest first.",
    );
    expect(summary?.fallback).toMatch(/^and 12 more: New comment by Ada Lovelace/);
    expect(summary?.entries?.[0]?.url).toContain('comment=0');
    // Without the limit named, the window still says which one it was.
    const [daily] = composeDigest({ ...input, period: { from: DUE - 9 * HOUR, to: DUE + 15 * HOUR } });
    expect(daily?.text).toBe("Held back by this channel's limit per day (Mon 23 Nov), oldest first.");
  });

  it('says nothing new for an empty digest, and posts no summary of nothing', () => {
    const [empty, ...rest] = composeDigest(dailyDigest([], { feed: 'comments', top: 5 }));
    expect(rest).toEqual([]);
    expect(empty?.title).toBe('Nothing new in comments since Sun 22 Nov 09:00');
    expect(empty?.entries).toBeUndefined();
    expect(
      composeDigest({
        kind: 'quiet',
        feed: 'posts',
        items: [],
        period: { from: DUE - HOUR, to: DUE },
        zone: 'UTC',
      }),
    ).toEqual([]);
  });

  it('marks a late digest visibly on its first part', () => {
    const items = Array.from({ length: 30 }, (_, i) => heldPost(i, { votes: i }));
    const parts = composeDigest(dailyDigest(items, { lateFor: DUE }));
    expect(parts[0]?.text).toBe('Late: this digest was due at Mon 23 Nov 09:00 (the bot was offline).');
    expect(parts[0]?.fallback).not.toContain('Late');
    const [quiet] = composeDigest({
      kind: 'quiet',
      feed: 'posts',
      items,
      period: { from: DUE - HOUR, to: DUE },
      zone: 'UTC',
      lateFor: DUE,
    });
    expect(quiet?.text).toMatch(/^Late: this summary was due at Mon 23 Nov 08:00 \(the bot was offline\)\./);
  });

  it('says on its last part how many items the schedule let go when it held its most', () => {
    const items = Array.from({ length: 30 }, (_, i) => heldPost(i, { votes: i }));
    const parts = composeDigest({ ...dailyDigest(items), omitted: 37 });
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.at(-1)?.text).toContain(
      '37 more items were found in this period but not kept (the oldest): a schedule holds at most 100 items at a time.',
    );
    expect(parts[0]?.text ?? '').not.toContain('not kept');
    const [top] = composeDigest({ ...dailyDigest(items), top: 5, omitted: 1 });
    expect(top?.text).toContain(
      '1 more item was found in this period but not kept (those with the fewest votes)',
    );
  });
});

describe('composeDigest: times in the channel zone', () => {
  // 23:30 UTC on Sunday 22 November: already Monday in Tokyo, still Sunday evening in New York.
  const at = Date.parse('2026-11-22T23:30:00Z');
  const items = [heldPost(1, { votes: 1, minutesBefore: 0 })].map((item) => ({
    ...item,
    discoveredAt: at - HOUR,
  }));

  it('writes the local day of each zone', () => {
    const tokyo = composeDigest(
      dailyDigest(items, { top: 5, zone: 'Asia/Tokyo', period: { from: at - DAY, to: at } }),
    );
    const newYork = composeDigest(
      dailyDigest(items, { top: 5, zone: 'America/New_York', period: { from: at - DAY, to: at } }),
    );
    expect(tokyo[0]?.title).toBe('Top 1 post · Mon 23 Nov');
    expect(tokyo[0]?.text).toBe('All 1 post found since Sun 22 Nov 08:30, by votes.');
    expect(newYork[0]?.title).toBe('Top 1 post · Sun 22 Nov');
    expect(newYork[0]?.text).toBe('All 1 post found since Sat 21 Nov 18:30, by votes.');
    expect(newYork[0]?.footer).toContain('times in America/New_York');
  });

  it('writes 09:00 local on both sides of a DST switch', () => {
    // New York leaves DST on 1 November 2026: 09:00 is 13:00 UTC before, 14:00 UTC after.
    for (const due of [Date.parse('2026-10-31T13:00:00Z'), Date.parse('2026-11-02T14:00:00Z')]) {
      const [digest] = composeDigest(
        dailyDigest([{ ...heldComment(1, 0), discoveredAt: due - HOUR }], {
          zone: 'America/New_York',
          period: { from: due - DAY, to: due },
          lateFor: due,
        }),
      );
      expect(digest?.text).toMatch(/due at \w{3} \d+ \w{3} 09:00/);
      expect(digest?.entries?.[0]?.detail).toBe('08:00');
    }
  });

  it('writes UTC, and says so, when the zone cannot be read', () => {
    const [digest] = composeDigest(dailyDigest(items, { zone: 'Mars/Olympus_Mons' }));
    expect(digest?.footer).toBe('Directory · daily digest · times in UTC');
  });
});

describe('digest messages and subscription formats', () => {
  it('stay whole in a compact or title subscription, and keep user text plain', () => {
    const hostile = '@everyone <!channel> <@U123> [x](https://evil.test)';
    const [digest] = composeDigest(dailyDigest([heldPost(1, { votes: 1, name: hostile })], { top: 5 }));
    if (digest === undefined) throw new Error('no digest');
    expect(formatMessage(digest, 'compact')).toBe(digest);
    expect(formatMessage(digest, 'title')).toBe(digest);
    // Escaping is the renderers' job (see the render tests): the composer keeps the text as given.
    expect(digest.entries?.[0]?.title).toBe(hostile);
  });

  it('list a line-formatted item as the line it already was', () => {
    const post = formatMessage(composePostMessage(directoryPost), 'title');
    const [digest] = composeDigest(dailyDigest([{ ...heldPost(1), message: post }]));
    expect(digest?.entries?.[0]?.title).toBe(post.title);
  });
});
