import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { createKeyValueInstallationStore } from '../../adapters/slack/installation-store.js';
import type { FeedName } from '../../src/feeds/feed-names.js';
import { exportWorkspace } from '../../src/workspaces/index.js';
import { postEvent, tokensRevoked } from '../fakes/slack/events-api.js';
import { FakeSlackApi, type RecordedCall } from '../fakes/slack/fake-slack-api.js';
import { signedHeaders } from '../fakes/slack/signing.js';
import { newTriggerId } from '../fakes/slack/trigger-id.js';
import { startWorld } from '../support/engine-harness.js';
import {
  botInstallationStore,
  Cleanup,
  pollAndDeliver,
  silentLogger,
  startPipeline,
} from '../support/pipeline-harness.js';
import { eventually } from '../support/polling.js';
import { createOAuthSlackAdapter, createTestSealer } from '../support/slack-oauth.js';
import { installation } from '../support/workspace-seed.js';

const TOKEN = 'xoxb-e2e-token';
const TEAM = 'T0E2E';
const SIGNING_SECRET = 'e2e-signing-secret';

const world = await startWorld();
afterAll(() => world.close());
const cleanup = new Cleanup();
afterEach(() => cleanup.run());

/**
 * Emulator → engine → the real Slack adapter (Bolt + WebClient) → a fake Slack, plus the bot's
 * HTTP server. `multiWorkspace`: installed by OAuth, each workspace's token kept in the bot's store.
 */
async function slackBot(options: { burst?: number; multiWorkspace?: boolean } = {}) {
  const logger = silentLogger();
  // Slack allows short bursts per channel; the fake allows as many as the adapter's pacing claims.
  const slack = await new FakeSlackApi({ burst: options.burst ?? 3 }).start();
  cleanup.add(() => slack.close());
  slack.addToken(TOKEN, TEAM);
  const installs = botInstallationStore();
  const sealer = createTestSealer();
  const adapter = options.multiWorkspace
    ? createOAuthSlackAdapter(slack.apiUrl, installs, sealer, SIGNING_SECRET)
    : createSlackAdapter({ botToken: TOKEN, signingSecret: SIGNING_SECRET, apiUrl: slack.apiUrl, logger });
  const { bot, url, removal } = await startPipeline(world, cleanup, adapter, {
    namespace: 'e2e-slack',
    logger,
    installs,
  });

  return {
    slack,
    bot,
    url,
    removalLog: removal.log,
    removalMetrics: removal.metrics,
    /** A workspace installs the app by OAuth: Slack grants it `token`, the bot stores the installation. */
    async install(teamId: string, token: string) {
      slack.addToken(token, teamId);
      await createKeyValueInstallationStore(installs, sealer).storeInstallation(installation(teamId, token));
    },
    async subscribe(channelId: string, feed: FeedName, workspaceId?: string) {
      slack.addChannel(channelId);
      await bot.engine.subscriptions.add({
        platform: 'slack',
        channelId,
        ...(workspaceId === undefined ? {} : { workspaceId }),
        feed,
        filters: {},
        createdBy: 'e2e',
      });
    },
    /** One poll of every wanted feed, delivered to the end (retries included). */
    pollAndDeliver: () => pollAndDeliver(bot),
    /** chat.postMessage calls Slack accepted, for one channel. */
    posted(channelId: string): RecordedCall[] {
      return slack
        .callsTo('chat.postMessage')
        .filter((c) => c.params['channel'] === channelId && c.response['ok']);
    },
    attempts(channelId: string): RecordedCall[] {
      return slack.callsTo('chat.postMessage').filter((c) => c.params['channel'] === channelId);
    },
  };
}

/** Everything Slack would show for a post: the fallback text and every block, as one string. */
const shown = (call: RecordedCall) => JSON.stringify([call.params['text'], call.params['blocks']]);

