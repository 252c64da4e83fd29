import Keyv from 'keyv';
import { describe, expect, it } from 'vitest';
import { SubscriptionRepository } from '../../src/subscriptions/subscription-repository.js';
import { parseSubscriptionSpec } from '../../src/subscriptions/subscription-spec.js';
import { freeLeases } from '../support/free-leases.js';

function repository(now = { value: 1000 }) {
  return {
    repo: new SubscriptionRepository({
      keyv: new Keyv(),
      leases: freeLeases,
      clock: { now: () => now.value },
    }),
    now,
  };
}

describe('subscriptions', () => {
  it('keeps SUBSCRIPTIONS in step with the variable across restarts', async () => {
    const { repo, now } = repository();
    await repo.seed([
      { platform: 'console', channelId: 'a', feed: 'comments', filters: {} },
      { platform: 'console', channelId: 'b', feed: 'live', filters: {} },
    ]);
    await repo.add({ platform: 'console', channelId: 'c', feed: 'posts', filters: {}, createdBy: 'U1' });
    now.value = 5000;
    const result = await repo.seed([{ platform: 'console', channelId: 'a', feed: 'comments', filters: {} }]);
    expect(result).toEqual({ added: 0, removed: 1 });
    const all = await repo.list();
    expect(all.map((s) => [s.channelId, s.createdBy, s.createdAt])).toEqual([
      ['a', 'env', 1000],
      ['c', 'U1', 1000],
    ]);
  });

  it("changes a SUBSCRIPTIONS route's format in place, the later of two entries differing only in format winning", async () => {
    const { repo, now } = repository();
    await repo.seed([
      { platform: 'console', channelId: 'a', feed: 'comments', filters: {}, format: 'compact' },
      { platform: 'console', channelId: 'b', feed: 'posts', filters: {} },
    ]);
    const [a, b] = await repo.list();
    expect([a?.format, b]).toEqual(['compact', expect.not.objectContaining({ format: expect.anything() })]);
    now.value = 5000;
    const result = await repo.seed([
      { platform: 'console', channelId: 'a', feed: 'comments', filters: {}, format: 'compact' },
      { platform: 'console', channelId: 'a', feed: 'comments', filters: {}, format: 'title' },
      { platform: 'console', channelId: 'b', feed: 'posts', filters: {}, format: 'full' },
    ]);
    expect(result).toEqual({ added: 0, removed: 0 });
    const all = await repo.list();
    expect(all.map((s) => [s.id, s.channelId, s.format, s.createdAt])).toEqual([
      [a?.id, 'a', 'title', 1000],
      [b?.id, 'b', undefined, 1000],
    ]);
  });

  it('reads thread options in SUBSCRIPTIONS and applies a change to them in place', async () => {
    const parsed = parseSubscriptionSpec(
      'console:a=posts?thread-comments=true&keyword=ai&broadcast=true;console:b=comments?threads=off',
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.seeds.map((seed) => seed.threading)).toEqual([
      { comments: true, broadcast: true },
      { off: true },
    ]);
    expect(parseSubscriptionSpec('console:a=posts?thread-comments=true&max-per-hour=5').errors[0]).toContain(
      'thread-comments cannot be combined with max-per-hour',
    );
    expect(parseSubscriptionSpec('console:a=comments?thread-comments=true').errors).toEqual([
      '"console:a=comments?thread-comments=true": thread-comments applies to the posts feed, not comments',
    ]);
    expect(parseSubscriptionSpec('console:a=posts?threads=sometimes').errors[0]).toContain(
      'threads expects on or off, got "sometimes"',
    );
    const { repo } = repository();
    await repo.seed(parsed.seeds);
    const [before] = await repo.list();
    await repo.seed(parseSubscriptionSpec('console:a=posts?keyword=ai;console:b=comments?threads=off').seeds);
    const [after] = await repo.list();
    expect([after?.id, after?.threading]).toEqual([before?.id, undefined]);
  });

  it('reads on-removal in SUBSCRIPTIONS, stores only delete, and applies a change in place', async () => {
    const parsed = parseSubscriptionSpec(
      'console:a=comments?on-removal=delete&keyword=ai;console:b=posts?on-removal=mark',
    );
    expect(parsed.errors).toEqual([]);
    expect(parsed.seeds.map((seed) => seed.onRemoval)).toEqual(['delete', undefined]);
    expect(parseSubscriptionSpec('console:a=posts?on-removal=hide').errors).toEqual([
      '"console:a=posts?on-removal=hide": on-removal expects mark or delete, got "hide"',
    ]);
    const { repo } = repository();
    await repo.seed(parsed.seeds);
    const [before] = await repo.list();
    expect(before?.onRemoval).toBe('delete');
    await repo.seed(parseSubscriptionSpec('console:a=comments?keyword=ai;console:b=posts').seeds);
    const [after] = await repo.list();
    expect([after?.id, after?.onRemoval]).toEqual([before?.id, undefined]);
  });

  it('resumes a paused subscription when someone subscribes to it again', async () => {
    const { repo } = repository();
    const input = {
      platform: 'slack',
      channelId: 'C1',
      feed: 'comments' as const,
      filters: { keywords: ['ai'] },
      createdBy: 'U1',
    };
    const { subscription } = await repo.add(input);
    await repo.pauseDestination('slack', 'C1', 'is_archived', 'archived');
    const again = await repo.add(input);
    expect(again).toMatchObject({ created: false, resumed: true, reformatted: false });
    expect((await repo.list())[0]?.paused).toBeUndefined();
    // Paused again, then subscribed with another format: resumed and reformatted, same id and start.
    await repo.pauseDestination('slack', 'C1', 'is_archived', 'archived');
    const compact = await repo.add({ ...input, format: 'compact' });
    expect(compact).toMatchObject({ created: false, resumed: true, reformatted: true });
    expect(await repo.list()).toEqual([{ ...subscription, format: 'compact' }]);
  });

  it("changes a subscription's schedule in place when someone subscribes again with other options", async () => {
    const { repo } = repository();
    const input = {
      platform: 'slack',
      channelId: 'C1',
      feed: 'posts' as const,
      filters: {},
      createdBy: 'U1',
    };
    const daily = { digest: { every: 'daily' as const, at: { hour: 9, minute: 0 } }, top: 5 };
    const first = await repo.add({ ...input, schedule: daily });
    expect(first).toMatchObject({ created: true, rescheduled: false });
    expect(first.subscription.schedule).toEqual(daily);
    const same = await repo.add({ ...input, schedule: { ...daily } });
    expect(same).toMatchObject({ created: false, rescheduled: false, reformatted: false });
    const quiet = { quiet: { from: { hour: 22, minute: 0 }, to: { hour: 7, minute: 0 } } };
    const changed = await repo.add({ ...input, schedule: quiet });
    expect(changed).toMatchObject({ created: false, rescheduled: true });
    // Subscribing without schedule options goes back to each item as soon as it is found.
    const cleared = await repo.add(input);
    expect(cleared).toMatchObject({ created: false, rescheduled: true });
    expect(await repo.list()).toEqual([{ ...first.subscription }].map(({ schedule: _s, ...rest }) => rest));
  });

  it("changes a SUBSCRIPTIONS route's schedule in place and keeps its start", async () => {
    const { repo, now } = repository();
    const route = { platform: 'console' as const, channelId: 'a', feed: 'posts' as const, filters: {} };
    await repo.seed([{ ...route, schedule: { maxPerHour: 10 } }]);
    const [before] = await repo.list();
    now.value = 9000;
    expect(await repo.seed([{ ...route, schedule: { maxPerHour: 20 } }])).toEqual({ added: 0, removed: 0 });
    expect(await repo.list()).toEqual([{ ...before, schedule: { maxPerHour: 20 } }]);
    await repo.seed([route]);
    expect((await repo.list())[0]).not.toHaveProperty('schedule');
  });

  it('keeps both pauses when two channels are refused at the same moment', async () => {
    const { repo } = repository();
    for (const channelId of ['C1', 'C2', 'C3'])
      await repo.add({ platform: 'discord', channelId, feed: 'comments', filters: {}, createdBy: 'U1' });
    await Promise.all([
      repo.pauseDestination('discord', 'C1', 'missing_access', 'Missing Access'),
      repo.pauseDestination('discord', 'C2', 'missing_access', 'Missing Access'),
    ]);
    const all = await repo.list();
    expect(all.map((s) => [s.channelId, s.paused?.code])).toEqual([
      ['C1', 'missing_access'],
      ['C2', 'missing_access'],
      ['C3', undefined],
    ]);
  });

  it('does not duplicate an identical subscription', async () => {
    const { repo } = repository();
    const input = {
      platform: 'slack',
      channelId: 'C1',
      feed: 'live' as const,
      filters: { video: true },
      createdBy: 'U1',
    };
    await repo.add(input);
    expect(await repo.add(input)).toMatchObject({ created: false, resumed: false });
    expect(await repo.list()).toHaveLength(1);
  });
});
