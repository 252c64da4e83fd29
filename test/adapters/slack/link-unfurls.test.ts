import { webApi } from '@slack/bolt';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderSlackMessage, type SlackAdapterEvent } from '../../../adapters/slack/index.js';
import { createSlackAdapter } from '../../../adapters/slack/slack-adapter.js';
import type { PreviewEvent } from '../../../src/commands/index.js';
import { EMULATOR_WEB_URL } from '../../../src/emulator/index.js';
import type { ChatAdapter } from '../../../src/ports/index.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { type CapturedLine, createCapturingLogger } from '../../support/capturing-logger.js';
import { type Harness, startHarness } from '../../support/command-harness.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const TOKEN = 'xoxb-test';
type UnfurlEvent = Extract<SlackAdapterEvent, { type: 'unfurl' }>;

/**
 * Link previews end to end: a signed `link_shared` from the fake Slack reaches the real Slack
 * adapter (Bolt), the real command handler looks the record up in the directory emulator, and the
 * card goes back through the real Web API client as `chat.unfurl`, which the fake checks against
 * the OpenAPI reference and Block Kit's limits.
 */
describe('Slack link previews (link_shared → chat.unfurl)', () => {
  let h: Harness;
  let slack: FakeSlackApi;
  let server: MountServer;
  let adapter: ChatAdapter;
  let lines: CapturedLine[];
  let previews: PreviewEvent[];
  let waiting: ((event: UnfurlEvent) => void)[];
  let post: { slug: string; url: string; name: string };

  beforeAll(async () => {
    h = await startHarness({
      handler: { userRateLimit: { perMinute: 1000 }, onPreview: (event) => previews.push(event) },
    });
    const added = h.emulator.admin.addPost({ name: 'Atlas Maps', tagline: 'Maps for teams' });
    const slug = String(added['slug']);
    post = { slug, url: `${EMULATOR_WEB_URL}/posts/${slug}`, name: 'Atlas Maps' };
  });
  afterAll(async () => {
    await h.close();
  });

  beforeEach(async () => {
    previews = [];
    waiting = [];
    // Each test starts with a cold cache: a minute and a bit later, it has forgotten.
    h.clock.advance(61_000);
    h.emulator.admin.resetQuotas();
    slack = await new FakeSlackApi().start();
    slack.addToken(TOKEN, 'T1');
    server = await startMountServer();
    const logger = createCapturingLogger();
    lines = logger.lines;
    adapter = createSlackAdapter({
      botToken: TOKEN,
      signingSecret: SECRET,
      apiUrl: slack.apiUrl,
      logger,
      onEvent: (event) => {
        if (event.type === 'unfurl') for (const resolve of waiting.splice(0)) resolve(event);
      },
    });
    await adapter.start({ http: server.http, commands: h.handler, logger });
  });

  afterEach(async () => {
    await adapter.stop();
    await server.close();
    await slack.close();
    expect(slack.violations).toEqual([]);
  });

  /** Pastes `urls` in one message in C1 and waits until the bot has handled its link_shared. */
  async function paste(urls: string[], options: { composer?: boolean } = {}) {
    const handled = new Promise<UnfurlEvent>((resolve) => waiting.push(resolve));
    const shared = await slack.unfurls.share(server.url, SECRET, {
      teamId: 'T1',
      channel: 'C1',
      user: 'U1',
      urls,
      ...options,
    });
    expect(shared.response.status).toBe(200);
    return { ...shared, handled: await handled };
  }

  it('unfurls a pasted post link into the card /directory post shows, on the message it was pasted in', async () => {
    const { messageTs, handled } = await paste([post.url]);
    expect(handled).toEqual({ type: 'unfurl', links: 1, unfurled: 1 });
    expect(slack.callsTo('chat.unfurl')).toHaveLength(1);
    const [sent] = slack.unfurls.sent;
    expect(sent?.target).toEqual({ channel: 'C1', ts: messageTs });
    const blocks = sent?.unfurls[post.url]?.blocks;
    expect(blocks?.[0]).toEqual({ type: 'header', text: expect.objectContaining({ text: post.name }) });
    expect(blocks?.at(-1)).toMatchObject({ type: 'actions', elements: [{ text: { text: 'Open' } }] });
    // The same card as the command's answer, which the unfurl's lookup already paid for.
    const before = h.requests();
    const reply = await h.run(`post ${post.slug}`);
    expect(h.requests()).toBe(before);
    expect(blocks).toEqual(renderSlackMessage(reply.messages[0] ?? fail()).blocks);
    expect(previews).toEqual([{ platform: 'slack', result: 'found', cached: false }]);
  });

  it('unfurls several links of one message in one chat.unfurl: a post, a collection, a user, a live event', async () => {
    const collection = h.emulator.admin.addCollection({ name: 'Field Notes' });
    const collectionUrl = String(collection['collection_url']);
    const username = /\/@([^/]+)\/collections\//.exec(collectionUrl)?.[1] ?? fail();
    const userUrl = `${EMULATOR_WEB_URL}/@${username}`;
    const live = h.emulator.admin.scheduleLive({ name: 'Launch AMA' });
    const liveUrl = String(live['url']);

    const { handled } = await paste([post.url, collectionUrl, userUrl, liveUrl]);
    expect(handled).toEqual({ type: 'unfurl', links: 4, unfurled: 4 });
    expect(slack.callsTo('chat.unfurl')).toHaveLength(1);
    const unfurls = slack.unfurls.sent[0]?.unfurls ?? {};
    expect(Object.keys(unfurls).sort()).toEqual([post.url, collectionUrl, userUrl, liveUrl].sort());
    const title = (url: string) => JSON.stringify(unfurls[url]?.blocks?.[0]);
    expect(title(post.url)).toContain('Atlas Maps');
    expect(title(collectionUrl)).toContain('Field Notes');
    expect(title(userUrl)).toContain(username);
    expect(title(liveUrl)).toContain('Launch AMA');
  });

  it('previews at most five links of one message, each link once', async () => {
    const urls = Array.from({ length: 7 }, (_, i) => `${post.url}?ref=${i}`);
    const { handled } = await paste([...urls, urls[0] ?? fail()]);
    expect(handled).toEqual({ type: 'unfurl', links: 5, unfurled: 5 });
    expect(Object.keys(slack.unfurls.sent[0]?.unfurls ?? {})).toEqual(urls.slice(0, 5));
    // Five links to one post: one lookup, the others answered by it.
    expect(previews.filter((p) => !p.cached)).toHaveLength(1);
  });

  it('ignores links to other sites and pages that name no record, without asking the directory', async () => {
    const before = h.requests();
    const { handled } = await paste([
      `https://evil.example/posts/${post.slug}`,
      `https://www.example-directory.test.evil.example/posts/${post.slug}`,
      `${EMULATOR_WEB_URL}/topics/maps`,
      `${EMULATOR_WEB_URL}/`,
    ]);
    expect(handled).toEqual({ type: 'unfurl', links: 4, unfurled: 0 });
    expect(slack.callsTo('chat.unfurl')).toEqual([]);
    expect(h.requests()).toBe(before);
    expect(previews.map((p) => p.result)).toEqual(['other_site', 'other_site', 'not_an_item', 'not_an_item']);
  });

  it('leaves a link to a post that does not exist alone: no unfurl, nothing said to anyone, logged at debug and counted', async () => {
    const missing = `${EMULATOR_WEB_URL}/posts/no-such-post-here`;
    const { handled } = await paste([missing]);
    expect(handled).toEqual({ type: 'unfurl', links: 1, unfurled: 0 });
    // Only the start-up token check: no unfurl, no message, no ephemeral note.
    expect(slack.calls.map((call) => call.method)).toEqual(['auth.test']);
    expect(previews).toEqual([{ platform: 'slack', result: 'not_found', cached: false }]);
    expect(lines).toContainEqual({
      level: 'debug',
      message: 'link not unfurled',
      fields: { url: missing, reason: 'not_found' },
    });
    expect(lines.filter((line) => line.level === 'warn' || line.level === 'error')).toEqual([]);
  });

  it('unfurls only the known links of a message that mixes them', async () => {
    const missing = `${EMULATOR_WEB_URL}/posts/no-such-post-here`;
    const { handled } = await paste([missing, post.url, 'https://evil.example/x']);
    expect(handled).toEqual({ type: 'unfurl', links: 3, unfurled: 1 });
    expect(Object.keys(slack.unfurls.sent[0]?.unfurls ?? {})).toEqual([post.url]);
  });

  it('serves a second paste within the cache TTL from the cache: no directory request', async () => {
    await paste([post.url]);
    const before = h.requests();
    await paste([post.url]);
    expect(h.requests()).toBe(before);
    expect(slack.unfurls.sent).toHaveLength(2);
    expect(slack.unfurls.sent[1]?.unfurls).toEqual(slack.unfurls.sent[0]?.unfurls);
    expect(previews.map((p) => p.cached)).toEqual([false, true]);
    // Past the TTL the card is looked up afresh.
    h.clock.advance(61_000);
    await paste([post.url]);
    expect(h.requests()).toBeGreaterThan(before);
  });

  it('refuses a forged link_shared with 401: nothing looked up, nothing unfurled', async () => {
    const before = h.requests();
    const { response } = await slack.unfurls.share(server.url, 'not-the-signing-secret', {
      teamId: 'T1',
      channel: 'C1',
      user: 'U1',
      urls: [post.url],
    });
    expect(response.status).toBe(401);
    expect(slack.callsTo('chat.unfurl')).toEqual([]);
    expect(previews).toEqual([]);
    expect(h.requests()).toBe(before);
  });

  it('refuses a correctly signed link_shared older than five minutes (a replay) with 401', async () => {
    const before = h.requests();
    const { response } = await slack.unfurls.share(server.url, SECRET, {
      teamId: 'T1',
      channel: 'C1',
      user: 'U1',
      urls: [post.url],
      signedAt: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    expect(response.status).toBe(401);
    expect(slack.callsTo('chat.unfurl')).toEqual([]);
    expect(previews).toEqual([]);
    expect(h.requests()).toBe(before);
  });

  it('escapes hostile text in the card: no mention, broadcast or link can be formed', async () => {
    const hostile = h.emulator.admin.addPost({
      name: 'Ping <!channel> now',
      tagline: 'Hi <@U0ADMIN> and @here, see <https://evil.example|your bank>',
    });
    const url = `${EMULATOR_WEB_URL}/posts/${String(hostile['slug'])}`;
    await paste([url]);
    const sent = JSON.stringify(slack.unfurls.sent[0]?.unfurls[url]);
    expect(sent).toContain('Ping &lt;!channel&gt; now');
    expect(sent).toContain('&lt;@U0ADMIN&gt;');
    expect(sent).toContain('@\u200bhere');
    for (const raw of ['<!channel>', '<@U0ADMIN>', '<https://evil.example', ' @here'])
      expect(sent).not.toContain(raw);
  });

  it('unfurls a link still in the message composer by its unfurl_id and source', async () => {
    const { unfurlId } = await paste([post.url], { composer: true });
    const call = slack.callsTo('chat.unfurl')[0];
    expect(call?.params).toMatchObject({ unfurl_id: unfurlId, source: 'composer' });
    expect(call?.params).not.toHaveProperty('channel');
    expect(slack.unfurls.sent[0]?.target).toEqual({ unfurlId, source: 'composer' });
  });
});

function fail(): never {
  throw new Error('missing test data');
}

describe('the fake chat.unfurl refuses what Slack refuses', () => {
  let slack: FakeSlackApi;
  let server: MountServer;
  let client: webApi.WebClient;
  const URL_PASTED = `${EMULATOR_WEB_URL}/posts/atlas`;
  const card = { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Atlas' } }] };

  beforeEach(async () => {
    slack = await new FakeSlackApi().start();
    slack.addToken(TOKEN, 'T1');
    // Nothing listens: the fake only has to remember the message it announced.
    server = await startMountServer();
    client = new webApi.WebClient(TOKEN, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterEach(async () => {
    await server.close();
    await slack.close();
  });

  const shareOne = async () =>
    (
      await slack.unfurls.share(server.url, SECRET, {
        teamId: 'T1',
        channel: 'C1',
        user: 'U1',
        urls: [URL_PASTED],
      })
    ).messageTs;
  const errorOf = (call: Promise<unknown>) =>
    call.then(
      () => 'ok',
      (error: { data?: { error?: string } }) => error.data?.error,
    );
  const unfurl = (args: Record<string, unknown>) =>
    errorOf(client.apiCall('chat.unfurl', args as Record<string, unknown> & { unfurls: unknown }));

  it('accepts a well-formed unfurl of a shared link', async () => {
    const ts = await shareOne();
    expect(await unfurl({ channel: 'C1', ts, unfurls: { [URL_PASTED]: card } })).toBe('ok');
    expect(slack.violations).toEqual([]);
  });

  it('refuses a request that names no message, or half of one', async () => {
    const ts = await shareOne();
    expect(await unfurl({ channel: 'C1', unfurls: { [URL_PASTED]: card } })).toBe('invalid_arguments');
    expect(await unfurl({ ts, source: 'composer', unfurls: { [URL_PASTED]: card } })).toBe(
      'invalid_arguments',
    );
    expect(await unfurl({ channel: 'C1', ts: '1.000001', unfurls: { [URL_PASTED]: card } })).toBe(
      'cannot_unfurl_url',
    );
    expect(slack.violations).toHaveLength(3);
  });

  it('refuses a link the message did not contain, an empty map, an unknown parameter and broken blocks', async () => {
    const ts = await shareOne();
    expect(await unfurl({ channel: 'C1', ts, unfurls: { 'https://evil.example/': card } })).toBe(
      'cannot_unfurl_url',
    );
    expect(await unfurl({ channel: 'C1', ts, unfurls: {} })).toBe('missing_unfurls');
    expect(await unfurl({ channel: 'C1', ts, link_names: true, unfurls: { [URL_PASTED]: card } })).toBe(
      'invalid_arg_name',
    );
    const tooMany = { blocks: Array.from({ length: 51 }, () => card.blocks[0]) };
    expect(await unfurl({ channel: 'C1', ts, unfurls: { [URL_PASTED]: tooMany } })).toBe('invalid_blocks');
    expect(slack.violations.join('\n')).toContain('no more than 50 items allowed');
    expect(slack.unfurls.sent).toEqual([]);
  });
});
