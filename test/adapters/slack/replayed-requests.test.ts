import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapterEvent } from '../../../adapters/slack/index.js';
import { withMuteActions } from '../../../src/delivery/mute-actions.js';
import { composePostMessage } from '../../../src/messages/index.js';
import type { ChatAdapter } from '../../../src/ports/index.js';
import { leaseClaims } from '../../../src/store/leases.js';
import { blockActionsBody, findButton } from '../../fakes/slack/block-actions.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { signedHeaders } from '../../fakes/slack/signing.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { type Harness, startHarness } from '../../support/command-harness.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const TOKEN = 'xoxb-replays';
const CHANNEL = 'C1';

/** One signed request, kept so the very same bytes can be sent again (what a replay is). */
interface SignedRequest {
  body: string;
  headers: Record<string, string>;
}

const signedNow = (body: string): SignedRequest => ({
  body,
  headers: signedHeaders(SECRET, body, Math.floor(Date.now() / 1000)),
});

/**
 * A copy of a signed Slack request re-sent inside the five-minute signature window passes Bolt's
 * checks; the bot must still run each command, click and submission once. The real adapter (Bolt's
 * HTTP receiver), the real command handler on a SQLite store, the fake Slack Web API.
 */
describe('Slack requests sent twice', () => {
  let harness: Harness;
  let slack: FakeSlackApi;
  const servers: MountServer[] = [];
  const adapters: ChatAdapter[] = [];
  let events: SlackAdapterEvent[];

  /** A bot instance on its own port, keeping replay keys in the shared store. */
  async function startInstance(): Promise<string> {
    const server = await startMountServer();
    servers.push(server);
    const adapter = createSlackAdapter({
      botToken: TOKEN,
      signingSecret: SECRET,
      apiUrl: slack.apiUrl,
      replayClaims: leaseClaims(harness.store.leases),
      logger: createCapturingLogger(),
      onEvent: (event) => events.push(event),
    });
    adapters.push(adapter);
    await adapter.start({ http: server.http, commands: harness.handler, logger: createCapturingLogger() });
    return `${server.url}/slack/events`;
  }

  beforeEach(async () => {
    harness = await startHarness();
    slack = await new FakeSlackApi().start();
    slack.addToken(TOKEN, 'T1');
    slack.addChannel(CHANNEL);
    slack.addUser('UADMIN', { is_admin: true });
    events = [];
  });

  afterEach(async () => {
    for (const adapter of adapters.splice(0)) await adapter.stop();
    for (const server of servers.splice(0)) await server.close();
    await slack.close();
    await harness.close();
  });

  const send = (url: string, request: SignedRequest) =>
    fetch(url, { method: 'POST', body: request.body, headers: request.headers });

  /** `/directory <text>` by a workspace admin, signed now, with a trigger views.open honours. */
  const slashCommand = (text: string): SignedRequest =>
    signedNow(
      new URLSearchParams({
        team_id: 'T1',
        channel_id: CHANNEL,
        user_id: 'UADMIN',
        user_name: 'admin',
        command: '/directory',
        text,
        api_app_id: 'A1',
        response_url: slack.responseUrl(),
        trigger_id: slack.modals.trigger('UADMIN'),
      }).toString(),
    );

  /** A workspace admin's click on the Mute button of a message delivered for a new subscription. */
  async function muteClick(): Promise<{ subscriptionId: string; click: SignedRequest; responseUrl: string }> {
    const { subscription } = await harness.subscriptions.add({
      platform: 'slack',
      channelId: CHANNEL,
      workspaceId: 'T1',
      feed: 'posts',
      filters: {},
      createdBy: 'UADMIN',
    });
    const message = composePostMessage({
      id: '7',
      name: 'Atlas',
      url: 'https://d.example/posts/7',
      makers: [],
      topics: [],
    });
    await adapters[0]?.deliver(
      { platform: 'slack', channelId: CHANNEL, workspaceId: 'T1' },
      withMuteActions(message, [subscription.id]),
      { idempotencyKey: 'replay-1' },
    );
    const blocks = slack.callsTo('chat.postMessage').at(-1)?.params['blocks'];
    const responseUrl = slack.responseUrl();
    const body = blockActionsBody({
      button: findButton(blocks, 'Mute this subscription'),
      userId: 'UADMIN',
      channelId: CHANNEL,
      teamId: 'T1',
      responseUrl,
    });
    return { subscriptionId: subscription.id, click: signedNow(body), responseUrl };
  }

  it('pauses once when the same signed Mute click arrives again, and answers the copy with an empty 200', async () => {
    const url = await startInstance();
    const { subscriptionId, click, responseUrl } = await muteClick();
    const first = await send(url, click);
    expect([first.status, await first.text()]).toEqual([200, '']);
    const answer = await slack.waitForResponse((r) => responseUrl.endsWith(r.path));
    expect(String(answer.body['text'])).toMatch(new RegExp(`^Paused ${subscriptionId}: `));
    const pausedAt = (await harness.subscriptions.list())[0]?.paused;
    expect(pausedAt).toMatchObject({ by: 'UADMIN' });

    const copy = await send(url, click);
    expect([copy.status, await copy.text()]).toEqual([200, '']);
    expect(harness.events.filter((e) => e.command === 'pause')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'button')).toHaveLength(1);
    expect(events).toContainEqual({ type: 'replayed', kind: 'button' });
    // Still paused by the first click, and nobody was answered twice.
    expect((await harness.subscriptions.list())[0]?.paused).toEqual(pausedAt);
    expect(slack.responses.filter((r) => responseUrl.endsWith(r.path))).toHaveLength(1);
  });

  it('runs a copy of a click sent to another instance sharing the store once, too', async () => {
    const first = await startInstance();
    const second = await startInstance();
    const { click } = await muteClick();
    expect((await send(first, click)).status).toBe(200);
    expect((await send(second, click)).status).toBe(200);
    await slack.waitForResponse(() => true);
    expect(harness.events.filter((e) => e.command === 'pause')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'replayed')).toEqual([{ type: 'replayed', kind: 'button' }]);
  });

  it('runs a click once when copies reach two instances at the same moment', async () => {
    const instances = [await startInstance(), await startInstance()];
    const { click } = await muteClick();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => send(instances[i % 2]!, click)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    await slack.waitForResponse(() => true);
    expect(harness.events.filter((e) => e.command === 'pause')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'replayed')).toHaveLength(5);
  });

  it('subscribes once when the same signed slash command arrives again', async () => {
    const url = await startInstance();
    const command = slashCommand('subscribe posts');
    const first = await send(url, command);
    expect(((await first.json()) as { text: string }).text).toContain('Subscribed');
    const copy = await send(url, command);
    expect([copy.status, await copy.text()]).toEqual([200, '']);
    expect(await harness.subscriptions.list()).toHaveLength(1);
    expect(events).toContainEqual({ type: 'replayed', kind: 'command' });
  });

  it('subscribes once when the same signed form submission arrives again', async () => {
    const url = await startInstance();
    const opener = slashCommand('subscribe');
    expect(await (await send(url, opener)).text()).toBe('');
    const opened = slack.modals.opened.at(-1);
    if (opened === undefined) throw new Error('no modal was opened');
    const submission = slack.modals.submission(SECRET, opened, { feed: 'posts' });
    expect(await (await send(url, submission)).text()).toBe('');
    const copy = await send(url, submission);
    expect([copy.status, await copy.text()]).toEqual([200, '']);
    expect(await harness.subscriptions.list()).toHaveLength(1);
    expect(slack.modals.ephemeral).toHaveLength(1);
    expect(events.filter((e) => e.type === 'form' && e.stage === 'submitted')).toHaveLength(1);
    expect(events).toContainEqual({ type: 'replayed', kind: 'form' });
  });
});
