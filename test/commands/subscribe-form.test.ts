import { beforeEach, describe, expect, it } from 'vitest';
import type { CommandReply, FormSubmission } from '../../src/ports/index.js';
import { CHANNEL, type Harness, useSubscriptionHarness } from '../support/command-harness.js';

const MANAGER = { userId: 'U0000USER', canManageChannel: true };
const OTHER_CHANNEL = 'C0OTHER01';

describe('the subscribe form', () => {
  const harness = useSubscriptionHarness();
  let h: Harness;
  beforeEach(() => {
    h = harness();
  });

  const open = (canManageChannel: boolean, canOpenForm = true) =>
    h.handler.handle({
      platform: 'slack',
      channelId: CHANNEL,
      workspaceId: 'T0123',
      actor: { userId: 'U0000USER', canManageChannel },
      text: 'subscribe',
      canOpenForm,
    });

  const submit = (values: FormSubmission['values'], channelId = CHANNEL, canManageChannel = true) => {
    const submitForm = h.handler.submitForm;
    if (submitForm === undefined) throw new Error('the handler takes no forms');
    return submitForm({
      platform: 'slack',
      channelId,
      workspaceId: 'T0123',
      actor: { ...MANAGER, canManageChannel },
      command: 'subscribe',
      values,
    });
  };

  const typed = (text: string, channelId = CHANNEL): Promise<CommandReply> =>
    h.handler.handle({
      platform: 'slack',
      channelId,
      workspaceId: 'T0123',
      actor: MANAGER,
      text,
    });

  /** A reply with its channel's subscription ids replaced, to compare a form's answer with the typed one. */
  const withoutIds = async (reply: CommandReply, channelId: string) => {
    let text = reply.text;
    for (const s of await h.subscriptions.forChannel('slack', channelId)) text = text.replaceAll(s.id, 'ID');
    return { ...reply, text };
  };

  it('opens for a manager, with the feed first and every filter the typed command takes', async () => {
    const reply = await open(true);
    expect(reply.error).toBeUndefined();
    expect(reply.form).toMatchObject({ command: 'subscribe', title: 'Subscribe this channel' });
    expect(reply.form?.fields.map((f) => f.option)).toEqual([
      'feed',
      'keyword',
      'exclude',
      'post',
      'backfill',
      'user',
      'min-votes',
      'remind',
      'format',
      'on-removal',
      'digest',
      'top',
      'quiet',
      'tz',
      'video',
    ]);
    expect(reply.form?.fields[0]).toMatchObject({
      required: true,
      choices: ['posts', 'comments', 'collections', 'live', 'notifications'],
    });
    for (const field of reply.form?.fields ?? []) expect(field.label.length).toBeLessThanOrEqual(45);
    expect(await h.subscriptions.list()).toEqual([]);
  });

  it('refuses a non-manager before the form opens, with the typed command refusal', async () => {
    const reply = await open(false);
    expect(reply.form).toBeUndefined();
    expect(reply).toEqual(await h.run('subscribe'));
    expect(reply.error?.code).toBe('command_forbidden');
  });

  it('keeps answering a bare subscribe with its usage where no form can be shown', async () => {
    const reply = await open(true, false);
    expect(reply.form).toBeUndefined();
    expect(reply.text).toBe('Missing <feed>: the feed to follow.');
  });

  it('subscribes with the same confirmation and preview as the typed command', async () => {
    h.emulator.admin.addPost({ name: 'Rocket Notes', tagline: 'AI notes for rockets', votesCount: 80 });
    const fromForm = await submit({
      feed: 'posts',
      keyword: 'ai, rockets',
      exclude: 'crypto',
      'min-votes': '50',
      post: '',
      video: false,
    });
    const fromText = await typed(
      'subscribe posts --keyword "ai, rockets" --exclude crypto --min-votes 50',
      OTHER_CHANNEL,
    );
    expect(fromForm.error).toBeUndefined();
    expect(await withoutIds(fromForm, CHANNEL)).toEqual(await withoutIds(fromText, OTHER_CHANNEL));
    expect(fromForm.messages[0]?.title).toBe('Rocket Notes');
    const [subscription] = await h.subscriptions.forChannel('slack', CHANNEL);
    expect(subscription?.filters).toEqual({ keywords: ['ai', 'rockets'], exclude: ['crypto'], minVotes: 50 });
    expect(subscription?.createdBy).toBe('U0000USER');
  });

  it.each([
    ['no feed', {}, 'subscribe', 'feed', 'Missing <feed>: the feed to follow.'],
    [
      'an unknown feed',
      { feed: 'tweets' },
      'subscribe tweets',
      'feed',
      '<feed> expects posts, comments, collections, live, notifications, got "tweets".',
    ],
    [
      'a negative vote count',
      { feed: 'posts', 'min-votes': '-1' },
      'subscribe posts --min-votes -1',
      'min-votes',
      '--min-votes must be 0 or more, got "-1".',
    ],
    [
      'a filter of another feed',
      { feed: 'comments', video: true },
      'subscribe comments --video',
      'video',
      '--video does not apply to the comments feed.',
    ],
    [
      'a quiet window of zero length',
      { feed: 'posts', quiet: '22:00-22:00' },
      'subscribe posts --quiet 22:00-22:00',
      'quiet',
      '--quiet: 22:00-22:00 is empty: the window must end at another time than it starts.',
    ],
    [
      'a digest top of 500',
      { feed: 'posts', digest: 'daily@09:00', top: '500' },
      'subscribe posts --digest daily@09:00 --top 500',
      'top',
      '--top must be a whole number from 1 to 50, got "500".',
    ],
    [
      'a malformed username',
      { feed: 'posts', user: 'not a name' },
      'subscribe posts --user "not a name"',
      'user',
      undefined,
    ],
  ] as const)(
    'refuses %s with the typed command message, naming the input',
    async (_name, values, text, option, message) => {
      const fromForm = await submit(values);
      const fromText = await typed(text);
      expect(fromForm).toEqual(fromText);
      expect(fromForm.error).toMatchObject({ code: 'command_usage', option });
      if (message !== undefined) expect(fromForm.text).toBe(message);
      expect(await h.subscriptions.list()).toEqual([]);
    },
  );

  it('refuses a submission from someone who may not manage the channel, changing nothing', async () => {
    const reply = await submit({ feed: 'posts' }, CHANNEL, false);
    expect(reply.error?.code).toBe('command_forbidden');
    expect(reply.text).toContain("You cannot change this channel's subscriptions.");
    expect(await h.subscriptions.list()).toEqual([]);
  });

  it('has no form for commands that define none', async () => {
    const reply = await h.handler.submitForm?.({
      platform: 'slack',
      channelId: CHANNEL,
      actor: MANAGER,
      command: 'unsubscribe',
      values: { target: 'posts' },
    });
    expect(reply?.error?.code).toBe('command_usage');
  });
});
