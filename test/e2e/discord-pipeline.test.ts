import { generateKeyPairSync, type KeyObject, sign } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import type { FeedName } from '../../src/feeds/feed-names.js';
import type { ChatAdapter } from '../../src/ports/index.js';
import { exportWorkspace } from '../../src/workspaces/index.js';
import { FakeDiscordGateway } from '../fakes/discord/fake-discord-gateway.js';
import { FakeDiscordRest, type RecordedCall } from '../fakes/discord/fake-discord-rest.js';
import type { CapturedLine } from '../support/capturing-logger.js';
import { startInstance, startWorld } from '../support/engine-harness.js';
import { Cleanup, commandsFor, silentLogger, startBotHttp } from '../support/pipeline-harness.js';
import { eventually } from '../support/polling.js';
import { lostAccessWatch, workspaceRemovalFor } from '../support/workspace-removal.js';

const TOKEN = 'discord-e2e-token';
const APP_ID = '100000000000000001';
const GUILD_ID = '100000000000000002';
const MESSAGES = '/channels/:id/messages';

// Every test polls the one emulator from new bots: the default GraphQL complexity quota (6,250 a
// window) would run out within the file, and the poller would wait for the window to reset.
const world = await startWorld({ quotaComplexity: 100_000 });
afterAll(() => world.close());
const cleanup = new Cleanup();
afterEach(() => cleanup.run());

function keyPair(): { publicHex: string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return { publicHex: der.subarray(-32).toString('hex'), privateKey };
}

let snowflake = 500000000000000000n;
/** A fresh Discord id, so channels never collide across tests. */
function nextId(): string {
  snowflake += 1n;
  return snowflake.toString();
}

/**
 * Emulator → engine → the real Discord adapter (discord.js REST) → a fake Discord, plus the bot's
 * HTTP server. `rest` and `storeUrl` let a second bot take over from a first (a restart).
 */
async function discordBot(
  options: { gateway?: FakeDiscordGateway; rest?: FakeDiscordRest; storeUrl?: string } = {},
) {
  const logger = silentLogger();
  let rest = options.rest;
  if (rest === undefined) {
    const created = new FakeDiscordRest({ token: TOKEN });
    await created.listen();
    cleanup.add(() => created.close());
    rest = created;
  }
  if (options.gateway) rest.gatewayUrl = await options.gateway.listening();
  const keys = keyPair();
  const adapter: ChatAdapter = createDiscordAdapter({
    token: TOKEN,
    applicationId: APP_ID,
    publicKey: keys.publicHex,
    apiUrl: rest.url,
    gateway: options.gateway !== undefined,
    logger,
  });
  const watch = lostAccessWatch();
  const bot = await startInstance({
    emulator: world.emulator,
    storeUrl: options.storeUrl ?? world.sqliteUrl(),
    namespace: 'e2e-discord',
    adapters: [adapter],
    onEvent: watch.observe,
  });
  cleanup.add(() => bot.close());
  const server = await startBotHttp(logger);
  cleanup.add(() => server.close());
  const removal = workspaceRemovalFor(bot);
  const { log: removalLog, workspaceRemoved } = removal;
  const lostAccess = watch.attach(bot, [adapter], removal);
  await adapter.start({ http: server.http, commands: commandsFor(bot), logger, workspaceRemoved });
  cleanup.add(() => adapter.stop());

  return {
    rest,
    bot,
    adapter,
    url: server.url,
    keys,
    removalLog,
    removalMetrics: removal.metrics,
    lostAccess,
    async subscribe(channelId: string, feed: FeedName, workspaceId = GUILD_ID) {
      rest.addChannel(channelId, 'ok', workspaceId);
      await bot.engine.subscriptions.add({
        platform: 'discord',
        channelId,
        workspaceId,
        feed,
        filters: {},
        createdBy: 'e2e',
      });
    },
    async pollAndDeliver() {
      bot.engine.dispatcher.start();
      await bot.engine.pollAllOnce();
      await bot.engine.dispatcher.drained();
    },
    /** Create-message requests for one channel, as the fake answered them. */
    attempts(channelId: string): RecordedCall[] {
      return rest.callsTo('POST', MESSAGES).filter((c) => c.path === `/channels/${channelId}/messages`);
    },
    /** Messages that exist in the channel (a repeated nonce does not create a second one). */
    posted(channelId: string): Record<string, unknown>[] {
      return (rest.messages.get(channelId) ?? []).map((m) => m.body);
    },
  };
}