describe('Slack end to end: emulator → engine → Slack adapter → fake Slack', () => {
  it('posts every new comment, post, collection and live event to its channel once, escaped and within Block Kit', async () => {
    const e2e = await slackBot();
    await e2e.subscribe('C0COMMENTS', 'comments');
    await e2e.subscribe('C0POSTS', 'posts');
    await e2e.subscribe('C0COLLECTIONS', 'collections');
    await e2e.subscribe('C0LIVE', 'live');
    await e2e.bot.engine.pollAllOnce(); // seeds the cursors: history is never posted

    const { admin } = world.emulator;
    admin.addComment({ body: 'Plain and friendly' });
    admin.addComment({ body: 'Hey <!channel> look at <@U123ABC> in <#C999|general> <!subteam^S1|team>' });
    admin.addComment({ body: 'Tom & Jerry > everyone' });
    admin.addPost({ name: 'Rocket <!here> launcher' });
    admin.addPost({ name: 'Quiet tool' });
    admin.featureCollection(admin.addCollection({ name: 'Curated <!everyone> picks' }).id);
    admin.scheduleLive({ name: 'Launch AMA', startsAt: new Date(Date.now() + 3 * 86_400_000).toISOString() });
    await e2e.pollAndDeliver();

    expect(e2e.posted('C0COMMENTS')).toHaveLength(3);
    expect(e2e.posted('C0POSTS')).toHaveLength(2);
    expect(e2e.posted('C0COLLECTIONS')).toHaveLength(1);
    expect(e2e.posted('C0LIVE')).toHaveLength(1);
    const comments = e2e.posted('C0COMMENTS').map(shown);
    for (const body of [
      'Plain and friendly',
      'Tom &amp; Jerry &gt; everyone',
      'Hey &lt;!channel&gt; look at &lt;@U123ABC&gt;',
    ]) {
      expect(comments.filter((c) => c.includes(body))).toHaveLength(1);
    }
    expect(e2e.posted('C0POSTS').map(shown).join()).toContain('Rocket &lt;!here&gt; launcher');
    expect(e2e.posted('C0COLLECTIONS').map(shown).join()).toContain('Curated &lt;!everyone&gt; picks');
    expect(e2e.posted('C0LIVE').map(shown).join()).toContain('Launch AMA');

    // Nothing anyone wrote can ping or link: no raw mention syntax reaches Slack, and no link_names.
    const everything = e2e.slack.callsTo('chat.postMessage').map((c) => JSON.stringify(c.params));
    for (const raw of ['<!channel>', '<!here>', '<!everyone>', '<@U123ABC>', '<#C999', '<!subteam^S1']) {
      expect(everything.filter((p) => p.includes(raw))).toEqual([]);
    }
    for (const call of e2e.slack.callsTo('chat.postMessage')) {
      expect(call.params['link_names']).toBeUndefined();
      expect(String(call.params['unfurl_links'])).toBe('false');
    }
    expect(e2e.slack.violations).toEqual([]);
    // Paced to the channel's limit before Slack had to say 429.
    expect(e2e.slack.callsTo('chat.postMessage').filter((c) => c.status === 429)).toEqual([]);

    // Nothing new upstream: polling again posts nothing more.
    await e2e.pollAndDeliver();
    await e2e.pollAndDeliver();
    expect(e2e.slack.callsTo('chat.postMessage')).toHaveLength(7);
  });

  it('posts a comment and a post whose text hides a bidi override without the override', async () => {
    const e2e = await slackBot();
    await e2e.subscribe('C0SPOOFC', 'comments');
    await e2e.subscribe('C0SPOOFP', 'posts');
    await e2e.bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'Your invoice: invoice\u202egnp.exe (from Pay\u200bPal)' });
    world.emulator.admin.addPost({ name: 'Viewer for \u2067photo\u202egnp.exe' });
    await e2e.pollAndDeliver();

    const comment = e2e.posted('C0SPOOFC').map(shown).join();
    const post = e2e.posted('C0SPOOFP').map(shown).join();
    expect(comment).toContain('invoicegnp.exe (from PayPal)');
    expect(post).toContain('Viewer for photognp.exe');
    for (const payload of [comment, post]) expect(payload).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
  });

  it("posts one comment to three channels in each channel's format — full card, compact line, title line — and a post title, pinging no one", async () => {
    const e2e = await slackBot();
    const formats = { C0FULL: 'full', C0COMPACT: 'compact', C0TITLE: 'title' } as const;
    for (const [channelId, format] of Object.entries(formats)) {
      e2e.slack.addChannel(channelId);
      await e2e.bot.engine.subscriptions.add({
        platform: 'slack',
        channelId,
        feed: 'comments',
        filters: {},
        format,
        createdBy: 'e2e',
      });
    }
    e2e.slack.addChannel('C0POSTTITLE');
    await e2e.bot.engine.subscriptions.add({
      platform: 'slack',
      channelId: 'C0POSTTITLE',
      feed: 'posts',
      filters: {},
      format: 'title',
      createdBy: 'e2e',
    });
    await e2e.bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'Busy thread @everyone <!channel> <@U123> & more' });
    world.emulator.admin.addPost({ name: 'Launcher @everyone <!channel> <@U123>' });
    await e2e.pollAndDeliver();

    const [full, compact, title, postTitle] = ['C0FULL', 'C0COMPACT', 'C0TITLE', 'C0POSTTITLE'].map((c) => {
      const calls = e2e.posted(c);
      expect(calls).toHaveLength(1);
      return calls[0]?.params['blocks'] as { type: string; text?: { text: string } }[];
    });
    expect(full?.map((b) => b.type)).toContain('header');
    expect(full?.map((b) => b.type)).toContain('actions');
    // A line: one section whose text is our link around the escaped line, no header and no button.
    const line = (blocks: typeof full) => {
      expect(blocks?.map((b) => b.type)).toEqual(['section']);
      return blocks?.[0]?.text?.text ?? '';
    };
    expect(line(compact)).toMatch(
      /^<http[^|<>]+\|New comment by [^<>]+: Busy thread @\u200beveryone &lt;!channel&gt; &lt;@U123&gt; &amp; more>$/,
    );
    expect(line(title)).toMatch(/^<http[^|<>]+\|New comment[^<>:]*>$/);
    expect(line(postTitle)).toMatch(
      /^<http[^|<>]+\|Launcher @\u200beveryone &lt;!channel&gt; &lt;@U123&gt;>$/,
    );

    const everything = e2e.slack.callsTo('chat.postMessage').map((c) => JSON.stringify(c.params));
    for (const raw of ['<!channel>', '<@U123>'])
      expect(everything.filter((p) => p.includes(raw))).toEqual([]);
    expect(everything.filter((p) => /@(everyone|channel)\b/.test(p))).toEqual([]);
    expect(e2e.slack.violations).toEqual([]);
  });

  it('delivers everything once through a 429 storm on one channel, waits out each Retry-After, and keeps other channels flowing', async () => {
    const e2e = await slackBot();
    await e2e.subscribe('C0STORM', 'comments');
    await e2e.subscribe('C0CALM', 'comments');
    await e2e.bot.engine.pollAllOnce();
    // Retry-After (2 s) is longer than the channel's own pacing (1 s), so ignoring it would show.
    e2e.slack.failNext('chat.postMessage', 429, 2, 2, 'C0STORM');
    const bodies = ['storm one', 'storm two', 'storm three'];
    for (const body of bodies) world.emulator.admin.addComment({ body });
    await e2e.pollAndDeliver();

    // Every comment once, in order, on both channels.
    const order = (calls: RecordedCall[]) => calls.map((c) => bodies.findIndex((b) => shown(c).includes(b)));
    expect(order(e2e.posted('C0STORM'))).toEqual([0, 1, 2]);
    expect(order(e2e.posted('C0CALM'))).toEqual([0, 1, 2]);

    // Each 429 was honoured: the next post to that channel came only after its Retry-After.
    const storm = e2e.attempts('C0STORM');
    expect(storm.filter((c) => c.status === 429)).toHaveLength(2);
    storm.forEach((call, index) => {
      const next = storm[index + 1];
      if (call.status !== 429 || next === undefined) return;
      expect(next.at - call.at).toBeGreaterThanOrEqual(2000);
    });

    // The calm channel was not held up behind the storm: all of it arrived before the storm channel's second try.
    const position = (call: RecordedCall) => e2e.slack.calls.indexOf(call);
    const lastCalm = Math.max(...e2e.posted('C0CALM').map(position));
    expect(storm[1]).toBeDefined();
    expect(lastCalm).toBeLessThan(position(storm[1] as RecordedCall));
    expect(e2e.slack.violations).toEqual([]);
  });

  it('rides out a workspace-wide 429 storm and still posts everything exactly once', async () => {
    const e2e = await slackBot();
    const channels = ['C0WIDE1', 'C0WIDE2', 'C0WIDE3'];
    for (const channel of channels) await e2e.subscribe(channel, 'comments');
    await e2e.bot.engine.pollAllOnce();
    e2e.slack.failNext('chat.postMessage', 429, 3, 2);
    for (const body of ['wide one', 'wide two']) world.emulator.admin.addComment({ body });
    await e2e.pollAndDeliver();

    for (const channel of channels) {
      const texts = e2e.posted(channel).map(shown);
      expect(texts.filter((t) => t.includes('wide one'))).toHaveLength(1);
      expect(texts.filter((t) => t.includes('wide two'))).toHaveLength(1);
      expect(texts).toHaveLength(2);
      const attempts = e2e.attempts(channel);
      attempts.forEach((call, index) => {
        const next = attempts[index + 1];
        if (call.status === 429 && next !== undefined) expect(next.at - call.at).toBeGreaterThanOrEqual(2000);
      });
    }
    expect(e2e.slack.callsTo('chat.postMessage').filter((c) => c.status === 429)).toHaveLength(3);
  });

  it('pauses a channel archived mid-run with the reason, stops posting there, and keeps the others going', async () => {
    const e2e = await slackBot();
    await e2e.subscribe('C0DOOMED', 'comments');
    await e2e.subscribe('C0DOOMED', 'posts');
    await e2e.subscribe('C0FINE', 'comments');
    await e2e.bot.engine.pollAllOnce();
    const { admin } = world.emulator;
    admin.addComment({ body: 'before the archive' });
    await e2e.pollAndDeliver();
    expect(e2e.posted('C0DOOMED')).toHaveLength(1);

    e2e.slack.archiveChannel('C0DOOMED');
    const before = e2e.attempts('C0DOOMED').length;
    admin.addComment({ body: 'after the archive' });
    admin.addComment({ body: 'and another' });
    admin.addPost({ name: 'A post nobody in C0DOOMED will see' });
    await e2e.pollAndDeliver();

    // One attempt found the channel archived; nothing else was tried there.
    const afterArchive = e2e.attempts('C0DOOMED').slice(before);
    expect(afterArchive.map((c) => c.response['error'])).toEqual(['is_archived']);
    const subscriptions = await e2e.bot.engine.subscriptions.list();
    const doomed = subscriptions.filter((s) => s.channelId === 'C0DOOMED');
    expect(doomed).toHaveLength(2);
    for (const subscription of doomed) expect(subscription.paused?.code).toBe('is_archived');
    expect(subscriptions.find((s) => s.channelId === 'C0FINE')?.paused).toBeUndefined();
    expect(e2e.posted('C0FINE').map(shown).join()).toContain('and another');
    expect(e2e.posted('C0FINE')).toHaveLength(3);

    // Later items skip the paused channel entirely.
    admin.addComment({ body: 'much later' });
    await e2e.pollAndDeliver();
    expect(e2e.attempts('C0DOOMED').length).toBe(before + 1);
    expect(e2e.posted('C0FINE')).toHaveLength(4);
  });
});

