import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createDirectoryClient,
  createQuotaLedger,
  type DirectoryClient,
  type DirectoryClientEvent,
  type DirectoryClientOptions,
} from '../../src/directory/index.js';
import { createManualClock, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { isBotError } from '../../src/errors.js';

interface Harness {
  client: DirectoryClient;
  events: DirectoryClientEvent[];
  sleeps: number[];
}

/** A client against `emulator` whose sleeps advance the emulator's manual clock (no real waiting). */
function clientFor(emulator: RunningEmulator, overrides: Partial<DirectoryClientOptions> = {}): Harness {
  const events: DirectoryClientEvent[] = [];
  const sleeps: number[] = [];
  const client = createDirectoryClient({
    baseUrl: emulator.url,
    token: 'dev-token',
    clock: emulator.clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      emulator.admin.advanceClock(ms);
    },
    retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 1_000 },
    onEvent: (event) => events.push(event),
    ...overrides,
  });
  return { client, events, sleeps };
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected the call to fail'),
    (error: unknown) => error,
  );
}

describe('directory client against the emulator', () => {
  let emulator: RunningEmulator;
  let h: Harness;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, clock: createManualClock() });
  });
  afterAll(async () => {
    await emulator.close();
  });
  afterEach(async () => {
    emulator.admin.clearFaults();
    emulator.admin.resetQuotas();
    await h?.client.close();
  });

  describe('V1', () => {
    it('lists comments as normalised records and pages with the newer cursor', async () => {
      h = clientFor(emulator);
      const first = await h.client.listComments({ perPage: 5 });
      expect(first.items).toHaveLength(5);
      expect(first.skipped).toBe(0);
      const comment = first.items[0]!;
      expect(comment.id).toMatch(/^\d+$/);
      expect(comment.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(typeof comment.body).toBe('string');

      const added = emulator.admin.addComment();
      const newer = await h.client.listComments({ newer: first.items[0]!.id, perPage: 50 });
      expect(newer.items.map((c) => c.id)).toContain(String(added.id));
    });

    it('lists featured collections, live events and notifications, and clears notifications', async () => {
      h = clientFor(emulator);
      const collections = await h.client.listCollections({ featured: true, perPage: 3 });
      expect(collections.items.length).toBeGreaterThan(0);
      expect(collections.items.every((c) => c.featuredAt !== undefined)).toBe(true);

      const live = await h.client.listLiveEvents({ perPage: 3 });
      expect(live.items.length).toBeGreaterThan(0);
      expect(typeof live.items[0]!.liveVideo).toBe('boolean');

      const note = emulator.admin.addNotification('dev-token', {});
      const notifications = await h.client.listNotifications({ type: 'all', perPage: 50 });
      expect(notifications.items.map((n) => n.id)).toContain(String(note.id));
      await h.client.clearNotifications();
      const after = await h.client.listNotifications({ type: 'all', perPage: 50 });
      expect(after.items).toEqual([]);
    });

    it('answers an unchanged list from its ETag without re-parsing, and sees a change', async () => {
      h = clientFor(emulator);
      const first = await h.client.listCollections({ perPage: 4 });
      const again = await h.client.listCollections({ perPage: 4 });
      expect(again.notModified).toBe(true);
      expect(again.items).toEqual(first.items);
      expect(h.events).toContainEqual({ type: 'not-modified', route: '/v1/collections' });
      expect(
        h.events.filter((e) => e.type === 'request').map((e) => e.type === 'request' && e.status),
      ).toEqual([200, 304]);

      emulator.admin.addCollection();
      const changed = await h.client.listCollections({ perPage: 4 });
      expect(changed.notModified).toBe(false);
    });
  });

  describe('V2', () => {
    it('pages through posts with the end cursor', async () => {
      h = clientFor(emulator);
      const page1 = await h.client.listPosts({ first: 3, order: 'NEWEST' });
      expect(page1.nodes).toHaveLength(3);
      expect(page1.pageInfo.hasNextPage).toBe(true);
      const page2 = await h.client.listPosts({ first: 3, order: 'NEWEST', after: page1.pageInfo.endCursor! });
      const ids1 = page1.nodes.map((p) => p.id);
      expect(page2.nodes.some((p) => ids1.includes(p.id))).toBe(false);
      expect(page1.nodes[0]!.createdAt).toMatch(/Z$/);
    });

    it('looks up a post by slug and by id, and answers null for a missing one', async () => {
      h = clientFor(emulator);
      const [post] = (await h.client.listPosts({ first: 1 })).nodes;
      const bySlug = await h.client.getPost({ slug: post!.slug! });
      const byId = await h.client.getPost({ id: post!.id });
      expect(bySlug?.id).toBe(post!.id);
      expect(byId?.name).toBe(post!.name);
      expect(await h.client.getPost({ slug: 'no-such-post-anywhere' })).toBeNull();
    });

    it('lists and looks up collections, comments, users and topics', async () => {
      h = clientFor(emulator);
      const collections = await h.client.listCollectionsV2({ first: 2, featured: true });
      expect(collections.nodes).toHaveLength(2);
      const collection = await h.client.getCollection({ id: collections.nodes[0]!.id });
      expect(collection?.name).toBe(collections.nodes[0]!.name);

      const comment = (await h.client.listComments({ perPage: 1 })).items[0]!;
      const v2Comment = await h.client.getComment(comment.id);
      expect(v2Comment?.body).toBe(comment.body);

      const [post] = (await h.client.listPosts({ first: 1 })).nodes;
      const maker = post!.user!;
      const profile = await h.client.getUser(
        maker.redacted ? { id: maker.id } : { username: maker.username },
      );
      expect(profile?.id).toBe(maker.id);
      expect(Array.isArray(profile?.madePosts)).toBe(true);

      const topics = await h.client.listTopics({ first: 3 });
      expect(topics.nodes.length).toBeGreaterThan(0);
      expect(topics.nodes[0]!.slug).toBeTruthy();
    });

    it('reads the token endpoint on the V2 request quota', async () => {
      h = clientFor(emulator);
      const info = await h.client.tokenInfo();
      expect(info).toEqual(expect.any(Object));
      expect(h.client.ledger.snapshot()['v2-requests'].fromHeaders).toBe(true);
    });

    it('budgets a raw query by its estimated complexity and learns the real quota from headers', async () => {
      h = clientFor(emulator);
      const data = await h.client.graphql('query { posts(first: 2) { edges { node { id name } } } }');
      expect(data['posts']).toBeDefined();
      const request = h.events.find((e) => e.type === 'request');
      expect(request).toMatchObject({
        route: '/v2/api/graphql',
        quotaClass: 'v2-complexity',
        cost: 1 + 2 * 4,
      });
      const snapshot = h.client.ledger.snapshot()['v2-complexity'];
      expect(snapshot).toMatchObject({ limit: 6250, fromHeaders: true });
      expect(snapshot.remaining).toBeLessThan(6250);
    });

    it('reports a query over the per-query cap as complexity exceeded', async () => {
      h = clientFor(emulator);
      const error = await failure(
        h.client.graphql('query { posts(first: 200) { edges { node { id name tagline slug url } } } }'),
      );
      expect(isBotError(error, 'upstream_complexity_exceeded')).toBe(true);
    });
  });

  describe('failures', () => {
    it('retries a read through 5xx answers with backoff and succeeds', async () => {
      // Jitter at its maximum shows the exponential ceiling: base 100 ms, then 200 ms.
      h = clientFor(emulator, { random: () => 1 });
      emulator.admin.injectFault({ route: '/v1/comments', count: 2, kind: 'status', status: 503 });
      const result = await h.client.listComments({ perPage: 2 });
      expect(result.items).toHaveLength(2);
      const retries = h.events.filter((e) => e.type === 'retry');
      expect(retries).toHaveLength(2);
      expect(h.sleeps).toEqual([100, 200]);
    });

    it('retries a dropped connection', async () => {
      h = clientFor(emulator);
      emulator.admin.injectFault({ route: '/v2/api/graphql', count: 1, kind: 'drop' });
      const page = await h.client.listPosts({ first: 2 });
      expect(page.nodes).toHaveLength(2);
      expect(h.events).toContainEqual(
        expect.objectContaining({ type: 'retry', errorCode: 'upstream_network' }),
      );
    });

    it('gives up after the bounded attempts with upstream_unavailable', async () => {
      h = clientFor(emulator);
      emulator.admin.injectFault({ route: '/v1/live', count: 5, kind: 'status', status: 502 });
      const error = await failure(h.client.listLiveEvents());
      expect(isBotError(error, 'upstream_unavailable')).toBe(true);
      expect(emulator.admin.pendingFaults()[0]?.count).toBe(2);
    });

    it('never retries a 4xx', async () => {
      h = clientFor(emulator);
      emulator.admin.injectFault({ route: '/v1/comments', count: 3, kind: 'status', status: 400 });
      const error = await failure(h.client.listComments());
      expect(isBotError(error, 'upstream_bad_request')).toBe(true);
      expect(h.events.filter((e) => e.type === 'retry')).toEqual([]);
    });

    it('does not repeat a DELETE that may have reached the service', async () => {
      h = clientFor(emulator);
      emulator.admin.injectFault({ route: '/v1/notifications', count: 3, kind: 'status', status: 503 });
      const error = await failure(h.client.clearNotifications());
      expect(isBotError(error, 'upstream_unavailable')).toBe(true);
      expect(emulator.admin.pendingFaults()[0]?.count).toBe(2);
    });

    it('treats an HTML challenge page as a transient upstream failure', async () => {
      h = clientFor(emulator, { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 } });
      emulator.admin.injectFault({ route: '/v1/collections', count: 1, kind: 'html', status: 403 });
      const error = await failure(h.client.listCollections());
      expect(isBotError(error, 'upstream_unavailable')).toBe(true);
      expect((error as Error).message).toContain('/v1/collections');
      expect((error as Error).message).toContain('HTML');
    });

    it('reports a truncated JSON body as a bad response', async () => {
      h = clientFor(emulator);
      emulator.admin.injectFault({ route: '/v1/comments', count: 1, kind: 'malformed-json' });
      const error = await failure(h.client.listComments({ perPage: 3 }));
      expect(isBotError(error, 'upstream_bad_response')).toBe(true);
    });

    it('skips a malformed record, reports it and counts it, keeping the rest', async () => {
      h = clientFor(emulator);
      emulator.admin.injectFault({ route: '/v1/comments', count: 1, kind: 'bad-record' });
      const result = await h.client.listComments({ perPage: 4 });
      expect(result.skipped).toBe(1);
      expect(result.items).toHaveLength(3);
      expect(h.events).toContainEqual(
        expect.objectContaining({
          type: 'record-skipped',
          resource: 'comment',
          id: 'not-an-id',
          path: 'body',
        }),
      );
    });

    it('skips a malformed post node in a V2 page', async () => {
      h = clientFor(emulator);
      emulator.admin.injectFault({ route: '/v2/api/graphql', count: 1, kind: 'bad-record' });
      const page = await h.client.listPosts({ first: 3 });
      expect(page.skipped).toBe(1);
      expect(page.nodes).toHaveLength(2);
    });

    // undici checks timeouts on a coarse (~0.5 s) timer, hence a delay well past the timeout.
    it('gives up on a slow answer with upstream_timeout', async () => {
      h = clientFor(emulator, {
        timeouts: { headersMs: 50 },
        retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
      });
      emulator.admin.injectFault({ route: '/v1/live', count: 1, kind: 'delay', delayMs: 2_000 });
      const error = await failure(h.client.listLiveEvents());
      expect(isBotError(error, 'upstream_timeout')).toBe(true);
    });

    it('maps a bad token to upstream_unauthorized without leaking it', async () => {
      h = clientFor(emulator, { token: 'sekrit-wrong-token' });
      const error = await failure(h.client.listComments());
      expect(isBotError(error, 'upstream_unauthorized')).toBe(true);
      expect((error as Error).message).not.toContain('sekrit');
      expect((error as Error).message).toContain('GET http://127.0.0.1');
    });
  });

  describe('quota', () => {
    it('pauses a class after a 429 until its reset, without sending more requests', async () => {
      const limited = await startEmulator({ port: 0, clock: createManualClock(), quotaV1: 3 });
      try {
        // Another instance of the bot spends the quota behind this client's back.
        const other = clientFor(limited);
        h = clientFor(limited);
        await other.client.listComments({ perPage: 1 }, { priority: 'interactive' });
        await other.client.listCollections({ perPage: 1 }, { priority: 'interactive' });
        await other.client.listLiveEvents({ perPage: 1 }, { priority: 'interactive' });
        await other.client.close();

        const error = await failure(h.client.listComments({ perPage: 1 }, { priority: 'interactive' }));
        expect(isBotError(error, 'upstream_rate_limited')).toBe(true);
        const retryAfterMs = (error as { retryAfterMs?: number }).retryAfterMs!;
        expect(retryAfterMs).toBeGreaterThan(0);
        expect(h.client.ledger.snapshot().v1.paused).toBe(true);
        expect(h.events).toContainEqual(expect.objectContaining({ type: 'rate-limited', quotaClass: 'v1' }));

        const sent = limited.admin.stats().requests.total;
        const refused = await failure(h.client.listLiveEvents({}, { priority: 'interactive' }));
        expect(isBotError(refused, 'quota_exhausted')).toBe(true);
        expect(limited.admin.stats().requests.total).toBe(sent);

        // Background work waits out the pause (the fake sleep moves the clock) and then succeeds.
        const live = await h.client.listLiveEvents({ perPage: 1 });
        expect(live.items).toHaveLength(1);
        expect(h.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(retryAfterMs);
      } finally {
        await limited.close();
      }
    });

    it('keeps background polling out of the interactive reserve', async () => {
      const small = await startEmulator({ port: 0, clock: createManualClock(), quotaV1: 5 });
      try {
        const ledgerLimited = createDirectoryClient({
          baseUrl: small.url,
          token: 'dev-token',
          clock: small.clock,
          ledger: createQuotaLedger({ clock: small.clock, maxWaitMs: { background: 0 } }),
        });
        // Learn the real limit (5) from the first response, then spend down to the reserve (1).
        for (let i = 0; i < 4; i += 1) await ledgerLimited.listComments({ perPage: 1, page: i + 1 });
        const error = await failure(ledgerLimited.listComments({ perPage: 1, page: 9 }));
        expect(isBotError(error, 'quota_exhausted')).toBe(true);
        const lookup = await ledgerLimited.listComments({ perPage: 1, page: 9 }, { priority: 'interactive' });
        expect(lookup.items).toHaveLength(1);
        expect(small.admin.stats().requests.byStatus['429']).toBeUndefined();
        await ledgerLimited.close();
      } finally {
        await small.close();
      }
    });
  });

  describe('quirks mode', () => {
    it('parses every list and lookup the live service way, skipping nothing', async () => {
      const quirky = await startEmulator({ port: 0, clock: createManualClock(), quirks: true });
      try {
        h = clientFor(quirky);
        const comments = await h.client.listComments({ perPage: 20 });
        const collections = await h.client.listCollections({ perPage: 20 });
        const live = await h.client.listLiveEvents({ perPage: 20 });
        quirky.admin.addNotification('dev-token', {});
        const notifications = await h.client.listNotifications({ type: 'all' });
        const posts = await h.client.listPosts({ first: 20 });
        for (const result of [comments, collections, live, notifications]) {
          expect(result.items.length).toBeGreaterThan(0);
          expect(result.skipped).toBe(0);
        }
        expect(posts.skipped).toBe(0);
        expect(h.events.filter((e) => e.type === 'record-skipped')).toEqual([]);
        const redacted = [...comments.items.map((c) => c.user), ...posts.nodes.map((p) => p.user)].filter(
          (u) => u?.redacted,
        );
        for (const user of redacted)
          expect(user).toEqual({ id: '0', name: 'someone', username: '', redacted: true });
      } finally {
        await quirky.close();
      }
    });

    it('reads V2 rate limits wrapped in the non-standard errors list', async () => {
      const quirky = await startEmulator({
        port: 0,
        clock: createManualClock(),
        quirks: true,
        quotaComplexity: 10,
      });
      try {
        const query = 'query { posts(first: 1) { edges { node { id } } } }';
        // Other instances (each with its own ledger) spend the complexity budget.
        for (let i = 0; i < 3; i += 1) {
          const other = clientFor(quirky);
          await other.client.graphql(query, {}, { priority: 'interactive' });
          await other.client.close();
        }
        h = clientFor(quirky);
        const error = await failure(
          h.client.graphql(
            'query { posts(first: 1) { edges { node { id } } } }',
            {},
            { priority: 'interactive' },
          ),
        );
        expect(isBotError(error, 'upstream_rate_limited')).toBe(true);
        expect(h.client.ledger.snapshot()['v2-complexity'].paused).toBe(true);
      } finally {
        await quirky.close();
      }
    });
  });
});