const shown = (body: unknown) => JSON.stringify(body);

/** The removal wrote its one line, saying which server went, why, and what was deleted. */
function expectOneRemoval(log: { lines: CapturedLine[] }, fields: Record<string, unknown>): void {
  expect(log.lines).toHaveLength(1);
  expect(log.lines[0]?.fields).toMatchObject({ platform: 'discord', ...fields });
}

describe('Discord end to end: emulator → engine → Discord adapter → fake Discord', () => {
  it('posts every new item once, each with its own nonce, within the spec and pinging no one', async () => {
    const e2e = await discordBot();
    const [comments, posts, collections, live] = [nextId(), nextId(), nextId(), nextId()];
    await e2e.subscribe(comments, 'comments');
    await e2e.subscribe(posts, 'posts');
    await e2e.subscribe(collections, 'collections');
    await e2e.subscribe(live, 'live');
    await e2e.bot.engine.pollAllOnce();

    const { admin } = world.emulator;
    admin.addComment({ body: 'Plain and friendly' });
    admin.addComment({ body: '@everyone look at <@123456789012345678> and <@&223456789012345678> @here' });
    admin.addComment({ body: 'Third **comment**' });
    admin.addPost({ name: 'Rocket @everyone launcher' });
    admin.addPost({ name: 'Quiet tool' });
    admin.featureCollection(admin.addCollection({ name: 'Curated picks' }).id);
    admin.scheduleLive({ name: 'Launch AMA', startsAt: new Date(Date.now() + 3 * 86_400_000).toISOString() });
    await e2e.pollAndDeliver();

    expect(e2e.posted(comments)).toHaveLength(3);
    expect(e2e.posted(posts)).toHaveLength(2);
    expect(e2e.posted(collections)).toHaveLength(1);
    expect(e2e.posted(live)).toHaveLength(1);
    expect(e2e.posted(comments).filter((b) => shown(b).includes('Plain and friendly'))).toHaveLength(1);
    // Mentions are shown as text: broadcast words defused, user and role mentions escaped.
    const hostile = e2e.posted(comments).find((b) => shown(b).includes('look at'));
    const description = String(
      (hostile?.['embeds'] as { description?: string }[] | undefined)?.[0]?.description,
    );
    expect(description).toContain('\\<@123456789012345678\\>');
    expect(description).toContain('\\<@&223456789012345678\\>');
    expect(e2e.posted(posts).map(shown).join()).toContain('Rocket @\u200beveryone launcher');
    expect(e2e.posted(live).map(shown).join()).toContain('Launch AMA');

    // Every post is idempotent and can ping no one; the fake checked each body against the spec.
    const bodies = e2e.rest.callsTo('POST', MESSAGES).map((c) => c.body as Record<string, unknown>);
    expect(bodies).toHaveLength(7);
    for (const body of bodies) {
      expect(body['enforce_nonce']).toBe(true);
      expect(body['allowed_mentions']).toEqual({ parse: [] });
    }
    expect(new Set(bodies.map((b) => b['nonce'])).size).toBe(7);
    expect(bodies.map(shown).filter((b) => /@(everyone|here)/.test(b))).toEqual([]);
    expect(e2e.rest.problems).toEqual([]);

    await e2e.pollAndDeliver();
    await e2e.pollAndDeliver();
    expect(e2e.rest.callsTo('POST', MESSAGES)).toHaveLength(7);
  });

  it('posts a comment and a post whose text hides a bidi override without the override', async () => {
    const e2e = await discordBot();
    const [comments, posts] = [nextId(), nextId()];
    await e2e.subscribe(comments, 'comments');
    await e2e.subscribe(posts, 'posts');
    await e2e.bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'Your invoice: invoice\u202egnp.exe (from Pay\u200bPal)' });
    world.emulator.admin.addPost({ name: 'Viewer for \u2067photo\u202egnp.exe' });
    await e2e.pollAndDeliver();

    const comment = e2e.posted(comments).map(shown).join();
    const post = e2e.posted(posts).map(shown).join();
    expect(comment).toContain('invoicegnp.exe \\\\(from PayPal\\\\)');
    expect(post).toContain('Viewer for photognp.exe');
    for (const payload of [comment, post]) expect(payload).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it("posts one comment to three channels in each channel's format — full card, compact line, title line — and a post title, pinging no one", async () => {
    const e2e = await discordBot();
    const [full, compact, title, postTitle] = [nextId(), nextId(), nextId(), nextId()];
    const routes = [
      [full, 'comments', 'full'],
      [compact, 'comments', 'compact'],
      [title, 'comments', 'title'],
      [postTitle, 'posts', 'title'],
    ] as const;
    for (const [channelId, feed, format] of routes) {
      e2e.rest.addChannel(channelId, 'ok', GUILD_ID);
      await e2e.bot.engine.subscriptions.add({
        platform: 'discord',
        channelId,
        workspaceId: GUILD_ID,
        feed,
        filters: {},
        format,
        createdBy: 'e2e',
      });
    }
    await e2e.bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'Busy thread @everyone <@123456789012345678> **loud**' });
    world.emulator.admin.addPost({ name: 'Launcher @everyone <@123456789012345678>' });
    await e2e.pollAndDeliver();

    type Embed = { title?: string; url?: string; description?: string; fields?: unknown[] };
    const embedIn = (channelId: string): Embed => {
      const posted = e2e.posted(channelId);
      expect(posted).toHaveLength(1);
      const embeds = posted[0]?.['embeds'] as Embed[];
      expect(embeds).toHaveLength(1);
      return embeds[0] ?? {};
    };
    expect(embedIn(full).description).toContain('Busy thread');
    // A line: the embed is the linked title and nothing else (no body, fields, author or buttons).
    const line = (channelId: string) => {
      const embed = embedIn(channelId);
      expect(Object.keys(embed).sort()).toEqual(['color', 'title', 'url']);
      expect(e2e.posted(channelId)[0]).not.toHaveProperty('components');
      return embed.title ?? '';
    };
    expect(line(compact)).toMatch(
      /^New comment by .+: Busy thread @\u200beveryone \\<@123456789012345678\\> \\\*\\\*loud\\\*\\\*$/,
    );
    expect(line(title)).toMatch(/^New comment/);
    expect(line(title)).not.toContain('Busy thread');
    expect(line(postTitle)).toBe('Launcher @\u200beveryone \\<@123456789012345678\\>');

    const bodies = e2e.rest.callsTo('POST', MESSAGES).map((c) => c.body as Record<string, unknown>);
    for (const body of bodies) expect(body['allowed_mentions']).toEqual({ parse: [] });
    expect(bodies.map(shown).filter((b) => /@(everyone|here)/.test(b))).toEqual([]);
    expect(e2e.rest.problems).toEqual([]);
  });

  it('does not post twice when the same delivery is retried after a lost answer', async () => {
    const e2e = await discordBot();
    const channel = nextId();
    e2e.rest.addChannel(channel);
    const message = { kind: 'comment' as const, title: 'Once only', text: 'retried', fallback: 'Once only' };
    const destination = { platform: 'discord', channelId: channel };
    const first = await e2e.adapter.deliver(destination, message, { idempotencyKey: 'discord:c|comment:1' });
    const again = await e2e.adapter.deliver(destination, message, { idempotencyKey: 'discord:c|comment:1' });
    expect(first.status).toBe('delivered');
    // The same message back (the bucket it reports has one post less remaining, as it should).
    expect(again).toMatchObject({
      status: 'delivered',
      platformMessageId: first.status === 'delivered' ? first.platformMessageId : 'none',
    });
    expect(e2e.posted(channel)).toHaveLength(1);
  });

  it('delivers everything once through a per-route 429 storm, same nonce on every retry, other channels unhindered', async () => {
    const e2e = await discordBot();
    const [storm, calm] = [nextId(), nextId()];
    await e2e.subscribe(storm, 'comments');
    await e2e.subscribe(calm, 'comments');
    await e2e.bot.engine.pollAllOnce();
    // Retry-After (2 s) is longer than the channel's own pacing (1 s), so ignoring it would show.
    e2e.rest.rateLimitChannel(storm, 2, 2);
    const bodies = ['storm one', 'storm two', 'storm three'];
    for (const body of bodies) world.emulator.admin.addComment({ body });
    await e2e.pollAndDeliver();

    const order = (channel: string) =>
      e2e.posted(channel).map((b) => bodies.findIndex((text) => shown(b).includes(text)));
    expect(order(storm)).toEqual([0, 1, 2]);
    expect(order(calm)).toEqual([0, 1, 2]);

    const attempts = e2e.attempts(storm);
    expect(attempts.filter((c) => c.status === 429)).toHaveLength(2);
    attempts.forEach((call, index) => {
      const next = attempts[index + 1];
      if (call.status !== 429 || next === undefined) return;
      expect(next.at - call.at).toBeGreaterThanOrEqual(2000);
      // The retry is the same post: same nonce, so Discord could never show it twice.
      expect((next.body as { nonce?: string }).nonce).toBe((call.body as { nonce?: string }).nonce);
    });
    const position = (call: RecordedCall) => e2e.rest.calls.indexOf(call);
    const lastCalm = Math.max(...e2e.attempts(calm).map(position));
    expect(attempts[1]).toBeDefined();
    expect(lastCalm).toBeLessThan(position(attempts[1] as RecordedCall));
    expect(e2e.rest.problems).toEqual([]);
  });

  it('holds every channel during a global 429, then delivers everything once', async () => {
    const e2e = await discordBot();
    const channels = [nextId(), nextId(), nextId()];
    for (const channel of channels) await e2e.subscribe(channel, 'comments');
    await e2e.bot.engine.pollAllOnce();
    e2e.rest.rateLimitChannel(channels[0] as string, 1, 2, true);
    const bodies = ['global one', 'global two', 'global three'];
    for (const body of bodies) world.emulator.admin.addComment({ body });
    await e2e.pollAndDeliver();

    for (const channel of channels) expect(e2e.posted(channel)).toHaveLength(3);
    const limited = e2e.rest.callsTo('POST', MESSAGES).filter((c) => c.status === 429);
    expect(limited).toHaveLength(1);
    const globalAt = (limited[0] as RecordedCall).at;
    // While the global limit lasted, only posts already on the wire when it was announced (at
    // most one per channel: the bot posts to a channel one message at a time) reached Discord.
    const during = e2e.rest
      .callsTo('POST', MESSAGES)
      .filter((c) => c.at > globalAt && c.at < globalAt + 2000);
    expect(during.length).toBeLessThanOrEqual(channels.length - 1);
    expect(e2e.rest.problems).toEqual([]);
  });

  it('pauses a channel deleted mid-run (404 Unknown Channel) and stops posting there, others unaffected', async () => {
    const e2e = await discordBot();
    const [doomed, fine] = [nextId(), nextId()];
    await e2e.subscribe(doomed, 'comments');
    await e2e.subscribe(doomed, 'posts');
    await e2e.subscribe(fine, 'comments');
    await e2e.bot.engine.pollAllOnce();
    const { admin } = world.emulator;
    admin.addComment({ body: 'before the deletion' });
    await e2e.pollAndDeliver();
    expect(e2e.posted(doomed)).toHaveLength(1);

    e2e.rest.deleteChannel(doomed);
    const before = e2e.attempts(doomed).length;
    admin.addComment({ body: 'after the deletion' });
    admin.addComment({ body: 'and another' });
    admin.addPost({ name: 'A post the deleted channel never sees' });
    await e2e.pollAndDeliver();

    const afterDeletion = e2e.attempts(doomed).slice(before);
    expect(afterDeletion.map((c) => c.status)).toEqual([404]);
    const subscriptions = await e2e.bot.engine.subscriptions.list();
    const paused = subscriptions.filter((s) => s.channelId === doomed);
    expect(paused).toHaveLength(2);
    for (const subscription of paused) expect(subscription.paused?.code).toBe('unknown_channel');
    expect(subscriptions.find((s) => s.channelId === fine)?.paused).toBeUndefined();
    expect(e2e.posted(fine)).toHaveLength(3);

    admin.addComment({ body: 'much later' });
    await e2e.pollAndDeliver();
    expect(e2e.attempts(doomed)).toHaveLength(before + 1);
    expect(e2e.posted(fine)).toHaveLength(4);
  });
});