describe('Slack channels the bot is not in', () => {
  it('joins a public channel once on not_in_channel and posts there; pauses a private one it cannot join', async () => {
    const e2e = await slackBot();
    await e2e.subscribe('C0PUBLIC', 'comments');
    await e2e.subscribe('G0PRIVATE', 'comments');
    e2e.slack.addChannel('C0PUBLIC', { requiresMembership: true });
    e2e.slack.addChannel('G0PRIVATE', { isPrivate: true });
    await e2e.bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'first one' });
    world.emulator.admin.addComment({ body: 'second one' });
    await e2e.pollAndDeliver();

    // Each channel tried to join once; the two are delivered concurrently, so in either order.
    expect(
      e2e.slack
        .callsTo('conversations.join')
        .map((c) => String(c.params['channel']))
        .sort(),
    ).toEqual(['C0PUBLIC', 'G0PRIVATE']);
    expect(e2e.posted('C0PUBLIC').map(shown).join()).toContain('second one');
    expect(e2e.posted('C0PUBLIC')).toHaveLength(2);
    expect(e2e.posted('G0PRIVATE')).toHaveLength(0);
    const paused = (await e2e.bot.engine.subscriptions.list()).filter((s) => s.paused);
    expect(paused.map((s) => [s.channelId, s.paused?.code])).toEqual([['G0PRIVATE', 'not_in_channel']]);
  });
});

