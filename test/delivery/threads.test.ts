import Keyv from 'keyv';
import { afterEach, describe, expect, it } from 'vitest';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { DeliveredLedger } from '../../src/delivery/delivered-ledger.js';
import { Dispatcher } from '../../src/delivery/dispatch/dispatcher.js';
import { Outbox, type OutboxEntry } from '../../src/delivery/outbox.js';
import { systemClock } from '../../src/ports/clock.js';
import type { ChatAdapter } from '../../src/ports/index.js';
import { SubscriptionRepository } from '../../src/subscriptions/subscription-repository.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { createCapturingLogger } from '../support/capturing-logger.js';
import { deliveryAdapter } from '../support/discord-delivery.js';
import { freeLeases } from '../support/free-leases.js';
import { eventually } from '../support/polling.js';

/**
 * Comments threaded under their post's message, through the real dispatcher and the real Slack
 * and Discord adapters against the fake platforms: what a channel ends up showing.
 */

const SLACK_CHANNEL = 'C0THREADS';
const DISCORD_CHANNEL = '300000000000000001';

function post(platform: string, channelId: string, id: string): OutboxEntry {
  return entry(platform, channelId, `posts:new:${id}`, `Post ${id}`);
}

function comment(
  platform: string,
  channelId: string,
  id: string,
  postId: string,
  extra: Partial<OutboxEntry> = {},
): OutboxEntry {
  return {
    ...entry(platform, channelId, `comments:new:${id}`, `Comment ${id}`),
    thread: { parentKey: `posts:new:${postId}`, title: `Post ${postId}` },
    ...extra,
  };
}

/** A post and comments on it, in that order. */
function conversation(platform: string, channelId: string, postId: string, ...commentIds: string[]) {
  return [
    post(platform, channelId, postId),
    ...commentIds.map((id) => comment(platform, channelId, id, postId)),
  ];
}

/** A comments subscription of the channel, whose id the thread problems are noted under. */
async function subscribeComments(subscriptions: SubscriptionRepository, platform: string, channelId: string) {
  const { subscription } = await subscriptions.add({
    platform,
    channelId,
    feed: 'comments',
    filters: {},
    createdBy: 't',
  });
  return subscription;
}

function entry(platform: string, channelId: string, itemKey: string, title: string): OutboxEntry {
  return {
    destination: { platform, channelId },
    destinationKey: `${platform}:${channelId}`,
    itemKey,
    message: { kind: itemKey.startsWith('posts') ? 'post' : 'comment', title, text: title, fallback: title },
    subscriptionIds: ['s1'],
    enqueuedAt: 0,
    attempts: 0,
    notBefore: 0,
  };
}

/** The key of a digest's part in the tests' channel. */
const digestKey = (part: number) => `digest:s1:2026-11-23T09:00:00.000Z:${part}`;

/**
 * A digest of `parts` parts as a release queues it in a channel that keeps replies in threads:
 * the first top-level, the others under it, each carrying the first as it reads without them.
 */
function digest(platform: string, channelId: string, parts: number, subscriptionIds = ['s1']): OutboxEntry[] {
  const message = (title: string, text?: string) => ({
    kind: 'digest' as const,
    title,
    ...(text === undefined ? {} : { text }),
    fallback: title,
  });
  const head = {
    ...entry(platform, channelId, digestKey(1), 'Digest'),
    message: message('Digest'),
    subscriptionIds,
  };
  const parentInstead = message('Digest', 'And 40 more comments: see them with /directory digest s1 2.');
  return [
    head,
    ...Array.from({ length: parts - 1 }, (_, i) => ({
      ...entry(platform, channelId, digestKey(i + 2), 'Digest'),
      message: message(`Digest (${i + 2}/${parts})`),
      subscriptionIds,
      thread: { parentKey: digestKey(1), title: 'Digest', parentInstead },
    })),
  ];
}