describe('Discord channels closed to the bot', () => {
  it('pauses a channel answering 403 Missing Access after one attempt and keeps the others going', async () => {
    const e2e = await discordBot();
    const [closed, open] = [nextId(), nextId()];
    await e2e.subscribe(closed, 'comments');
    await e2e.subscribe(open, 'comments');
    e2e.rest.addChannel(closed, 'missing_access');
    await e2e.bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'first one' });
    world.emulator.admin.addComment({ body: 'second one' });
    await e2e.pollAndDeliver();

    expect(e2e.attempts(closed).map((c) => c.status)).toEqual([403]);
    expect(e2e.posted(open)).toHaveLength(2);
    const paused = (await e2e.bot.engine.subscriptions.list()).filter((s) => s.paused);
    expect(paused.map((s) => [s.channelId, s.paused?.code])).toEqual([[closed, 'missing_access']]);
  });
});

describe('Discord /directory end to end', () => {
  let interactionSeq = 700000000000000000n;
  function postInteraction(postId: string): Record<string, unknown> {
    interactionSeq += 1n;
    const channelId = nextId();
    return {
      id: interactionSeq.toString(),
      application_id: APP_ID,
      type: 2,
      token: `interaction-token-${interactionSeq}`,
      guild_id: GUILD_ID,
      channel_id: channelId,
      channel: { id: channelId, type: 0 },
      member: {
        user: { id: '100000000000000010', username: 'alice', global_name: 'Alice' },
        permissions: String((1n << 10n) | (1n << 11n)),
      },
      data: {
        id: '100000000000000011',
        name: 'directory',
        type: 1,
        options: [{ name: 'post', type: 1, options: [{ name: 'post', type: 3, value: postId }] }],
      },
      app_permissions: String((1n << 10n) | (1n << 11n)),
      locale: 'en-US',
      guild_locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': GUILD_ID },
      context: 0,
      attachment_size_limit: 10485760,
      version: 1,
    };
  }

  /** The message the asker ends up seeing: the inline reply, or the edit after a deferral. */
  async function answerOf(
    rest: FakeDiscordRest,
    callback: { type?: number; data?: Record<string, unknown> },
  ): Promise<Record<string, unknown>> {
    if (callback.type === 4 && callback.data) return callback.data;
    const edit = await rest.waitForCall((c) => c.method === 'PATCH' && c.route.endsWith('@original'));
    return edit.body as Record<string, unknown>;
  }

  it('answers a signed `/directory post` on the HTTP interactions endpoint from the directory', async () => {
    const e2e = await discordBot();
    const post = world.emulator.admin.addPost({ name: 'Lookup @everyone target' });
    const raw = JSON.stringify(postInteraction(String(post.id)));
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = sign(null, Buffer.from(timestamp + raw), e2e.keys.privateKey).toString('hex');
    const res = await fetch(`${e2e.url}/discord/interactions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature-ed25519': signature,
        'x-signature-timestamp': timestamp,
      },
      body: raw,
    });
    expect(res.status).toBe(200);
    const answer = await answerOf(e2e.rest, (await res.json()) as { type?: number });
    expect(shown(answer)).toContain('Lookup @\u200beveryone target');
    expect(answer['allowed_mentions']).toEqual({ parse: [] });
    expect(e2e.rest.problems).toEqual([]);
  });

  it('refuses an interaction with a tampered signature and runs nothing', async () => {
    const e2e = await discordBot();
    const upstreamBefore = world.emulator.admin.stats().requests.total;
    const raw = JSON.stringify(postInteraction('1'));
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = sign(null, Buffer.from(`${timestamp}${raw} `), e2e.keys.privateKey).toString('hex');
    const res = await fetch(`${e2e.url}/discord/interactions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature-ed25519': signature,
        'x-signature-timestamp': timestamp,
      },
      body: raw,
    });
    expect(res.status).toBe(401);
    expect(world.emulator.admin.stats().requests.total).toBe(upstreamBefore);
    expect(
      e2e.rest.calls.filter((c) => c.route.includes('interactions') || c.route.includes('webhooks')),
    ).toEqual([]);
  });

  it('answers `/directory post` arriving over the gateway through the interaction callback', async () => {
    const gateway = new FakeDiscordGateway({ applicationId: APP_ID });
    cleanup.add(() => gateway.close());
    const e2e = await discordBot({ gateway });
    await gateway.whenIdentified();
    const post = world.emulator.admin.addPost({ name: 'Gateway lookup' });
    const interaction = postInteraction(String(post.id));
    gateway.dispatch('INTERACTION_CREATE', interaction);
    const callback = await e2e.rest.waitForCall((c) => c.route === '/interactions/:id/:token/callback');
    expect(callback.path).toContain(String(interaction['id']));
    const answer = await answerOf(e2e.rest, callback.body as { type?: number });
    expect(shown(answer)).toContain('Gateway lookup');
    expect(e2e.rest.problems).toEqual([]);
  });
  it('forgets a server that removes the bot (GUILD_DELETE): its subscriptions, queued deliveries and ledger go, nothing more is posted there, another server keeps everything, and re-adding starts clean', async () => {
    const gateway = new FakeDiscordGateway({ applicationId: APP_ID });
    cleanup.add(() => gateway.close());
    const e2e = await discordBot({ gateway });
    await gateway.whenIdentified();
    const otherGuild = '100000000000000003';
    const [gone, stays] = [nextId(), nextId()];
    await e2e.subscribe(gone, 'comments');
    await e2e.subscribe(stays, 'comments', otherGuild);
    await e2e.bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'before removal' });
    await e2e.pollAndDeliver();
    expect(e2e.posted(gone)).toHaveLength(1);
    await e2e.bot.engine.dispatcher.stop();
    world.emulator.admin.addComment({ body: 'queued at removal' });
    await e2e.bot.engine.pollAllOnce();
    expect(e2e.bot.engine.outbox.depth(`discord:${gone}`)).toBe(1);

    // An outage is not a removal: nothing is forgotten.
    gateway.guildOutage(GUILD_ID);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(e2e.removalLog.lines).toEqual([]);
    gateway.removeFromGuild(GUILD_ID);
    await eventually(() => e2e.removalLog.lines.length > 0, 10_000, 'the removal logged');
    expectOneRemoval(e2e.removalLog, {
      workspace: GUILD_ID,
      reason: 'guild_removed',
      subscriptions: 1,
      queuedDeliveries: 1,
      deliveryLedger: 1,
    });
    const left = await exportWorkspace({ store: e2e.bot.store }, { platform: 'discord', id: GUILD_ID });
    expect(left.subscriptions).toEqual([]);
    expect(left.queuedDeliveries).toEqual([]);
    expect(left.deliveryLedger).toEqual([]);
    const other = await exportWorkspace({ store: e2e.bot.store }, { platform: 'discord', id: otherGuild });
    expect(other.subscriptions).toHaveLength(1);
    expect(other.deliveryLedger).toHaveLength(1);

    await e2e.pollAndDeliver();
    expect(e2e.attempts(gone)).toHaveLength(1);
    expect(e2e.posted(stays)).toHaveLength(2);

    // Added back: only what is new is posted.
    await e2e.subscribe(gone, 'comments');
    await e2e.pollAndDeliver();
    expect(e2e.attempts(gone)).toHaveLength(1);
    world.emulator.admin.addComment({ body: 'after re-adding' });
    await e2e.pollAndDeliver();
    expect(e2e.attempts(gone)).toHaveLength(2);
    expect(JSON.stringify(e2e.posted(gone)[1])).toContain('after re-adding');
  });

  it('without the gateway, forgets the server when a post answers Unknown Guild', async () => {
    const e2e = await discordBot();
    const channel = nextId();
    await e2e.subscribe(channel, 'comments');
    await e2e.bot.engine.pollAllOnce();
    e2e.rest.failNextMessage(channel, { status: 404, code: 10004, message: 'Unknown Guild' });
    world.emulator.admin.addComment({ body: 'to a server that is gone' });
    await e2e.pollAndDeliver();
    await eventually(() => e2e.removalLog.lines.length > 0, 10_000, 'the removal logged');
    expect(e2e.removalLog.lines[0]?.fields).toMatchObject({ workspace: GUILD_ID, reason: 'guild_removed' });
    const left = await exportWorkspace({ store: e2e.bot.store }, { platform: 'discord', id: GUILD_ID });
    expect(left.subscriptions).toEqual([]);
    expect(left.queuedDeliveries).toEqual([]);
  });
});

