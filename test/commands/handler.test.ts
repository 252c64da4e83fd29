import { afterEach, describe, expect, it } from 'vitest';
import { usageForms } from '../../src/commands/help.js';
import type { StatusReport } from '../../src/commands/index.js';
import { CHANNEL, type Harness, startHarness } from '../support/command-harness.js';

describe('the command handler', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('limits how fast one person looks things up, says when to retry, and spares others', async () => {
    h = await startHarness({ handler: { userRateLimit: { perMinute: 2 } } });
    expect((await h.run('live')).error).toBeUndefined();
    expect((await h.run('collections')).error).toBeUndefined();
    // A cached answer costs the directory nothing, so it is not counted.
    expect((await h.run('live')).error).toBeUndefined();
    const refused = await h.run('collections featured');
    expect(refused.error).toEqual({ code: 'command_rate_limited' });
    expect(refused.text).toBe(
      "You are looking things up faster than the team's shared directory quota allows. Try again in 30 s.",
    );
    expect((await h.run('collections featured', { userId: 'USOMEONE2' })).error).toBeUndefined();
    expect((await h.run('collections featured', {}, 'discord')).error).toBeUndefined();
    h.clock.advance(30_000);
    expect((await h.run('live undated')).error).toBeUndefined();
    expect(h.events.map((e) => e.result)).toEqual([
      'ok',
      'ok',
      'cached',
      'rate_limited',
      'ok',
      'cached',
      'ok',
    ]);
  });

  it('says the lookup budget is spent and when it resets', async () => {
    h = await startHarness({ emulator: { quotaComplexity: 0, windowSeconds: 900 } });
    const reply = await h.run('post 1');
    expect(['quota_exhausted', 'upstream_rate_limited']).toContain(reply.error?.code);
    expect(reply.text).toMatch(
      /^The directory lookup budget is used up for now\. It resets at \d\d:\d\d UTC \(in \d+ min\); try again then\.$/,
    );
    expect(h.events.at(-1)?.result).toBe('quota');
    // Nothing is sent while the class is paused, and the answer stays the same.
    const before = h.requests();
    const again = await h.run('user someone_else');
    expect(again.text).toContain('The directory lookup budget is used up for now');
    expect(h.requests()).toBe(before);
  });

  it('turns an upstream outage into a friendly answer, not a stack trace', async () => {
    h = await startHarness();
    h.emulator.admin.injectFault({ route: '/v1/collections', count: 5, kind: 'status', status: 503 });
    const reply = await h.run('collections');
    expect(reply.error?.code).toBe('upstream_unavailable');
    expect(reply.text).toBe('The directory is not answering right now; try again in a minute.');
    expect(reply.text).not.toMatch(/at .*\.ts:\d+/);
    // A failure is not cached: the next try goes upstream again and succeeds.
    h.emulator.admin.clearFaults();
    expect((await h.run('collections')).error).toBeUndefined();
  });

  it("answers status with quotas, feed health and this channel's paused subscriptions", async () => {
    const now = Date.UTC(2026, 10, 21, 10, 0, 0);
    const report: StatusReport = {
      quotas: {
        v1: { limit: 900, remaining: 850, resetAt: now + 600_000, paused: false },
        'v2-requests': { limit: 450, remaining: 450, resetAt: null, paused: false },
        'v2-complexity': { limit: 6250, remaining: 0, resetAt: now + 120_000, paused: true },
      },
      connection: { state: 'ok', since: now - 3_600_000 },
      savedAt: now - 12_000,
      feeds: [
        {
          feed: 'posts',
          intervalMs: 300_000,
          lastPollAt: now - 60_000,
          lastSuccessAt: now - 60_000,
          consecutiveFailures: 0,
        },
        {
          feed: 'comments',
          intervalMs: 60_000,
          lastPollAt: now - 30_000,
          lastSuccessAt: now - 900_000,
          consecutiveFailures: 3,
          lastError: 'upstream_unavailable',
        },
        { feed: 'live', intervalMs: 60_000, consecutiveFailures: 0 },
        // Nobody subscribes to these: one was never polled, one was until its last subscription went.
        { feed: 'notifications', intervalMs: 0, consecutiveFailures: 0 },
        {
          feed: 'collections',
          intervalMs: 60_000,
          lastPollAt: now - 7_200_000,
          consecutiveFailures: 2,
          lastError: 'upstream_unavailable',
        },
      ],
      subscribedFeeds: new Set(['posts', 'comments', 'live']),
      pausedSubscriptions: [
        {
          id: 'sabc123',
          platform: 'slack',
          channelId: CHANNEL,
          feed: 'posts',
          filters: {},
          createdBy: 'U1',
          createdAt: 0,
          paused: { code: 'not_in_channel', reason: 'the bot was removed from the channel', at: now },
        },
        {
          id: 'sother1',
          platform: 'slack',
          channelId: 'CELSEWHERE',
          feed: 'live',
          filters: {},
          createdBy: 'U2',
          createdAt: 0,
          paused: { code: 'x', reason: 'secret', at: now },
        },
      ],
      isPoller: false,
    };
    h = await startHarness({ status: async () => report });
    const reply = await h.run('status');
    expect(reply.error).toBeUndefined();
    expect(reply.text).toBe('Status: 1 feed(s) failing, 1 subscription(s) paused here.');
    const [main, paused] = reply.messages;
    expect(main?.text).toBe(
      'Another instance polls the directory; the directory, quota and feed health are as it last saved them (12 s ago).',
    );
    expect(main?.fields).toEqual([
      { name: 'Directory', value: 'answers and accepts the token' },
      { name: 'V1 requests', value: '850 of 900 left, resets at 10:10 UTC (in 10 min)' },
      { name: 'V2 requests', value: '450 of 450 left' },
      {
        name: 'V2 complexity points',
        value: 'PAUSED after a rate limit; 0 of 6250 left, resets at 10:02 UTC (in 2 min)',
      },
      { name: 'Feed posts', value: 'healthy; last poll 1 min ago, every 5 min, lag 1 min' },
      {
        name: 'Feed comments',
        value: 'FAILING (3×: upstream_unavailable); last poll 30 s ago, every 1 min, lag 15 min',
      },
      { name: 'Feed live', value: 'not polled yet' },
      { name: 'Feed notifications', value: 'not subscribed' },
      { name: 'Feed collections', value: 'not subscribed; last polled 2 h ago' },
    ]);
    expect(paused?.text).toBe(
      'sabc123 (posts) paused: the bot was removed from the channel\n1 paused in other channels',
    );
    expect(JSON.stringify(reply)).not.toContain('secret');
  });

  it('says first, in status, that the directory refuses the token or does not answer', async () => {
    const now = Date.UTC(2026, 10, 21, 10, 0, 0);
    const quotas = {
      v1: { limit: 900, remaining: 900, resetAt: null, paused: false },
      'v2-requests': { limit: 450, remaining: 450, resetAt: null, paused: false },
      'v2-complexity': { limit: 6250, remaining: 6250, resetAt: null, paused: false },
    };
    let connection: StatusReport['connection'] = {
      state: 'refused',
      since: now - 120_000,
      detail: 'GET https://directory.example/v1/comments → 401: unauthorized_oauth',
    };
    h = await startHarness({
      status: async () => ({
        quotas,
        connection,
        feeds: [],
        subscribedFeeds: new Set(),
        pausedSubscriptions: [],
        isPoller: true,
      }),
    });
    h.clock.set(now);
    const refused = await h.run('status');
    expect(refused.text).toBe('Status: the directory refuses the token.');
    expect(refused.messages[0]?.fields?.[0]).toEqual({
      name: 'Directory',
      value:
        'REFUSES DIRECTORY_TOKEN since 09:58 UTC (GET https://directory.example/v1/comments → 401: unauthorized_oauth); nothing is polled or looked up until it is given a token it accepts',
    });
    connection = { state: 'unreachable', since: now - 60_000, detail: 'ECONNREFUSED' };
    const down = await h.run('status');
    expect(down.text).toBe('Status: the directory is not answering.');
    expect(down.messages[0]?.fields?.[0]?.value).toMatch(/^NOT ANSWERING since 09:59 UTC \(ECONNREFUSED\)/);
  });

  it('shows what the delivery workers hold, and their dead deliveries with how to replay them', async () => {
    let dead = 0;
    const harness = await startHarness({
      status: async () => ({
        quotas: {
          v1: { limit: 900, remaining: 900, resetAt: null, paused: false },
          'v2-requests': { limit: 450, remaining: 450, resetAt: null, paused: false },
          'v2-complexity': { limit: 6250, remaining: 6250, resetAt: null, paused: false },
        },
        connection: { state: 'ok', since: 0 },
        feeds: [],
        subscribedFeeds: new Set(),
        pausedSubscriptions: [],
        isPoller: true,
        deliveryWorkers: { queued: 12, dead },
      }),
    });
    h = harness;
    const field = async () =>
      (await harness.run('status')).messages[0]?.fields?.find((f) => f.name === 'Delivery workers')?.value;
    expect(await field()).toBe('12 queued; none dead');
    dead = 3;
    expect(await field()).toBe(
      '12 queued; 3 DEAD (gave up after every attempt): an operator replays them with "directory-bot deliveries replay --all"',
    );
  });

  it('answers status failures and store failures with a reply', async () => {
    h = await startHarness({
      status: async () => {
        throw new Error('store down');
      },
    });
    const reply = await h.run('status');
    expect(reply.error?.code).toBe('internal');
    expect(reply.text).toBe('Something went wrong while answering; try again in a minute.');
    expect(h.events.at(-1)).toEqual({ command: 'status', platform: 'slack', result: 'error' });
  });

  it('explains every command in help, one in detail, and suggests for a typo', async () => {
    h = await startHarness();
    const all = await h.run('help');
    // Every form of every command, each on a line of its own (remind has three).
    const lines = (all.messages[0]?.text ?? '').split('\n');
    for (const definition of h.handler.definitions())
      for (const form of usageForms(definition.usage)) expect(lines).toContain(form);
    expect(lines).toContain('remind cancel <id>');
    const empty = await h.run('');
    expect(empty).toEqual(all);
    const one = await h.run('help subscribe');
    expect(one.text).toBe(`Usage: ${h.handler.definitions().find((d) => d.name === 'subscribe')?.usage}`);
    expect(one.messages[0]?.text).toContain('/directory subscribe live --video --remind 15');
    const typo = await h.run('help subscibe');
    expect(typo.text).toBe('No command "subscibe". Did you mean "subscribe"?');
    expect(typo.error?.code).toBe('command_usage');
    const tooLong = await h.run(`help ${'x'.repeat(40)}`);
    expect(tooLong.text).toContain('too long');
  });

  it('shows a usage line only for the command a problem is about', async () => {
    h = await startHarness();
    const huge = await h.run(`post ${'x'.repeat(1200)}`);
    expect(huge.text).toBe('The command is too long: at most 1000 characters.');
    expect(huge.error).toEqual({ code: 'command_usage' });
    const nonsense = await h.run('qqqqqqqq');
    expect(nonsense.text).toContain('Try "help" for the list of commands.');
    expect(nonsense.error?.usage).toBeUndefined();
    const typo = await h.run('colections featured');
    expect(typo.error?.usage).toBe(h.handler.definitions().find((d) => d.name === 'collections')?.usage);
  });

  it('publishes definitions adapters can bind and completes cheap options', async () => {
    h = await startHarness();
    const definitions = h.handler.definitions();
    expect(definitions.map((d) => d.name)).toEqual([
      'help',
      'post',
      'posts',
      'comments',
      'collection',
      'collections',
      'live',
      'remind',
      'user',
      'subscribe',
      'unsubscribe',
      'pause',
      'resume',
      'subscriptions',
      'digest',
      'timezone',
      'status',
      'why',
    ]);
    expect(definitions.filter((d) => d.managesChannel).map((d) => d.name)).toEqual([
      'subscribe',
      'unsubscribe',
      'pause',
      'resume',
      'timezone',
    ]);
    for (const definition of definitions) {
      for (const option of definition.options) {
        expect(Object.keys(option)).not.toContain('schema');
        expect(option.name).toMatch(/^[a-z-]{1,32}$/);
      }
    }
    expect(await h.handler.complete?.('unsubscribe', 'target', 'co')).toEqual(['comments', 'collections']);
    expect(await h.handler.complete?.('help', 'command', 'sub')).toEqual(['subscribe', 'subscriptions']);
    expect(await h.handler.complete?.('post', 'post', 'x')).toEqual([]);
  });
});