/** The pipeline's store and dispatcher for one platform adapter; `restart` is a new process on the same store. */
function pipeline(adapter: ChatAdapter, keyv = new Keyv()) {
  const outbox = new Outbox({ keyv, directoryId: 'test' });
  const ledger = new DeliveredLedger({ keyv, ttlMs: 60_000, directoryId: 'test' });
  const subscriptions = new SubscriptionRepository({ keyv, leases: freeLeases, clock: systemClock });
  const dispatcher = new Dispatcher({
    outbox,
    ledger,
    subscriptions,
    adapters: new Map([[adapter.platform, adapter]]),
    clock: systemClock,
  });
  dispatcher.start();
  const send = async (...entries: OutboxEntry[]) => {
    // One at a time, in order: a comment queued after its post is delivered after it.
    for (const one of entries) {
      await outbox.enqueue([one]);
      dispatcher.wake();
      await dispatcher.drained(5);
    }
  };
  return { keyv, outbox, ledger, subscriptions, dispatcher, send };
}

describe('threads on Slack', () => {
  let slack: FakeSlackApi | undefined;
  afterEach(async () => {
    await slack?.close();
  });

  async function slackPipeline() {
    slack = await new FakeSlackApi({ burst: 50 }).start();
    slack.addToken('xoxb-threads', 'T1');
    slack.addChannel(SLACK_CHANNEL);
    slack.addChannel('C0OTHER');
    return { fake: slack, ...pipeline(slackAdapter(slack)) };
  }

  function slackAdapter(fake: FakeSlackApi) {
    return createSlackAdapter({
      botToken: 'xoxb-threads',
      signingSecret: 'secret',
      apiUrl: fake.apiUrl,
      logger: createCapturingLogger(),
    });
  }

  it("puts a post's comments under its message (thread_ts), a reply to a comment too, and the channel shows only the post", async () => {
    const { fake, ledger, dispatcher, send } = await slackPipeline();
    // 71 replies to comment 70: on the same post, so the same thread (Slack threads are one level).
    await send(...conversation('slack', SLACK_CHANNEL, '7', '70', '71'));
    await dispatcher.stop();
    const parent = await ledger.reference(`slack:${SLACK_CHANNEL}`, 'posts:new:7');
    expect(parent).toBeDefined();
    expect(fake.threads.topLevel(SLACK_CHANNEL).map((m) => m.text)).toEqual(['Post 7']);
    expect(fake.threads.repliesTo(SLACK_CHANNEL, parent!.messageId).map((m) => m.text)).toEqual([
      'Comment 70',
      'Comment 71',
    ]);
    expect(fake.violations).toEqual([]);
  });

  it('posts a comment top-level when its post never reached the channel, as before threads', async () => {
    const { fake, dispatcher, send } = await slackPipeline();
    await send(post('slack', 'C0OTHER', '8'), comment('slack', SLACK_CHANNEL, '80', '8'));
    await dispatcher.stop();
    expect(fake.threads.topLevel(SLACK_CHANNEL).map((m) => m.text)).toEqual(['Comment 80']);
    expect(fake.threads.replies.size).toBe(0);
  });

  it('threads a comment queued before its post once the post is delivered first (the parent is looked up at delivery)', async () => {
    const { fake, outbox, dispatcher, ledger } = await slackPipeline();
    await dispatcher.stop();
    // Both queued before either is delivered: the lookup happens when the comment is sent.
    await outbox.enqueue([post('slack', SLACK_CHANNEL, '9'), comment('slack', SLACK_CHANNEL, '90', '9')]);
    dispatcher.start();
    await dispatcher.drained(5);
    await dispatcher.stop();
    const parent = await ledger.reference(`slack:${SLACK_CHANNEL}`, 'posts:new:9');
    expect(fake.threads.repliesTo(SLACK_CHANNEL, parent!.messageId).map((m) => m.text)).toEqual([
      'Comment 90',
    ]);
  });

  it('with --broadcast sends reply_broadcast, so the reply shows in the channel too', async () => {
    const { fake, ledger, dispatcher, send } = await slackPipeline();
    await send(
      post('slack', SLACK_CHANNEL, '10'),
      comment('slack', SLACK_CHANNEL, '100', '10', {
        thread: { parentKey: 'posts:new:10', broadcast: true },
      }),
    );
    await dispatcher.stop();
    const parent = await ledger.reference(`slack:${SLACK_CHANNEL}`, 'posts:new:10');
    expect(fake.threads.repliesTo(SLACK_CHANNEL, parent!.messageId)).toMatchObject([
      { text: 'Comment 100', broadcast: true },
    ]);
    expect(fake.threads.topLevel(SLACK_CHANNEL).map((m) => m.text)).toEqual(['Post 10', 'Comment 100']);
  });

  it('posts top-level with a note when Slack refuses the thread, and /directory status can say why', async () => {
    const { fake, subscriptions, dispatcher, send } = await slackPipeline();
    const subscription = await subscribeComments(subscriptions, 'slack', SLACK_CHANNEL);
    await send(post('slack', SLACK_CHANNEL, '11'));
    fake.refuseNext('chat.postMessage', 'thread_not_found', 1, SLACK_CHANNEL);
    await send(comment('slack', SLACK_CHANNEL, '110', '11', { subscriptionIds: [subscription.id] }));
    const [noted] = await subscriptions.forChannel('slack', SLACK_CHANNEL);
    expect(noted?.threadProblem).toMatchObject({ code: 'thread_not_found' });
    // Not lost and not paused: the comment is in the channel, saying why it is not in the thread.
    expect(noted?.paused).toBeUndefined();
    const last = fake.callsTo('chat.postMessage').at(-1);
    expect(last?.params['thread_ts']).toBeUndefined();
    expect(JSON.stringify(last?.params['blocks'])).toContain('its thread is unavailable (thread_not_found)');
    // The next reply goes through the thread, and the problem is cleared.
    await send(comment('slack', SLACK_CHANNEL, '111', '11', { subscriptionIds: [subscription.id] }));
    await dispatcher.stop();
    // Cleared after the reply is recorded, in the background.
    await eventually(
      async () => (await subscriptions.forChannel('slack', SLACK_CHANNEL))[0]?.threadProblem === undefined,
      5_000,
      'the thread problem cleared',
    );
  });

  it("posts a digest's later parts as replies to its first (thread_ts); when Slack refuses one, edits the first instead", async () => {
    const { fake, ledger, dispatcher, send } = await slackPipeline();
    await send(...digest('slack', SLACK_CHANNEL, 3));
    const head = await ledger.reference(`slack:${SLACK_CHANNEL}`, digestKey(1));
    expect(fake.threads.topLevel(SLACK_CHANNEL).map((m) => m.text)).toEqual(['Digest']);
    expect(fake.threads.repliesTo(SLACK_CHANNEL, head!.messageId).map((m) => m.text)).toEqual([
      'Digest (2/3)',
      'Digest (3/3)',
    ]);
    // The next digest: its thread is refused (the first part deleted meanwhile, say).
    const next = digest('slack', SLACK_CHANNEL, 2).map((e) => ({
      ...e,
      itemKey: e.itemKey.replace('09:00', '10:00'),
    }));
    next[1]!.thread = { ...next[1]!.thread!, parentKey: next[0]!.itemKey };
    await send(next[0]!);
    fake.refuseNext('chat.postMessage', 'thread_not_found', 1, SLACK_CHANNEL);
    await send(next[1]!);
    await dispatcher.stop();
    expect(fake.threads.topLevel(SLACK_CHANNEL).map((m) => m.text)).toEqual(['Digest', 'Digest']);
    const update = fake.callsTo('chat.update').at(-1);
    expect(JSON.stringify(update?.params['blocks'])).toContain('And 40 more comments: see them with');
    expect(fake.violations).toEqual([]);
  });

  it('clears a thread problem another instance noted once a reply goes through the thread here', async () => {
    const first = await slackPipeline();
    const subscription = await subscribeComments(first.subscriptions, 'slack', SLACK_CHANNEL);
    const ids = { subscriptionIds: [subscription.id] };
    await first.send(post('slack', SLACK_CHANNEL, '13'));
    first.fake.refuseNext('chat.postMessage', 'thread_not_found', 1, SLACK_CHANNEL);
    await first.send(comment('slack', SLACK_CHANNEL, '130', '13', ids));
    await first.dispatcher.stop();
    expect((await first.subscriptions.forChannel('slack', SLACK_CHANNEL))[0]?.threadProblem).toMatchObject({
      code: 'thread_not_found',
    });

    // The poller moved to another instance on the same store; its first threaded reply succeeds.
    const second = pipeline(slackAdapter(first.fake), first.keyv);
    await second.send(comment('slack', SLACK_CHANNEL, '131', '13', ids));
    await second.dispatcher.stop();
    const parent = await second.ledger.reference(`slack:${SLACK_CHANNEL}`, 'posts:new:13');
    expect(first.fake.threads.repliesTo(SLACK_CHANNEL, parent!.messageId).map((m) => m.text)).toEqual([
      'Comment 131',
    ]);
    for (const instance of [first, second])
      await eventually(
        async () =>
          (await instance.subscriptions.forChannel('slack', SLACK_CHANNEL))[0]?.threadProblem === undefined,
        5_000,
        'the thread problem cleared for every instance',
      );
  });

  it('posts a reply once when clearing the noted thread problem fails (the subscriptions lock busy)', async () => {
    const { fake, subscriptions, dispatcher, send } = await slackPipeline();
    const subscription = await subscribeComments(subscriptions, 'slack', SLACK_CHANNEL);
    await send(post('slack', SLACK_CHANNEL, '12'));
    fake.refuseNext('chat.postMessage', 'thread_not_found', 1, SLACK_CHANNEL);
    await send(comment('slack', SLACK_CHANNEL, '120', '12', { subscriptionIds: [subscription.id] }));
    subscriptions.noteThreadProblem = async () => {
      throw new Error('could not lock the subscriptions within 3 seconds');
    };
    await send(comment('slack', SLACK_CHANNEL, '121', '12', { subscriptionIds: [subscription.id] }));
    await dispatcher.stop();
    const replies = fake.callsTo('chat.postMessage').filter((call) => call.params['text'] === 'Comment 121');
    expect(replies).toHaveLength(1);
    expect(replies[0]?.params['thread_ts']).toBeDefined();
  });
});

