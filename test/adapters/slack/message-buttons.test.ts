import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSlackAdapter, type SlackAdapterEvent } from '../../../adapters/slack/index.js';
import { withMuteActions } from '../../../src/delivery/mute-actions.js';
import type { ChatAdapter, Message } from '../../../src/ports/index.js';
import type { ReminderRepository } from '../../../src/subscriptions/personal-reminders.js';
import {
  blockActionsBody,
  findButton,
  postBlockAction,
  type RenderedButton,
} from '../../fakes/slack/block-actions.js';
import { FakeSlackApi, type RecordedResponse } from '../../fakes/slack/fake-slack-api.js';
import { signedHeaders } from '../../fakes/slack/signing.js';
import { announcedLiveEvent, postWithComment, startButtonHarness } from '../../support/button-fixtures.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import type { Harness } from '../../support/command-harness.js';
import { type MountServer, startMountServer } from '../../support/mount-server.js';

const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const TOKEN = 'xoxb-buttons';
const CHANNEL = 'C1';

/**
 * Buttons on a delivered Slack message, end to end: the real Slack adapter posts a feed message
 * to the fake Web API, a person presses one of the buttons it rendered (a signed block_actions
 * request to the adapter's receiver), and the real command handler answers against the
 * emulator and a real store, through the response_url.
 */