describe('Discord servers that remove the bot while it runs without the gateway', () => {
  const SERVER_A = '100000000000000004';
  const SERVER_B = '100000000000000005';
  const guildChecks = (rest: FakeDiscordRest, guild: string) =>
    rest.callsTo('GET', '/guilds/:id').filter((c) => c.path === `/guilds/${guild}`);

  it('forgets a server once every subscribed channel answers Missing Access and Discord confirms the kick, across a restart, and another server keeps everything; re-adding starts clean', async () => {
    const storeUrl = world.sqliteUrl();
    const first = await discordBot({ storeUrl });
    const { rest } = first;
    const [commentsA, postsA, serverB] = [nextId(), nextId(), nextId()];
    await first.subscribe(commentsA, 'comments', SERVER_A);
    await first.subscribe(postsA, 'posts', SERVER_A);
    await first.subscribe(serverB, 'comments', SERVER_B);
    await first.bot.engine.pollAllOnce();
    const { admin } = world.emulator;
    admin.addComment({ body: 'before the kick' });
    admin.addPost({ name: 'Posted before the kick' });
    await first.pollAndDeliver();
    expect(first.posted(commentsA)).toHaveLength(1);
    expect(first.posted(postsA)).toHaveLength(1);

    // Kicked, and no gateway to say so: the first channel to answer Missing Access is only paused.
    rest.kickFromGuild(SERVER_A);
    admin.addComment({ body: 'after the kick' });
    await first.pollAndDeliver();
    expect(first.attempts(commentsA).at(-1)?.status).toBe(403);
    const halfway = await first.bot.engine.subscriptions.list();
    expect(halfway.filter((s) => s.workspaceId === SERVER_A).map((s) => s.paused?.code ?? 'running')).toEqual(
      ['missing_access', 'running'],
    );
    expect(guildChecks(rest, SERVER_A)).toEqual([]);
    expect(first.removalLog.lines).toEqual([]);

    // A restart in between: the tally is the paused subscriptions, kept in the store.
    await first.adapter.stop();
    await first.bot.close();
    const e2e = await discordBot({ rest, storeUrl });
    admin.addPost({ name: 'Posted after the kick' });
    admin.addComment({ body: 'for server B only' });
    await e2e.bot.engine.pollAllOnce();
    await e2e.bot.engine.dispatcher.stop();
    expect(e2e.bot.engine.outbox.depth(`discord:${postsA}`)).toBe(1);
    e2e.bot.engine.dispatcher.start();
    await e2e.bot.engine.dispatcher.drained();
    await eventually(() => e2e.removalLog.lines.length > 0, 10_000, 'the removal logged');

    // Asked once, after the last channel answered, and only then forgotten.
    const checks = guildChecks(rest, SERVER_A);
    expect(checks.map((c) => c.status)).toEqual([403]);
    const lastRefusal = e2e.attempts(postsA).at(-1) as RecordedCall;
    expect(lastRefusal.status).toBe(403);
    expect(rest.calls.indexOf(checks[0] as RecordedCall)).toBeGreaterThan(rest.calls.indexOf(lastRefusal));
    expectOneRemoval(e2e.removalLog, {
      workspace: SERVER_A,
      reason: 'missing_access',
      subscriptions: 2,
      deliveryLedger: 2,
    });
    expect(await e2e.removalMetrics.registry.metrics()).toContain(
      'directory_bot_workspaces_removed_total{platform="discord",reason="missing_access"} 1',
    );
    const left = await exportWorkspace({ store: e2e.bot.store }, { platform: 'discord', id: SERVER_A });
    expect(left.subscriptions).toEqual([]);
    expect(left.queuedDeliveries).toEqual([]);
    expect(left.deliveryLedger).toEqual([]);
    const other = await exportWorkspace({ store: e2e.bot.store }, { platform: 'discord', id: SERVER_B });
    expect(other.subscriptions.map((s) => s.paused)).toEqual([undefined]);
    expect(other.deliveryLedger).toHaveLength(3);
    expect(e2e.posted(serverB)).toHaveLength(3);

    const attemptsA = e2e.attempts(commentsA).length + e2e.attempts(postsA).length;
    admin.addComment({ body: 'nobody in server A sees this' });
    admin.addPost({ name: 'Nor this' });
    await e2e.pollAndDeliver();
    expect(e2e.attempts(commentsA).length + e2e.attempts(postsA).length).toBe(attemptsA);
    expect(e2e.posted(serverB)).toHaveLength(4);

    // Added back: only what is new is posted.
    rest.addToGuild(SERVER_A);
    await e2e.subscribe(commentsA, 'comments', SERVER_A);
    const beforeReadding = e2e.attempts(commentsA).length;
    await e2e.pollAndDeliver();
    expect(e2e.attempts(commentsA)).toHaveLength(beforeReadding);
    admin.addComment({ body: 'after re-adding' });
    await e2e.pollAndDeliver();
    expect(e2e.posted(commentsA).map(shown).slice(1)).toEqual([expect.stringContaining('after re-adding')]);
    expect(e2e.removalLog.lines).toHaveLength(1);
  });

  it('keeps a server where one of two channels lost access: that channel pauses, the other still gets every delivery, nothing is asked or forgotten', async () => {
    const e2e = await discordBot();
    const [closed, open] = [nextId(), nextId()];
    await e2e.subscribe(closed, 'comments', SERVER_A);
    await e2e.subscribe(open, 'comments', SERVER_A);
    await e2e.bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'both channels' });
    await e2e.pollAndDeliver();
    e2e.rest.addChannel(closed, 'missing_access', SERVER_A);
    world.emulator.admin.addComment({ body: 'one channel closed' });
    world.emulator.admin.addComment({ body: 'still one channel closed' });
    await e2e.pollAndDeliver();

    expect(e2e.attempts(closed).map((c) => c.status)).toEqual([200, 403]);
    expect(e2e.posted(open)).toHaveLength(3);
    const kept = await exportWorkspace({ store: e2e.bot.store }, { platform: 'discord', id: SERVER_A });
    expect(kept.subscriptions.map((s) => [s.channelId, s.paused?.code])).toEqual([
      [closed, 'missing_access'],
      [open, undefined],
    ]);
    expect(kept.deliveryLedger).toHaveLength(4);
    expect(guildChecks(e2e.rest, SERVER_A)).toEqual([]);
    expect(e2e.removalLog.lines).toEqual([]);
  });

  it('keeps a server whose every channel lost access while Discord says the bot is still in it, asking once', async () => {
    const e2e = await discordBot();
    const [first, second] = [nextId(), nextId()];
    await e2e.subscribe(first, 'comments', SERVER_A);
    await e2e.subscribe(second, 'comments', SERVER_A);
    e2e.rest.addChannel(first, 'missing_access', SERVER_A);
    e2e.rest.addChannel(second, 'missing_access', SERVER_A);
    await e2e.bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'to two closed channels' });
    await e2e.pollAndDeliver();
    await eventually(() => e2e.removalLog.lines.length > 0, 10_000, 'the answer logged');
    await e2e.lostAccess.sweep();

    expect(guildChecks(e2e.rest, SERVER_A).map((c) => c.status)).toEqual([200]);
    expect(e2e.removalLog.lines.map((l) => [l.level, l.fields['workspace']])).toEqual([['info', SERVER_A]]);
    const kept = await exportWorkspace({ store: e2e.bot.store }, { platform: 'discord', id: SERVER_A });
    expect(kept.subscriptions.map((s) => s.paused?.code)).toEqual(['missing_access', 'missing_access']);
  });
});
