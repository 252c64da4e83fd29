import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMMAND_SPECS } from '../../src/commands/index.js';
import { DELETE_REFUSED } from '../../src/ports/index.js';
import { ADMIN_ID, CHANNEL, type Harness, startHarness } from '../support/command-harness.js';

const SUBSCRIBE_USAGE = COMMAND_SPECS.find((s) => s.name === 'subscribe')?.usage;
const MANAGER = { canManageChannel: true };

describe('subscription commands', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    for (const s of await h.subscriptions.list()) await h.subscriptions.remove(s.platform, s.channelId, s.id);
  });

  /** A posts subscription of CHANNEL, paused by Slack's refusal when the channel was deleted. */
  async function subscribeInDeletedChannel(): Promise<void> {
    await h.run('subscribe posts', MANAGER);
    await h.subscriptions.pauseDestination('slack', CHANNEL, 'channel_not_found', 'the channel was deleted');
  }

  describe('permissions', () => {
    it('lets someone the platform says may manage the channel subscribe', async () => {
      const reply = await h.run('subscribe posts', MANAGER);
      expect(reply.error).toBeUndefined();
      expect(await h.subscriptions.forChannel('slack', CHANNEL)).toHaveLength(1);
    });

    it('lets someone listed in ADMIN_USER_IDS subscribe and unsubscribe', async () => {
      const added = await h.run('subscribe collections', { userId: ADMIN_ID });
      expect(added.error).toBeUndefined();
      const removed = await h.run('unsubscribe collections', { userId: ADMIN_ID });
      expect(removed.error).toBeUndefined();
      expect(await h.subscriptions.forChannel('slack', CHANNEL)).toEqual([]);
    });

    it('refuses everyone else, says why and who can, per platform, and changes nothing', async () => {
      const slack = await h.run('subscribe posts');
      expect(slack.error).toEqual({ code: 'command_forbidden' });
      expect(slack.text).toBe(
        "You cannot change this channel's subscriptions. Only workspace admins and owners, or people listed in ADMIN_USER_IDS, can change this channel's subscriptions.",
      );
      const discord = await h.run('unsubscribe posts', {}, 'discord');
      expect(discord.error?.code).toBe('command_forbidden');
      expect(discord.text).toContain('Manage Channels permission');
      // Arguments are not discussed with someone who may not make the change at all.
      const bad = await h.run('subscribe nonsense --bogus');
      expect(bad.error?.code).toBe('command_forbidden');
      expect(await h.subscriptions.list()).toEqual([]);
      expect(h.events.at(-1)).toEqual({ command: 'subscribe', platform: 'slack', result: 'forbidden' });
    });

    it('lets everyone list subscriptions and look things up', async () => {
      await h.run('subscribe posts', MANAGER);
      const list = await h.run('subscriptions');
      expect(list.error).toBeUndefined();
      expect(list.text).toBe('This channel has 1 subscription.');
    });
  });

  describe('subscribe', () => {
    it('says what was subscribed, the id, and previews the latest matching item', async () => {
      h.emulator.admin.addPost({ name: 'Rocket Notes', tagline: 'AI notes for rockets', votesCount: 80 });
      const reply = await h.run(
        'subscribe posts --keyword ai,rockets --exclude crypto --min-votes 50',
        MANAGER,
      );
      expect(reply.error).toBeUndefined();
      const [subscription] = await h.subscriptions.forChannel('slack', CHANNEL);
      expect(subscription?.filters).toEqual({
        keywords: ['ai', 'rockets'],
        exclude: ['crypto'],
        minVotes: 50,
      });
      expect(subscription?.createdBy).toBe('U0000USER');
      expect(reply.text).toContain(
        'Subscribed this channel to posts — mentioning "ai" or "rockets", not mentioning "crypto", with at least 50 votes.',
      );
      expect(reply.text).toContain(`Id: ${subscription?.id}`);
      expect(reply.messages).toHaveLength(1);
      expect(reply.messages[0]?.title).toBe('Rocket Notes');
      expect(reply.visibility).toBe('ephemeral');
    });

    it('says so when nothing recent matches', async () => {
      const reply = await h.run('subscribe comments --keyword zzyzxquux', MANAGER);
      expect(reply.error).toBeUndefined();
      expect(reply.messages).toEqual([]);
      expect(reply.text).toContain('Nothing recent matches these filters');
    });

    it('previews comments on one post and live events with a reminder', async () => {
      const post = h.emulator.admin.addPost({ name: 'Preview Target' });
      h.emulator.admin.addComment({ postId: post.id, body: 'First!' });
      const comments = await h.run(`subscribe comments --post ${post.id}`, MANAGER);
      expect(comments.messages[0]?.text).toBe('First!');
      h.emulator.admin.scheduleLive({
        name: 'On camera soon',
        liveVideo: true,
        startsAt: new Date(h.clock.now() + 7_200_000).toISOString(),
      });
      const live = await h.run('subscribe live --video --remind 30', MANAGER);
      expect(live.text).toContain('live — on camera only, reminder 30 min before');
      expect(live.messages[0]?.kind).toBe('live');
    });

    it('previews an upcoming live event in a busy directory, past more than a page of events that already started', async () => {
      // Its own directory: the listing starts 1 to 3 days before now, and 60 events that
      // started in the last 10 hours fill more than the first page of 50 with the past.
      const busy = await startHarness();
      try {
        const now = busy.clock.now();
        for (let i = 1; i <= 60; i += 1) {
          busy.emulator.admin.scheduleLive({
            name: `Already on ${i}`,
            startsAt: new Date(now - i * 10 * 60_000).toISOString(),
          });
        }
        busy.emulator.admin.scheduleLive({
          name: 'Coming up next',
          liveVideo: true,
          startsAt: new Date(now + 3_600_000).toISOString(),
        });
        const before = busy.requests();
        const reply = await busy.run('subscribe live --video', MANAGER);
        expect(reply.text).toContain('The most recent matching item is below');
        expect(reply.messages.map((m) => m.title)).toEqual(['Coming up next']);
        // 61 events in the listing have started (ours and one seeded): pages 1 and 2 of 50 reach
        // past them, page 3 completes the 50 upcoming the preview looks through, and it stops.
        expect(busy.requests() - before).toBe(3);
      } finally {
        await busy.close();
      }
    });

    it('does not duplicate an identical subscription', async () => {
      await h.run('subscribe notifications', MANAGER);
      const again = await h.run('subscribe notifications', MANAGER);
      expect(again.text).toContain('This channel already has that subscription');
      expect(await h.subscriptions.forChannel('slack', CHANNEL)).toHaveLength(1);
    });

    const bad: [string, string][] = [
      ['subscribe', 'Missing <feed>'],
      ['subscribe podcasts', '<feed> expects posts, comments, collections, live, notifications'],
      [`subscribe ${'p'.repeat(14)}`, 'too long'],
      ['subscribe posts --min-votes lots', '--min-votes expects a whole number'],
      ['subscribe posts --min-votes', '--min-votes needs a value'],
      ['subscribe posts --min-votes -1', '--min-votes must be 0 or more'],
      ['subscribe live --remind 2000', '--remind must be at most 1440'],
      ['subscribe live --remind', '--remind needs a value'],
      ['subscribe comments --post "a b"', '--post expects a post slug'],
      [`subscribe comments --post ${'a'.repeat(101)}`, '--post is too long'],
      ['subscribe posts --user', '--user needs a value'],
      ['subscribe posts --user "jane doe"', '--user expects a username'],
      [`subscribe posts --keyword ${'k'.repeat(501)}`, '--keyword is too long'],
      [`subscribe posts --keyword ${'k'.repeat(101)}`, '--keyword: at most 100 characters'],
      ['subscribe posts --keyword', '--keyword needs a value'],
      ['subscribe posts --exclude', '--exclude needs a value'],
      ['subscribe posts --video=sometimes', '--video is a switch'],
      ['subscribe posts --tag ai', 'Unknown flag --tag'],
      ['subscribe posts --keywrd ai', 'Did you mean --keyword?'],
      ['subscribe comments --video', '--video does not apply to the comments feed'],
      ['subscribe live --min-votes 3', '--min-votes does not apply to the live feed'],
      ['subscribe comments --format tiny', '--format expects full, compact or title, got "tiny"'],
      ['subscribe comments --format', '--format needs a value'],
      ['subscribe comments --formt compact', 'Did you mean --format?'],
    ];
    it.each(bad)('"%s" is refused with the usage: %s', async (text, problem) => {
      const reply = await h.run(text, MANAGER);
      expect(reply.error).toMatchObject({ code: 'command_usage', usage: SUBSCRIBE_USAGE });
      expect(reply.text).toContain(problem);
      expect(await h.subscriptions.list()).toEqual([]);
    });
  });

  describe('--format', () => {
    it('stores the format, says it, and previews the item in that format', async () => {
      const post = h.emulator.admin.addPost({ name: 'Format Target' });
      h.emulator.admin.addComment({ postId: post.id, body: 'Compact me @everyone <!channel>' });
      const reply = await h.run(`subscribe comments --post ${post.id} --format compact`, MANAGER);
      expect(reply.error).toBeUndefined();
      const [subscription] = await h.subscriptions.forChannel('slack', CHANNEL);
      expect(subscription?.format).toBe('compact');
      expect(reply.text).toContain(
        `Subscribed this channel to comments — on post ${post.id}, format compact.`,
      );
      // The preview is the one linked line the channel will get: no body, fields or author.
      expect(reply.messages).toHaveLength(1);
      const preview = reply.messages[0];
      expect(preview?.layout).toBe('line');
      expect(preview?.title).toMatch(/^New comment by .+: Compact me @everyone <!channel>$/);
      expect(preview?.url).toMatch(/^https?:\/\//);
      expect([preview?.text, preview?.fields, preview?.author]).toEqual([undefined, undefined, undefined]);

      const titled = await h.run('subscribe posts --format title', MANAGER);
      expect(titled.text).toContain('Subscribed this channel to posts (everything), format title.');
      expect(titled.messages[0]).toMatchObject({ layout: 'line' });
      expect(titled.messages[0]?.fallback).not.toBe(titled.messages[0]?.title);
    });

    it('leaves the full card as it was: no format stored, none shown', async () => {
      const reply = await h.run('subscribe posts --format full', MANAGER);
      expect(reply.text).toContain('Subscribed this channel to posts (everything).');
      const [subscription] = await h.subscriptions.forChannel('slack', CHANNEL);
      expect(subscription).not.toHaveProperty('format');
      expect(reply.messages[0]?.layout).toBeUndefined();
    });

    it('changes the format of the same subscription in place when subscribed again with another', async () => {
      const first = await h.run('subscribe comments --keyword ai', MANAGER);
      const [before] = await h.subscriptions.forChannel('slack', CHANNEL);
      const again = await h.run('subscribe comments --keyword ai --format title', MANAGER);
      const after = await h.subscriptions.forChannel('slack', CHANNEL);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ id: before?.id, createdAt: before?.createdAt, format: 'title' });
      expect(first.text).toContain('Subscribed this channel');
      expect(again.text).toContain(
        `Changed the format of this channel's subscription to title: comments — mentioning "ai", format title. Id: ${before?.id}.`,
      );
      const back = await h.run('subscribe comments --keyword ai', MANAGER);
      expect(back.text).toContain("Changed the format of this channel's subscription to full");
      expect((await h.subscriptions.forChannel('slack', CHANNEL))[0]).not.toHaveProperty('format');
    });

    it('lists each subscription with its format', async () => {
      await h.run('subscribe comments --format compact', MANAGER);
      await h.run('subscribe posts', MANAGER);
      await h.run('subscribe live --format title', MANAGER);
      const list = await h.run('subscriptions');
      const lines = list.messages[0]?.text?.split('\n') ?? [];
      expect(lines.map((line) => line.replace(/^s[0-9a-f]+: /, ''))).toEqual([
        'comments (everything), format compact',
        'posts (everything)',
        'live — reminder 15 min before (default), format title',
      ]);
    });
  });

  describe('--on-removal', () => {
    it('stores delete, says it, lists it, and marks again when subscribed with mark', async () => {
      const reply = await h.run('subscribe comments --on-removal delete', MANAGER);
      expect(reply.text).toContain(
        'Subscribed this channel to comments (everything), deleted if removed upstream.',
      );
      expect((await h.subscriptions.forChannel('slack', CHANNEL))[0]?.onRemoval).toBe('delete');
      const list = await h.run('subscriptions');
      expect(list.messages[0]?.text).toMatch(
        /^s[0-9a-f]+: comments \(everything\), deleted if removed upstream$/,
      );
      const back = await h.run('subscribe comments --on-removal mark', MANAGER);
      expect(back.text).toContain(
        "Changed the removal handling of this channel's subscription: comments (everything).",
      );
      expect((await h.subscriptions.forChannel('slack', CHANNEL))[0]).not.toHaveProperty('onRemoval');
    });

    it('status says when a removed item was marked because the platform refused to delete it', async () => {
      await h.run('subscribe comments --on-removal delete', MANAGER);
      const [subscription] = await h.subscriptions.forChannel('slack', CHANNEL);
      const reason = 'Slack refused to delete the message (cant_delete_message)';
      await h.subscriptions.noteProblem('removalProblem', [subscription!.id], {
        code: DELETE_REFUSED,
        reason,
        at: h.clock.now(),
      });
      const refused = (await h.run('status')).messages.find((m) => m.title === 'Deleting refused');
      expect(refused?.text).toContain(
        `${subscription!.id} (comments) removed items marked instead of deleted since`,
      );
      expect(refused?.text).toContain(reason);
    });

    it('refuses any other value and stores nothing', async () => {
      const reply = await h.run('subscribe comments --on-removal hide', MANAGER);
      expect(reply.error).toMatchObject({ code: 'command_usage' });
      expect(reply.text).toContain('mark or delete');
      expect(await h.subscriptions.list()).toEqual([]);
    });
  });

  describe('unsubscribe and subscriptions', () => {
    it('lists this channel only, removes by id or by feed, and says when nothing matched', async () => {
      await h.run('subscribe posts --min-votes 10', MANAGER);
      await h.run('subscribe posts --keyword ai', MANAGER);
      await h.run('subscribe comments', MANAGER);
      await h.subscriptions.add({
        platform: 'slack',
        channelId: 'COTHER',
        feed: 'live',
        filters: {},
        createdBy: 'x',
      });
      const list = await h.run('subscriptions');
      expect(list.text).toBe('This channel has 3 subscriptions.');
      const mine = await h.subscriptions.forChannel('slack', CHANNEL);
      for (const s of mine) expect(list.messages[0]?.text).toContain(s.id);
      expect(list.messages[0]?.text).toContain('comments (everything)');

      const comments = mine.find((s) => s.feed === 'comments');
      const byId = await h.run(`unsubscribe ${comments?.id}`, MANAGER);
      expect(byId.text).toBe('Removed a subscription from this channel.');
      const byFeed = await h.run('unsubscribe posts', MANAGER);
      expect(byFeed.text).toBe('Removed 2 subscriptions from this channel.');
      const none = await h.run('unsubscribe posts', MANAGER);
      expect(none.error?.code).toBe('command_usage');
      expect(none.text).toBe('This channel has no subscription to posts. See "subscriptions" for the list.');
      expect(await h.subscriptions.forChannel('slack', 'COTHER')).toHaveLength(1);
      expect((await h.run('subscriptions')).text).toContain('This channel has no subscriptions.');
    });

    it('shows why a subscription is paused', async () => {
      await subscribeInDeletedChannel();
      const list = await h.run('subscriptions');
      expect(list.messages[0]?.text).toContain('PAUSED: the channel was deleted');
    });

    it('refuses bad unsubscribe arguments', async () => {
      for (const [text, problem] of [
        ['unsubscribe', 'Missing <target>'],
        ['unsubscribe s1!', 'expects a subscription id'],
        [`unsubscribe ${'s'.repeat(33)}`, 'too long'],
        ['unsubscribe posts --all', 'Unknown flag --all'],
      ] as const) {
        const reply = await h.run(text, MANAGER);
        expect(reply.error?.code).toBe('command_usage');
        expect(reply.text).toContain(problem);
      }
    });
  });

  describe('pause and resume', () => {
    it('pauses one subscription by id, says who paused it in subscriptions and status, and resumes it', async () => {
      await h.run('subscribe posts', MANAGER);
      await h.run('subscribe comments', MANAGER);
      const [posts, comments] = await h.subscriptions.forChannel('slack', CHANNEL);
      const paused = await h.run(`pause ${posts?.id}`, { ...MANAGER, userId: 'UMANAGER1' });
      expect(paused.error).toBeUndefined();
      expect(paused.text).toBe(
        `Paused ${posts?.id}: posts (everything). Nothing is posted for it until someone runs "resume ${posts?.id}".`,
      );
      const stored = await h.subscriptions.forChannel('slack', CHANNEL);
      expect(stored.find((s) => s.id === posts?.id)?.paused).toMatchObject({
        code: 'paused_by_user',
        by: 'UMANAGER1',
      });
      expect(stored.find((s) => s.id === comments?.id)?.paused).toBeUndefined();

      const list = await h.run('subscriptions');
      expect(list.messages[0]?.text).toContain(
        `${posts?.id}: posts (everything) — PAUSED: a channel manager paused it (user UMANAGER1,`,
      );
      expect(list.messages[0]?.text?.split('\n')).toContain(`${comments?.id}: comments (everything)`);
      const status = await h.run('status');
      expect(status.text).toBe('Status: 1 subscription(s) paused here.');
      expect(status.messages.at(-1)?.text).toContain(
        `${posts?.id} (posts) paused: a channel manager paused it (user UMANAGER1,`,
      );

      const again = await h.run(`pause ${posts?.id}`, MANAGER);
      expect(again.text).toBe(
        `${posts?.id}: posts (everything) is already paused (a channel manager paused it).`,
      );

      const resumed = await h.run(`resume ${posts?.id}`, MANAGER);
      expect(resumed.text).toBe(
        `Resumed ${posts?.id}: posts (everything). New items are posted again from now on.`,
      );
      expect((await h.subscriptions.forChannel('slack', CHANNEL)).every((s) => !s.paused)).toBe(true);
      expect((await h.run(`resume ${posts?.id}`, MANAGER)).text).toBe(
        `${posts?.id}: posts (everything) is not paused.`,
      );
    });

    it('keeps a refusal pause when someone pauses it too, and resume clears a refusal', async () => {
      await subscribeInDeletedChannel();
      const [posts] = await h.subscriptions.forChannel('slack', CHANNEL);
      const again = await h.run(`pause ${posts?.id}`, MANAGER);
      expect(again.text).toContain('is already paused (the channel was deleted)');
      expect((await h.subscriptions.forChannel('slack', CHANNEL))[0]?.paused?.code).toBe('channel_not_found');
      expect((await h.run(`resume ${posts?.id}`, MANAGER)).text).toContain('Resumed');
      expect((await h.subscriptions.forChannel('slack', CHANNEL))[0]?.paused).toBeUndefined();
    });

    it("refuses people who may not manage the channel, and another channel's id, changing nothing", async () => {
      await h.run('subscribe posts', MANAGER);
      const other = await h.subscriptions.add({
        platform: 'slack',
        channelId: 'COTHER',
        feed: 'live',
        filters: {},
        createdBy: 'x',
      });
      const [posts] = await h.subscriptions.forChannel('slack', CHANNEL);
      for (const command of ['pause', 'resume']) {
        const refused = await h.run(`${command} ${posts?.id}`);
        expect(refused.error?.code).toBe('command_forbidden');
        expect(refused.text).toContain('Only workspace admins and owners');
        const elsewhere = await h.run(`${command} ${other.subscription.id}`, MANAGER);
        expect(elsewhere.error?.code).toBe('command_usage');
        expect(elsewhere.text).toBe(
          `This channel has no subscription with id ${other.subscription.id}. See "subscriptions" for the list.`,
        );
      }
      expect((await h.subscriptions.list()).every((s) => !s.paused)).toBe(true);
      const admin = await h.run(`pause ${posts?.id}`, { userId: ADMIN_ID });
      expect(admin.error).toBeUndefined();
      expect(await h.run('pause', MANAGER)).toMatchObject({ error: { code: 'command_usage' } });
    });
  });

  describe('subscribe --threads, --thread-comments, --broadcast', () => {
    it('stores nothing for the default (threads on) and says what a non-default subscription does', async () => {
      await h.run('subscribe comments', MANAGER);
      const reply = await h.run('subscribe posts --thread-comments', MANAGER);
      expect(reply.error).toBeUndefined();
      expect(reply.text).toContain("posts (everything), with its posts' comments in threads");
      const off = await h.run('subscribe collections --threads off', MANAGER);
      expect(off.text).toContain('collections (everything), threads off');
      const stored = await h.subscriptions.forChannel('slack', CHANNEL);
      expect(stored.map((s) => [s.feed, s.threading])).toEqual([
        ['comments', undefined],
        ['posts', { comments: true }],
        ['collections', { off: true }],
      ]);
    });

    it('broadcasts only with a keyword to match, and says so', async () => {
      const missing = await h.run('subscribe comments --broadcast', MANAGER);
      expect(missing.error?.code).toBe('command_usage');
      expect(missing.text).toContain('--broadcast sends comments matching --keyword to the channel');
      const ok = await h.run('subscribe comments --keyword launch --broadcast', MANAGER);
      expect(ok.error).toBeUndefined();
      expect(ok.text).toContain('keyword matches also sent to the channel');
      expect((await h.subscriptions.forChannel('slack', CHANNEL))[0]?.threading).toEqual({ broadcast: true });
    });

    it('refuses combinations that cannot work, naming the option', async () => {
      const cases: [string, string][] = [
        [
          'subscribe comments --thread-comments',
          '--thread-comments applies to the posts feed, not comments.',
        ],
        ['subscribe posts --thread-comments --threads off', '--thread-comments needs threads on'],
        ['subscribe comments --keyword ai --broadcast --threads off', '--broadcast needs threads on'],
        ['subscribe live --keyword ai --broadcast', '--broadcast applies to threaded comments'],
        ['subscribe posts --threads maybe', 'on or off'],
        [
          'subscribe posts --thread-comments --quiet 22:00-07:00',
          '--thread-comments cannot be combined with --quiet: a post held by a schedule',
        ],
        ['subscribe posts --thread-comments --digest daily@09:00', 'cannot be combined with --digest'],
      ];
      for (const [command, problem] of cases) {
        const reply = await h.run(command, MANAGER);
        expect(reply.error?.code, command).toBe('command_usage');
        expect(reply.text, command).toContain(problem);
      }
      expect(await h.subscriptions.list()).toEqual([]);
    });

    it('changes the thread settings of an existing subscription in place (same id), like a format', async () => {
      await h.run('subscribe posts', MANAGER);
      const [before] = await h.subscriptions.forChannel('slack', CHANNEL);
      const reply = await h.run('subscribe posts --thread-comments', MANAGER);
      expect(reply.text).toContain(`Id: ${before?.id}`);
      const after = await h.subscriptions.forChannel('slack', CHANNEL);
      expect(after).toHaveLength(1);
      expect(after[0]?.threading).toEqual({ comments: true });
    });

    it('status tells the channel which subscriptions post replies top-level, and why', async () => {
      await h.run('subscribe comments', MANAGER);
      const [subscription] = await h.subscriptions.forChannel('slack', CHANNEL);
      await h.subscriptions.noteThreadProblem([subscription!.id], {
        code: 'cannot_create_threads',
        reason: 'the bot needs Create Public Threads here: 403 Missing Permissions (code 50013)',
        at: h.clock.now(),
      });
      const reply = await h.run('status');
      expect(reply.text).toContain('1 subscription(s) post replies top-level: see Threads.');
      const threads = reply.messages.find((m) => m.title === 'Threads unavailable');
      expect(threads?.text).toContain(`${subscription!.id} (comments) replies posted top-level since`);
      expect(threads?.text).toContain('the bot needs Create Public Threads here');

      await h.subscriptions.noteThreadProblem([subscription!.id], undefined);
      const cleared = await h.run('status');
      expect(cleared.messages.some((m) => m.title === 'Threads unavailable')).toBe(false);
    });
  });
});