describe('threads on Discord', () => {
  let rest: FakeDiscordRest | undefined;
  let adapter: ChatAdapter | undefined;
  afterEach(async () => {
    await adapter?.stop();
    await rest?.close();
    rest = undefined;
  });

  async function discordPipeline(keyv?: Keyv) {
    rest ??= new FakeDiscordRest({ token: 'fake-bot-token' });
    if (keyv === undefined) {
      await rest.listen();
      rest.addChannel(DISCORD_CHANNEL);
    }
    adapter = deliveryAdapter(rest.url, () => {});
    return { fake: rest, ...pipeline(adapter, keyv) };
  }

  it("starts one thread from the post's message and posts every comment on the post in it", async () => {
    const { fake, ledger, dispatcher, send } = await discordPipeline();
    await send(...conversation('discord', DISCORD_CHANNEL, '7', '70', '71'));
    await dispatcher.stop();
    const parent = await ledger.reference(`discord:${DISCORD_CHANNEL}`, 'posts:new:7');
    const threads = fake.threads.of(DISCORD_CHANNEL);
    expect(threads).toHaveLength(1);
    expect(threads[0]).toMatchObject({ id: parent?.messageId, name: 'Post 7' });
    // The thread id is kept with the post's delivery, so no later reply starts another.
    expect(parent?.threadId).toBe(threads[0]?.id);
    expect(fake.callsTo('POST', '/channels/:id/messages/:id/threads')).toHaveLength(1);
    const inThread = fake.messages.get(threads[0]!.id) ?? [];
    expect(inThread.map((m) => (m.body['embeds'] as { title: string }[])[0]?.title)).toEqual([
      'Comment 70',
      'Comment 71',
    ]);
    expect(fake.messages.get(DISCORD_CHANNEL)).toHaveLength(1);
    expect(fake.problems).toEqual([]);
  });

  it('never starts a second thread when the thread id was not recorded (killed after starting it): 160004 is the same thread', async () => {
    const { fake, ledger, keyv, dispatcher, send } = await discordPipeline();
    await send(post('discord', DISCORD_CHANNEL, '8'), comment('discord', DISCORD_CHANNEL, '80', '8'));
    await dispatcher.stop();
    // As if the process died between Discord starting the thread and the ledger write.
    const parent = await ledger.reference(`discord:${DISCORD_CHANNEL}`, 'posts:new:8');
    await ledger.markDelivered(`discord:${DISCORD_CHANNEL}`, 'posts:new:8', {
      messageId: parent!.messageId,
      postedAt: parent!.postedAt,
    });
    await adapter?.stop();
    const restarted = await discordPipeline(keyv);
    await restarted.send(comment('discord', DISCORD_CHANNEL, '81', '8'));
    await restarted.dispatcher.stop();
    const starts = fake.callsTo('POST', '/channels/:id/messages/:id/threads');
    expect(starts.map((c) => c.status)).toEqual([201, 400]);
    expect(fake.threads.of(DISCORD_CHANNEL)).toHaveLength(1);
    expect(fake.messages.get(parent!.messageId)).toHaveLength(2);
    expect((await restarted.ledger.reference(`discord:${DISCORD_CHANNEL}`, 'posts:new:8'))?.threadId).toBe(
      parent!.messageId,
    );
  });

  it('unarchives an archived thread and posts in it; a locked one gets the comment top-level with a note', async () => {
    const { fake, ledger, subscriptions, dispatcher, send } = await discordPipeline();
    const subscription = await subscribeComments(subscriptions, 'discord', DISCORD_CHANNEL);
    const ids = { subscriptionIds: [subscription.id] };
    await send(post('discord', DISCORD_CHANNEL, '9'), comment('discord', DISCORD_CHANNEL, '90', '9', ids));
    const threadId = (await ledger.reference(`discord:${DISCORD_CHANNEL}`, 'posts:new:9'))!.threadId!;
    fake.threads.archive(threadId);
    await send(comment('discord', DISCORD_CHANNEL, '91', '9', ids));
    expect(fake.callsTo('PATCH', '/channels/:id').map((c) => c.body)).toEqual([{ archived: false }]);
    expect(fake.messages.get(threadId)).toHaveLength(2);

    fake.threads.archive(threadId, true);
    await send(comment('discord', DISCORD_CHANNEL, '92', '9', ids));
    await dispatcher.stop();
    const channel = fake.messages.get(DISCORD_CHANNEL) ?? [];
    expect(channel).toHaveLength(2);
    expect(JSON.stringify(channel[1]?.body)).toContain('its thread is unavailable (archived_thread)');
    const [noted] = await subscriptions.forChannel('discord', DISCORD_CHANNEL);
    expect(noted).toMatchObject({ threadProblem: { code: 'archived_thread' } });
    expect(noted?.paused).toBeUndefined();
  });

  it('without Create Public Threads or Send Messages in Threads the comments still arrive, top-level, and the subscription says why', async () => {
    const { fake, keyv, subscriptions, dispatcher, send } = await discordPipeline();
    const subscription = await subscribeComments(subscriptions, 'discord', DISCORD_CHANNEL);
    const ids = { subscriptionIds: [subscription.id] };
    fake.threads.noCreate.add(DISCORD_CHANNEL);
    await send(post('discord', DISCORD_CHANNEL, '10'), comment('discord', DISCORD_CHANNEL, '100', '10', ids));
    let [noted] = await subscriptions.forChannel('discord', DISCORD_CHANNEL);
    expect(noted?.threadProblem?.code).toBe('cannot_create_threads');
    expect(noted?.threadProblem?.reason).toContain('Create Public Threads');
    // The refusal is remembered for the channel: the next comment is not another refused 403.
    await send(comment('discord', DISCORD_CHANNEL, '102', '10', ids));
    await dispatcher.stop();
    const starts = () => fake.callsTo('POST', '/channels/:id/messages/:id/threads').map((c) => c.status);
    expect(starts()).toEqual([403]);

    // Granted since, and the bot restarted (or an hour passed): it asks again.
    fake.threads.noCreate.delete(DISCORD_CHANNEL);
    fake.threads.noSendInThreads.add(DISCORD_CHANNEL);
    await adapter?.stop();
    const restarted = await discordPipeline(keyv);
    await restarted.send(comment('discord', DISCORD_CHANNEL, '101', '10', ids));
    await restarted.dispatcher.stop();
    expect(starts()).toEqual([403, 201]);
    [noted] = await restarted.subscriptions.forChannel('discord', DISCORD_CHANNEL);
    expect(noted?.threadProblem).toMatchObject({ code: 'cannot_send_in_threads' });
    expect(noted?.threadProblem?.reason).toContain('Send Messages in Threads');
    expect(noted?.paused).toBeUndefined();
    expect(fake.messages.get(DISCORD_CHANNEL)).toHaveLength(4);
  });

  it('a thread that used up its own rate limit does not hold posts to its parent channel', async () => {
    // Two posts per channel per ten minutes; a thread is a channel, with its own bucket.
    rest = new FakeDiscordRest({ token: 'fake-bot-token', bucket: { limit: 2, windowMs: 600_000 } });
    const { fake, ledger, dispatcher, send } = await discordPipeline();
    await send(...conversation('discord', DISCORD_CHANNEL, '13', '130', '131'));
    const threadId = (await ledger.reference(`discord:${DISCORD_CHANNEL}`, 'posts:new:13'))?.threadId;
    expect(fake.messages.get(threadId!)).toHaveLength(2);
    // The thread has nothing left for ten minutes; the channel has one post left, and it goes now.
    await send(post('discord', DISCORD_CHANNEL, '14'));
    await dispatcher.stop();
    expect(fake.messages.get(DISCORD_CHANNEL)).toHaveLength(2);
    expect(fake.calls.filter((call) => call.status === 429)).toEqual([]);
  });

  it("a digest's later parts go in the first part's thread: one message in the channel", async () => {
    const { fake, ledger, dispatcher, send } = await discordPipeline();
    await send(...digest('discord', DISCORD_CHANNEL, 3));
    await dispatcher.stop();
    const head = await ledger.reference(`discord:${DISCORD_CHANNEL}`, digestKey(1));
    expect(fake.messages.get(DISCORD_CHANNEL)).toHaveLength(1);
    expect(fake.threads.of(DISCORD_CHANNEL)).toMatchObject([{ id: head?.messageId, name: 'Digest' }]);
    const inThread = fake.messages.get(head!.threadId!) ?? [];
    // Discord escapes the brackets of a title.
    expect(inThread.map((m) => (m.body['embeds'] as { title: string }[])[0]?.title)).toEqual([
      'Digest \\(2/3\\)',
      'Digest \\(3/3\\)',
    ]);
    expect(fake.problems).toEqual([]);
  });

  it('without Create Public Threads a digest stays one message: its first part is edited to count the rest', async () => {
    const { fake, subscriptions, dispatcher, send } = await discordPipeline();
    const subscription = await subscribeComments(subscriptions, 'discord', DISCORD_CHANNEL);
    fake.threads.noCreate.add(DISCORD_CHANNEL);
    await send(...digest('discord', DISCORD_CHANNEL, 3, [subscription.id]));
    await dispatcher.stop();
    const channel = fake.messages.get(DISCORD_CHANNEL) ?? [];
    expect(channel).toHaveLength(1);
    const edits = fake.callsTo('PATCH', '/channels/:id/messages/:id');
    expect(edits.length).toBeGreaterThan(0);
    expect(JSON.stringify(edits.at(-1)?.body)).toContain(
      'And 40 more comments: see them with /directory digest',
    );
    const [noted] = await subscriptions.forChannel('discord', DISCORD_CHANNEL);
    expect(noted?.threadProblem?.code).toBe('cannot_create_threads');
    expect(noted?.paused).toBeUndefined();
    expect(fake.problems).toEqual([]);
  });

  it("drops a digest's later part whose first part never reached the channel, rather than post it alone", async () => {
    const { fake, dispatcher, send, outbox } = await discordPipeline();
    const [, second] = digest('discord', DISCORD_CHANNEL, 2);
    await send(second!);
    await dispatcher.stop();
    expect(fake.messages.get(DISCORD_CHANNEL) ?? []).toEqual([]);
    expect(outbox.size()).toBe(0);
  });

  it('in a forum channel each post is a forum post, and its comments go straight into it', async () => {
    const { fake, ledger, dispatcher, send } = await discordPipeline();
    const forum = '300000000000000099';
    fake.addChannel(forum);
    fake.threads.forums.add(forum);
    await send(...conversation('discord', forum, '12', '120', '121'));
    await dispatcher.stop();
    const [post] = fake.threads.of(forum);
    expect(post?.name).toBe('Post 12');
    const parent = await ledger.reference(`discord:${forum}`, 'posts:new:12');
    expect(parent).toMatchObject({ messageId: post?.id, threadId: post?.id });
    // Where their edits go: the post's message and the comments live in the post's thread.
    expect(parent?.channelId).toBe(post?.id);
    const reply = await ledger.reference(`discord:${forum}`, 'comments:new:120');
    expect(reply?.channelId).toBe(post?.id);
    // The forum post is the thread: none is started from a message.
    expect(fake.callsTo('POST', '/channels/:id/messages/:id/threads')).toEqual([]);
    const titles = (fake.messages.get(post!.id) ?? []).map(
      (m) => (m.body['embeds'] as { title: string }[])[0]?.title,
    );
    expect(titles).toEqual(['Post 12', 'Comment 120', 'Comment 121']);
    expect(fake.problems).toEqual([]);
  });
});