describe('Slack message buttons', () => {
  let harness: Harness;
  let slack: FakeSlackApi;
  let server: MountServer;
  let adapter: ChatAdapter;
  let events: SlackAdapterEvent[];
  let postId: string;
  let blocks: unknown;
  let message: Message;
  let reminders: ReminderRepository;

  beforeEach(async () => {
    ({ harness, reminders } = await startButtonHarness());
    slack = await new FakeSlackApi().start();
    slack.addToken(TOKEN, 'T1');
    slack.addChannel(CHANNEL);
    slack.addUser('U1');
    slack.addUser('UADMIN', { is_admin: true });
    server = await startMountServer();
    events = [];
    adapter = createSlackAdapter({
      botToken: TOKEN,
      signingSecret: SECRET,
      apiUrl: slack.apiUrl,
      logger: createCapturingLogger(),
      onEvent: (event) => events.push(event),
    });
    await adapter.start({ http: server.http, commands: harness.handler, logger: createCapturingLogger() });

    ({ postId, message } = postWithComment(harness, 'First comment <!channel>'));
    const outcome = await adapter.deliver(
      { platform: 'slack', channelId: CHANNEL, workspaceId: 'T1' },
      message,
      {
        idempotencyKey: 'buttons-1',
      },
    );
    expect(outcome.status).toBe('delivered');
    blocks = slack.callsTo('chat.postMessage')[0]?.params['blocks'];
  });

  afterEach(async () => {
    await adapter.stop();
    await server.close();
    await slack.close();
    await harness.close();
  });

  async function click(
    button: Pick<RenderedButton, 'action_id' | 'text'>,
    userId: string,
    timestamp?: number,
  ): Promise<{ status: number; responseUrl: string }> {
    const responseUrl = slack.responseUrl();
    const res = await postBlockAction(
      server.url,
      SECRET,
      { button, userId, channelId: CHANNEL, teamId: 'T1', responseUrl },
      timestamp,
    );
    // A block_actions ack is an empty 200: the answer follows through the response_url.
    expect(await res.text()).toBe('');
    return { status: res.status, responseUrl };
  }

  const answerTo = (responseUrl: string): Promise<RecordedResponse> =>
    slack.waitForResponse((r) => responseUrl.endsWith(r.path));

  it('renders Comments, Follow comments and Open under a post, with versioned ids and no state', () => {
    const actions = (blocks as { type: string; elements?: unknown[] }[]).filter((b) => b.type === 'actions');
    expect(actions).toEqual([
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Comments', emoji: true },
            action_id: `dirbot:v1:comments:${postId}`,
          },
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Follow comments', emoji: true },
            action_id: `dirbot:v1:follow:${postId}`,
          },
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Open', emoji: true },
            url: `https://directory.example/posts/${postId}`,
            action_id: 'directory_open',
          },
        ],
      },
    ]);
    expect(slack.violations).toEqual([]);
  });

  it('answers Comments with the latest comments, only to the clicker, escaped', async () => {
    const { status, responseUrl } = await click(findButton(blocks, 'Comments'), 'U1');
    expect(status).toBe(200);
    const answer = await answerTo(responseUrl);
    expect(answer.body).toMatchObject({
      response_type: 'ephemeral',
      replace_original: false,
      text: `Latest 1 comment on post ${postId}`,
    });
    expect(JSON.stringify(answer.body['blocks'])).toContain('First comment &lt;!channel&gt;');
    // A lookup needs no users.info call, and answers like the command would (shareable).
    expect(slack.callsTo('users.info')).toEqual([]);
    expect(JSON.stringify(answer.body['blocks'])).toContain(`"value":"comments ${postId}"`);
    expect(events).toContainEqual({ type: 'button', verb: 'comments', failed: false });
    expect(slack.violations).toEqual([]);
  });

  it('follows the post’s comments for a workspace admin, with the command’s own confirmation', async () => {
    const { responseUrl } = await click(findButton(blocks, 'Follow comments'), 'UADMIN');
    const answer = await answerTo(responseUrl);
    const subscriptions = await harness.subscriptions.list();
    expect(subscriptions).toMatchObject([
      { platform: 'slack', channelId: CHANNEL, feed: 'comments', filters: { post: postId } },
    ]);
    const id = subscriptions[0]?.id ?? '';
    // The command's confirmation, answered as the command answers it (only to the person who asked).
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(String(answer.body['text'])).toMatch(
      new RegExp(
        `^Subscribed this channel to .*${postId}.*\\. Id: ${id} \\(to stop: unsubscribe ${id}\\)\\.`,
      ),
    );
    expect(slack.callsTo('users.info').map((c) => c.params['user'])).toEqual(['UADMIN']);
    expect(slack.violations).toEqual([]);
  });

  it('refuses Follow comments ephemerally to someone who may not manage the channel, and changes nothing', async () => {
    const { responseUrl } = await click(findButton(blocks, 'Follow comments'), 'U1');
    const answer = await answerTo(responseUrl);
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(answer.body['text']).toContain("You cannot change this channel's subscriptions.");
    expect(await harness.subscriptions.list()).toEqual([]);
    expect(events).toContainEqual({ type: 'button', verb: 'follow', failed: true });
  });

  it('answers a button of an unknown version as expired, running nothing', async () => {
    const { responseUrl } = await click(
      { action_id: `dirbot:v0:follow:${postId}`, text: { text: 'Follow comments' } },
      'UADMIN',
    );
    const answer = await answerTo(responseUrl);
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(answer.body['text']).toContain('This button has expired');
    expect(harness.events).toEqual([]);
    expect(await harness.subscriptions.list()).toEqual([]);
  });

  it('answers a v1 id that would smuggle arguments as expired', async () => {
    const { responseUrl } = await click(
      { action_id: `dirbot:v1:follow:${postId} --keyword x`, text: { text: 'Follow comments' } },
      'UADMIN',
    );
    expect((await answerTo(responseUrl)).body['text']).toContain('This button has expired');
    expect(harness.events).toEqual([]);
  });

  it('acks the Open link button and runs nothing', async () => {
    const { status } = await click(findButton(blocks, 'Open'), 'U1');
    expect(status).toBe(200);
    expect(harness.events).toEqual([]);
    expect(slack.responses).toEqual([]);
  });

  it.each([
    ['signed with the wrong secret', 'wrong'],
    ['signed more than five minutes ago (a replay)', 'stale'],
    ['tampered with after signing', 'tampered'],
  ] as const)('refuses a click %s with 401 and changes nothing', async (_name, forgery) => {
    const button = findButton(blocks, 'Follow comments');
    const responseUrl = slack.responseUrl();
    const clickData = { button, userId: 'UADMIN', channelId: CHANNEL, teamId: 'T1', responseUrl };
    const now = Math.floor(Date.now() / 1000);
    let res: Response;
    if (forgery === 'tampered') {
      // Signed as a click by U1, sent as one by an admin.
      const body = blockActionsBody({ ...clickData, userId: 'U1' });
      const forged = blockActionsBody(clickData);
      res = await fetch(`${server.url}/slack/events`, {
        method: 'POST',
        body: forged,
        headers: signedHeaders(SECRET, body, now),
      });
    } else {
      res = await postBlockAction(
        server.url,
        forgery === 'wrong' ? 'not-the-secret' : SECRET,
        clickData,
        forgery === 'stale' ? now - 301 : now,
      );
    }
    expect(res.status).toBe(401);
    expect(harness.events).toEqual([]);
    expect(await harness.subscriptions.list()).toEqual([]);
    expect(slack.responses).toEqual([]);
  });

  /** A comments subscription of the channel, and the blocks of a message delivered for it. */
  async function deliveredForSubscription(): Promise<{ id: string; blocks: unknown }> {
    const { subscription } = await harness.subscriptions.add({
      platform: 'slack',
      channelId: CHANNEL,
      workspaceId: 'T1',
      feed: 'comments',
      filters: {},
      createdBy: 'UADMIN',
    });
    // What the dispatcher hands the adapter for this destination.
    await adapter.deliver(
      { platform: 'slack', channelId: CHANNEL, workspaceId: 'T1' },
      withMuteActions(message, [subscription.id]),
      { idempotencyKey: 'buttons-2' },
    );
    return { id: subscription.id, blocks: slack.callsTo('chat.postMessage').at(-1)?.params['blocks'] };
  }

  it('pauses the subscription a message was delivered for when a workspace admin presses Mute', async () => {
    const delivered = await deliveredForSubscription();
    const mute = findButton(delivered.blocks, 'Mute this subscription');
    expect(mute.action_id).toBe(`dirbot:v1:mute:${delivered.id}`);
    const { responseUrl } = await click(mute, 'UADMIN');
    const answer = await answerTo(responseUrl);
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(String(answer.body['text'])).toMatch(new RegExp(`^Paused ${delivered.id}: `));
    expect(await harness.subscriptions.list()).toMatchObject([
      { id: delivered.id, paused: { by: 'UADMIN' } },
    ]);
    expect(slack.violations).toEqual([]);
  });

  it('refuses Mute to someone who may not manage the channel, and the subscription keeps posting', async () => {
    const delivered = await deliveredForSubscription();
    const { responseUrl } = await click(findButton(delivered.blocks, 'Mute this subscription'), 'U1');
    const answer = await answerTo(responseUrl);
    expect(answer.body).toMatchObject({ response_type: 'ephemeral' });
    expect(answer.body['text']).toContain("You cannot change this channel's subscriptions.");
    expect((await harness.subscriptions.list())[0]?.paused).toBeUndefined();
  });

  it('answers Mute on a message whose subscription was deleted: this subscription no longer exists', async () => {
    const delivered = await deliveredForSubscription();
    await harness.subscriptions.remove('slack', CHANNEL, delivered.id);
    const { responseUrl } = await click(findButton(delivered.blocks, 'Mute this subscription'), 'UADMIN');
    const answer = await answerTo(responseUrl);
    expect(answer.body).toMatchObject({
      response_type: 'ephemeral',
      replace_original: false,
      text: 'This subscription no longer exists.',
    });
    expect(await harness.subscriptions.list()).toEqual([]);
  });

  it('sets a personal reminder when someone presses Remind me on a live event, without any permission', async () => {
    const live = announcedLiveEvent(harness);
    const event = live.message;
    await adapter.deliver({ platform: 'slack', channelId: CHANNEL, workspaceId: 'T1' }, event, {
      idempotencyKey: 'buttons-live',
    });
    const liveBlocks = slack.callsTo('chat.postMessage').at(-1)?.params['blocks'];
    const remind = findButton(liveBlocks, 'Remind me');
    expect(remind.action_id).toBe(`dirbot:v1:remind:${live.id}`);
    const { responseUrl } = await click(remind, 'U1');
    const answer = await answerTo(responseUrl);
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(answer.body['error']).toBeUndefined();
    expect(String(answer.body['text'])).toContain('Button AMA');
    expect(await reminders.forPerson('slack', 'U1')).toMatchObject([{ userId: 'U1', eventId: live.id }]);
    expect(slack.violations).toEqual([]);
  });
});
