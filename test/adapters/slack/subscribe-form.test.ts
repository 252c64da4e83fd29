import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapterEvent } from '../../../adapters/slack/index.js';
import type { ChatAdapter } from '../../../src/ports/index.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import type { OpenedView } from '../../fakes/slack/fake-slack-views.js';
import { signedHeaders } from '../../fakes/slack/signing.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { type Harness, useSubscriptionHarness } from '../../support/command-harness.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const TOKEN = 'xoxb-test';

/**
 * `/directory subscribe` as a Slack modal, end to end: the real Slack adapter (Bolt's HTTP
 * receiver) and the real command handler against the emulator, the fake Slack Web API checking
 * views.open and chat.postEphemeral, and signed view_submission payloads as Slack sends them.
 */
describe('the subscribe form on Slack', () => {
  const harness = useSubscriptionHarness();
  let events: SlackAdapterEvent[];
  let h: Harness;
  let slack: FakeSlackApi;
  let adapter: ChatAdapter;
  let server: MountServer;

  beforeEach(async () => {
    h = harness();
    slack = await new FakeSlackApi().start();
    slack.addToken(TOKEN, 'T1');
    for (const channel of ['C1', 'C2']) slack.addChannel(channel);
    // A member and a workspace admin.
    for (const [user, is_admin] of [
      ['U1', false],
      ['UADMIN', true],
    ] as const)
      slack.addUser(user, { is_admin });
    events = [];
    server = await startMountServer();
    adapter = createSlackAdapter({
      // Every submission asks Slack afresh whether the person is an admin.
      adminCacheTtlMs: 0,
      botToken: TOKEN,
      signingSecret: SECRET,
      apiUrl: slack.apiUrl,
      onEvent: (e) => events.push(e),
      logger: createCapturingLogger(),
    });
    await adapter.start({ http: server.http, commands: h.handler, logger: createCapturingLogger() });
  });

  afterEach(async () => {
    await adapter.stop();
    await server.close();
    await slack.close();
  });

  const botUrl = () => `${server.url}/slack/events`;

  async function command(text: string, userId = 'UADMIN', channelId = 'C1'): Promise<Response> {
    const body = new URLSearchParams({
      team_id: 'T1',
      channel_id: channelId,
      user_id: userId,
      user_name: 'alice',
      command: '/directory',
      text,
      api_app_id: 'A1',
      response_url: slack.responseUrl(),
      trigger_id: slack.modals.trigger(userId),
    }).toString();
    return fetch(botUrl(), {
      method: 'POST',
      body,
      headers: signedHeaders(SECRET, body, Math.floor(Date.now() / 1000)),
    });
  }

  async function openForm(userId = 'UADMIN'): Promise<OpenedView> {
    const res = await command('subscribe', userId);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    const opened = slack.modals.opened.at(-1);
    if (opened === undefined) throw new Error('no modal was opened');
    return opened;
  }

  it('opens a modal with the feed and every filter, remembering the channel', async () => {
    const opened = await openForm();
    expect(opened.view).toMatchObject({
      type: 'modal',
      callback_id: 'dirbot:v1:form',
      title: { type: 'plain_text', text: 'Subscribe this channel' },
      submit: { type: 'plain_text', text: 'Subscribe' },
    });
    const blocks = opened.view['blocks'] as {
      block_id: string;
      optional: boolean;
      element: { type: string };
    }[];
    expect(blocks.map((b) => [b.block_id, b.element.type, b.optional])).toEqual([
      ['feed', 'static_select', false],
      ['keyword', 'plain_text_input', true],
      ['exclude', 'plain_text_input', true],
      ['post', 'plain_text_input', true],
      ['backfill', 'plain_text_input', true],
      ['user', 'plain_text_input', true],
      ['min-votes', 'plain_text_input', true],
      ['remind', 'plain_text_input', true],
      ['format', 'static_select', true],
      ['on-removal', 'static_select', true],
      ['digest', 'plain_text_input', true],
      ['top', 'plain_text_input', true],
      ['quiet', 'plain_text_input', true],
      ['tz', 'plain_text_input', true],
      ['video', 'checkboxes', true],
    ]);
    expect(JSON.parse(String(opened.view['private_metadata']))).toEqual({
      command: 'subscribe',
      channelId: 'C1',
      userId: 'UADMIN',
      teamId: 'T1',
      // Where the answer goes if chat.postEphemeral cannot reach the channel.
      responseUrl: expect.stringMatching(/^http/),
    });
    expect(events).toContainEqual({ type: 'form', stage: 'opened', failed: false });
    expect(slack.violations).toEqual([]);
  });

  it('refuses a non-admin before any modal opens, with the typed command refusal', async () => {
    const res = await command('subscribe', 'U1');
    const reply = (await res.json()) as { text: string };
    const typed = (await (await command('subscribe posts', 'U1')).json()) as { text: string };
    expect(reply.text).toBe(typed.text);
    expect(reply.text).toContain("You cannot change this channel's subscriptions.");
    expect(slack.modals.opened).toEqual([]);
  });

  it('subscribes on submit and posts the typed command confirmation and preview privately', async () => {
    h.emulator.admin.addPost({ name: 'Rocket Notes', tagline: 'AI notes for rockets', votesCount: 80 });
    const opened = await openForm();
    const res = await slack.modals.submit(botUrl(), SECRET, opened, {
      feed: 'posts',
      keyword: 'ai, rockets',
      'min-votes': '50',
      format: 'compact',
      video: false,
    });
    expect(res.status).toBe(200);
    // An empty ack closes the modal.
    expect(await res.text()).toBe('');
    const [subscription] = await h.subscriptions.forChannel('slack', 'C1');
    expect(subscription?.filters).toEqual({ keywords: ['ai', 'rockets'], minVotes: 50 });
    expect(subscription?.format).toBe('compact');
    expect(subscription?.createdBy).toBe('UADMIN');
    const posted = await slack.waitForCall((c) => c.method === 'chat.postEphemeral');
    expect(posted.params).toMatchObject({ channel: 'C1', user: 'UADMIN' });

    const typed = (await (
      await command('subscribe posts --keyword "ai, rockets" --min-votes 50 --format compact', 'UADMIN', 'C2')
    ).json()) as { text: string; blocks: unknown[] };
    const [other] = await h.subscriptions.forChannel('slack', 'C2');
    const entry = slack.modals.ephemeral[0];
    expect(entry?.text?.replaceAll(subscription?.id ?? '', 'ID')).toBe(
      typed.text.replaceAll(other?.id ?? '', 'ID'),
    );
    expect(JSON.stringify(entry?.blocks).replaceAll(subscription?.id ?? '', 'ID')).toBe(
      JSON.stringify(typed.blocks).replaceAll(other?.id ?? '', 'ID'),
    );
    expect(JSON.stringify(entry?.blocks)).toContain('Rocket Notes');
    expect(events).toContainEqual({ type: 'form', stage: 'submitted', deferred: false, failed: false });
    expect(slack.violations).toEqual([]);
  });

  it("answers through the command's response_url when chat.postEphemeral cannot reach the channel", async () => {
    const opened = await openForm();
    // A private channel or DM the bot is not in: Slack refuses the ephemeral post.
    slack.refuseNext('chat.postEphemeral', 'channel_not_found');
    const res = await slack.modals.submit(botUrl(), SECRET, opened, { feed: 'posts', user: '  alice  ' });
    expect(res.status).toBe(200);
    const answer = await slack.waitForResponse();
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(String(answer.body['text'])).toContain('Subscribed this channel to posts');
    // Spaces around a typed value are trimmed as the typed command's tokenizer drops them.
    const [subscription] = await h.subscriptions.forChannel('slack', 'C1');
    expect(subscription?.filters).toEqual({ user: 'alice' });
  });

  it('closes the modal in time when the core is slow, and posts the answer when it comes', async () => {
    const opened = await openForm();
    // The preview's lookup outlasts the adapter's 2 s ack budget.
    h.emulator.admin.injectFault({ route: '/v2/api/graphql', count: 1, kind: 'delay', delayMs: 2_300 });
    const res = await slack.modals.submit(botUrl(), SECRET, opened, { feed: 'posts' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    const posted = await slack.waitForCall((c) => c.method === 'chat.postEphemeral');
    expect(String(posted.params['text'])).toContain('Subscribed this channel to posts');
    expect(await h.subscriptions.forChannel('slack', 'C1')).toHaveLength(1);
    expect(events).toContainEqual({ type: 'form', stage: 'submitted', deferred: true, failed: false });
  });

  it.each([
    [
      'a negative vote count',
      { feed: 'posts', 'min-votes': '-1' },
      'min-votes',
      'subscribe posts --min-votes -1',
    ],
    ['a filter of another feed', { feed: 'comments', video: true }, 'video', 'subscribe comments --video'],
    [
      'a backfill out of range',
      { feed: 'posts', backfill: '50' },
      'backfill',
      'subscribe posts --backfill 50',
    ],
    [
      'a malformed username',
      { feed: 'posts', user: 'jane doe' },
      'user',
      'subscribe posts --user "jane doe"',
    ],
  ] as const)(
    'shows %s under its input, in the typed command words, and keeps the modal open',
    async (_name, values, block, text) => {
      const opened = await openForm();
      const res = await slack.modals.submit(botUrl(), SECRET, opened, values);
      const answer = (await res.json()) as { response_action: string; errors: Record<string, string> };
      const typed = (await (await command(text)).json()) as { text: string };
      expect(answer).toEqual({ response_action: 'errors', errors: { [block]: typed.text } });
      expect(await h.subscriptions.list()).toEqual([]);
      expect(slack.modals.ephemeral).toEqual([]);
    },
  );

  it('decides permission afresh at submit: an admin demoted meanwhile is refused, nothing changes', async () => {
    const opened = await openForm();
    slack.addUser('UADMIN');
    const res = await slack.modals.submit(botUrl(), SECRET, opened, { feed: 'posts' });
    const answer = (await res.json()) as { response_action: string; errors: Record<string, string> };
    expect(answer.response_action).toBe('errors');
    expect(answer.errors['feed']).toContain("You cannot change this channel's subscriptions.");
    expect(await h.subscriptions.list()).toEqual([]);
  });

  it('refuses a modal submitted by someone other than who opened it', async () => {
    const opened = await openForm();
    slack.addUser('UOTHERADMIN', { is_admin: true });
    const res = await slack.modals.submit(
      botUrl(),
      SECRET,
      opened,
      { feed: 'posts' },
      { userId: 'UOTHERADMIN' },
    );
    const answer = (await res.json()) as { errors: Record<string, string> };
    expect(answer.errors['feed']).toBe('This form has expired. Close it and run the command again.');
    expect(await h.subscriptions.list()).toEqual([]);
  });

  it('answers a modal of another form version that it expired, changing nothing', async () => {
    const opened = await openForm();
    const res = await slack.modals.submit(
      botUrl(),
      SECRET,
      opened,
      { feed: 'posts' },
      {
        edit: (payload) => {
          (payload['view'] as { callback_id: string }).callback_id = 'dirbot:v0:form';
        },
      },
    );
    const answer = (await res.json()) as { errors: Record<string, string> };
    expect(answer.errors['feed']).toBe('This form has expired. Close it and run the command again.');
    expect(await h.subscriptions.list()).toEqual([]);
  });

  it.each<[string, { secret?: string; signedAt?: number }]>([
    ['signed with another secret', { secret: 'not-the-secret' }],
    ['signed more than five minutes ago (a replay)', { signedAt: Math.floor(Date.now() / 1000) - 301 }],
  ])('refuses a view_submission %s with 401 and changes nothing', async (_name, forged) => {
    const opened = await openForm();
    const res = await slack.modals.submit(
      botUrl(),
      forged.secret ?? SECRET,
      opened,
      { feed: 'posts' },
      {
        ...(forged.signedAt === undefined ? {} : { signedAt: forged.signedAt }),
      },
    );
    expect(res.status).toBe(401);
    expect(await h.subscriptions.list()).toEqual([]);
  });

  it('refuses a view_submission whose body was changed after signing', async () => {
    const opened = await openForm();
    const body = new URLSearchParams({
      payload: JSON.stringify({
        type: 'view_submission',
        team: { id: 'T1' },
        user: { id: 'UADMIN' },
        view: { ...opened.view, id: opened.id, state: { values: {} } },
      }),
    }).toString();
    const headers = signedHeaders(SECRET, body, Math.floor(Date.now() / 1000));
    const res = await fetch(botUrl(), { method: 'POST', body: body.replace('C1', 'C9'), headers });
    expect(res.status).toBe(401);
    expect(await h.subscriptions.list()).toEqual([]);
  });

  it('says the form could not open when Slack refuses the trigger, instead of failing silently', async () => {
    const body = new URLSearchParams({
      team_id: 'T1',
      channel_id: 'C1',
      user_id: 'UADMIN',
      user_name: 'alice',
      command: '/directory',
      text: 'subscribe',
      response_url: slack.responseUrl(),
      trigger_id: 'expired.or.unknown',
    }).toString();
    const res = await fetch(botUrl(), {
      method: 'POST',
      body,
      headers: signedHeaders(SECRET, body, Math.floor(Date.now() / 1000)),
    });
    const reply = (await res.json()) as { text: string };
    expect(reply.text).toContain('The subscribe form could not be opened');
    expect(events).toContainEqual({ type: 'form', stage: 'opened', failed: true });
  });
});