describe('Slack /directory end to end', () => {
  function slashCommand(text: string, responseUrl: string): string {
    return new URLSearchParams({
      token: 'legacy-verification-token',
      team_id: TEAM,
      team_domain: 'e2e',
      channel_id: 'C0ASK',
      channel_name: 'ask',
      user_id: 'U0ASKER',
      user_name: 'asker',
      command: '/directory',
      text,
      api_app_id: 'A0E2E',
      response_url: responseUrl,
      trigger_id: newTriggerId(),
    }).toString();
  }

  it('answers a signed `/directory post <id>` on the bot’s own server with the post from the directory', async () => {
    const e2e = await slackBot();
    const post = world.emulator.admin.addPost({ name: 'Lookup <!here> target' });
    const body = slashCommand(`post ${post.id}`, e2e.slack.responseUrl());
    const res = await fetch(`${e2e.url}/slack/events`, {
      method: 'POST',
      headers: signedHeaders(SIGNING_SECRET, body, Math.floor(Date.now() / 1000)),
      body,
    });
    expect(res.status).toBe(200);
    const acked = (await res.json()) as Record<string, unknown>;
    // A slow lookup is acked at once and answered through response_url; either way the asker sees the post.
    const answer = acked['text'] === 'Working on it…' ? (await e2e.slack.waitForResponse()).body : acked;
    expect(answer['response_type']).toBe('ephemeral');
    const visible = JSON.stringify(answer);
    expect(visible).toContain('Lookup &lt;!here&gt; target');
    expect(visible).not.toContain('<!here>');
    expect(visible).toContain('Share in channel');
    expect(e2e.slack.violations).toEqual([]);

    // The health route on the same server is still the bot's own.
    expect((await fetch(`${e2e.url}/healthz`)).status).toBe(200);
  });

  it('refuses a /directory request signed with the wrong secret and runs nothing', async () => {
    const e2e = await slackBot();
    const upstreamBefore = world.emulator.admin.stats().requests.total;
    const body = slashCommand('post 1', e2e.slack.responseUrl());
    const res = await fetch(`${e2e.url}/slack/events`, {
      method: 'POST',
      headers: signedHeaders('not-the-secret', body, Math.floor(Date.now() / 1000)),
      body,
    });
    expect(res.status).toBe(401);
    expect(e2e.slack.responses).toEqual([]);
    expect(world.emulator.admin.stats().requests.total).toBe(upstreamBefore);
  });
  it('forgets a workspace that uninstalls the app: its installation, subscriptions, queued deliveries and ledger go, nothing more is posted there, another workspace keeps everything, and a reinstall starts clean', async () => {
    const e2e = await slackBot({ multiWorkspace: true });
    const [gone, stays] = ['T0GONE', 'T0STAYS'];
    await e2e.install(gone, 'xoxb-gone');
    await e2e.install(stays, 'xoxb-stays');
    await e2e.subscribe('C0GONE', 'comments', gone);
    await e2e.subscribe('C0STAYS', 'comments', stays);
    await e2e.bot.engine.pollAllOnce();
    world.emulator.admin.addComment({ body: 'before uninstall' });
    await e2e.pollAndDeliver();
    expect(e2e.posted('C0GONE')).toHaveLength(1);
    // Queued and not yet posted when the workspace leaves: the dispatcher is stopped.
    await e2e.bot.engine.dispatcher.stop();
    world.emulator.admin.addComment({ body: 'queued at uninstall' });
    await e2e.bot.engine.pollAllOnce();
    expect(e2e.bot.engine.outbox.depth('slack:C0GONE')).toBe(1);
    const ledger = (await exportWorkspace({ store: e2e.bot.store }, { platform: 'slack', id: gone }))
      .deliveryLedger;
    expect(ledger).toHaveLength(1);

    const answers = await e2e.slack.uninstallApp(e2e.url, SIGNING_SECRET, gone);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    await eventually(() => e2e.removalLog.lines.length === 2, 10_000, 'both removals logged');

    const left = await exportWorkspace({ store: e2e.bot.store }, { platform: 'slack', id: gone });
    expect(left.subscriptions).toEqual([]);
    expect(left.queuedDeliveries).toEqual([]);
    expect(left.deliveryLedger).toEqual([]);
    expect(left.installations).toEqual([]);
    expect(e2e.bot.engine.outbox.depth('slack:C0GONE')).toBe(0);
    const [uninstalled] = e2e.removalLog.lines;
    expect(uninstalled).toMatchObject({
      level: 'info',
      fields: {
        platform: 'slack',
        workspace: gone,
        reason: 'app_uninstalled',
        subscriptions: 1,
        installations: 1,
      },
    });
    expect(uninstalled?.fields['queuedDeliveries']).toBe(1);
    expect(
      (await e2e.removalMetrics.workspacesRemoved.get()).values.map((v) => v.labels.reason).sort(),
    ).toEqual(['app_uninstalled', 'tokens_revoked']);

    // The other workspace keeps its installation, subscription, queued delivery and ledger.
    const other = await exportWorkspace({ store: e2e.bot.store }, { platform: 'slack', id: stays });
    expect(other.subscriptions).toHaveLength(1);
    expect(other.installations).toHaveLength(1);
    expect(other.deliveryLedger).toHaveLength(1);
    expect(other.queuedDeliveries.flatMap((q) => q.entries)).toHaveLength(1);
    await e2e.pollAndDeliver();
    expect(e2e.attempts('C0GONE')).toHaveLength(1);
    expect(e2e.posted('C0STAYS').map(shown).join()).toContain('queued at uninstall');

    // Reinstalled: nothing of before comes back; only what is new is posted.
    await e2e.install(gone, 'xoxb-gone-again');
    await e2e.subscribe('C0GONE', 'comments', gone);
    await e2e.pollAndDeliver();
    expect(e2e.attempts('C0GONE')).toHaveLength(1);
    world.emulator.admin.addComment({ body: 'after reinstall' });
    await e2e.pollAndDeliver();
    const after = e2e.attempts('C0GONE').slice(1);
    expect(after.map(shown)).toHaveLength(1);
    expect(shown(after[0] as RecordedCall)).toContain('after reinstall');
  });

  it('keeps a workspace whose user token is revoked while the bot token stays', async () => {
    const e2e = await slackBot({ multiWorkspace: true });
    await e2e.install('T0USER', 'xoxb-user-team');
    await e2e.subscribe('C0USER', 'comments', 'T0USER');
    const answer = await postEvent(
      e2e.url,
      SIGNING_SECRET,
      'T0USER',
      tokensRevoked({ oauth: ['U0SOMEONE'] }),
    );
    expect(answer.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(e2e.removalLog.lines).toEqual([]);
    const kept = await exportWorkspace({ store: e2e.bot.store }, { platform: 'slack', id: 'T0USER' });
    expect(kept.subscriptions).toHaveLength(1);
    expect(kept.installations).toHaveLength(1);
  });
});
