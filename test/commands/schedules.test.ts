import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildDiscordCommands } from '../../adapters/discord/index.js';
import { COMMAND_REGISTRY } from '../../src/commands/index.js';
import { CHANNEL, type Harness, startHarness } from '../support/command-harness.js';

const MANAGER = { canManageChannel: true };
/** Monday 23 November 2026, 20:40 UTC: 21:40 in Berlin, 05:40 on Tuesday in Tokyo. */
const MONDAY_EVENING = Date.parse('2026-11-23T20:40:00Z');

describe('schedule options on /directory subscribe, timezone and subscriptions', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      startMs: MONDAY_EVENING,
      // The Slack workspace T0123's installer lives in New York; Discord gives no zone.
      workspaceZone: async (platform, workspaceId) =>
        platform === 'slack' && workspaceId === 'T0123' ? 'America/New_York' : undefined,
    });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(async () => {
    h.clock.set(MONDAY_EVENING);
    for (const s of await h.subscriptions.list()) await h.subscriptions.remove(s.platform, s.channelId, s.id);
    for (const z of await h.channelZones.list()) await h.channelZones.reset(z.platform, z.channelId);
  });

  const list = async (platform = 'slack') => (await h.run('subscriptions', {}, platform)).messages[0]?.text;

  it('stores a digest and shows it in the channel’s zone with its next run', async () => {
    const reply = await h.run('subscribe posts --digest daily@09:00 --top 5', MANAGER);
    expect(reply.error).toBeUndefined();
    const [subscription] = await h.subscriptions.forChannel('slack', CHANNEL);
    expect(subscription?.schedule).toEqual({
      digest: { every: 'daily', at: { hour: 9, minute: 0 } },
      top: 5,
    });
    // No channel zone yet: the workspace's (its installer's, on Slack).
    expect(reply.text).toContain(
      'Subscribed this channel to posts (everything); digest daily at 09:00 America/New_York (next: Tue 24 Nov 09:00), top 5 by votes.',
    );
    expect(await h.run('timezone Europe/Berlin', MANAGER)).toMatchObject({
      text: expect.stringContaining("Set this channel's time zone to Europe/Berlin."),
    });
    expect(await list()).toBe(
      `${subscription?.id}: posts (everything); digest daily at 09:00 Europe/Berlin (next: Tue 24 Nov 09:00), top 5 by votes`,
    );
  });

  it('says when a scheduled subscription’s items come: a digest’s never "appear in this channel"', async () => {
    const digest = await h.run('subscribe posts --digest daily@09:00', MANAGER);
    expect(digest.error).toBeUndefined();
    expect(digest.text).not.toContain('will appear in this channel');
    expect(digest.text).toMatch(
      /will not be posted one by one: they are gathered into the digest, the first on Tue 24 Nov 09:00 America\/New_York\.$/,
    );
    const quiet = await h.run('subscribe comments --quiet 22:00-07:00 --max-per-hour 5', MANAGER);
    expect(quiet.text).toMatch(
      /will appear in this channel as they come, outside quiet hours \(what comes during them is posted when they end\), and up to the cap/,
    );
    const plain = await h.run('subscribe collections', MANAGER);
    expect(plain.text).toMatch(/will appear in this channel\.$/);
  });

  it('shows quiet hours, caps and a weekly digest, each subscription in its own zone', async () => {
    await h.run('timezone europe/berlin', MANAGER);
    await h.run('subscribe comments --quiet 22:00-07:00 --max-per-hour 10 --max-per-day 50', MANAGER);
    await h.run('subscribe posts --digest weekly@mon-09:00 --digest-empty --tz Asia/Tokyo', MANAGER);
    await h.run('subscribe live --quiet 23:30-06:00 --quiet-strict', MANAGER);
    const [comments, posts, live] = await h.subscriptions.forChannel('slack', CHANNEL);
    expect((await list())?.split('\n')).toEqual([
      `${comments?.id}: comments (everything); quiet 22:00–07:00 Europe/Berlin, max 10/hour, max 50/day`,
      // Tokyo is already in Tuesday: the next Monday 09:00 there is a week away.
      `${posts?.id}: posts (everything); digest weekly on Mon at 09:00 Asia/Tokyo (next: Mon 30 Nov 09:00), empty digests too`,
      `${live?.id}: live — reminder 15 min before (default); quiet 23:30–06:00 Europe/Berlin, reminders held too`,
    ]);
    const shown = await h.run('timezone', MANAGER);
    expect(shown.text).toBe(
      `This channel's time zone is Europe/Berlin (set for this channel with "timezone"); it is Mon 23 Nov 21:40 there now. Digests, quiet hours and caps of its subscriptions follow it. Except ${posts?.id} (--tz Asia/Tokyo), which name their own.`,
    );
  });

  it('counts the next digest in local time across a DST switch', async () => {
    // Saturday 7 March 2026, 10:00 in New York (EST); the clocks go forward that night.
    h.clock.set(Date.parse('2026-03-07T15:00:00Z'));
    await h.run('subscribe posts --digest daily@09:00 --tz America/New_York', MANAGER);
    expect(await list()).toContain('digest daily at 09:00 America/New_York (next: Sun 8 Mar 09:00)');
  });

  it('changes the schedule in place when the channel subscribes again with other options', async () => {
    await h.run('subscribe posts --digest hourly', MANAGER);
    const [before] = await h.subscriptions.forChannel('slack', CHANNEL);
    const again = await h.run('subscribe posts --quiet 22:00-07:00', MANAGER);
    expect(again.text).toContain(
      `Changed the schedule of this channel's subscription: posts (everything); quiet 22:00–07:00 America/New_York. Id: ${before?.id}.`,
    );
    const plain = await h.run('subscribe posts', MANAGER);
    expect(plain.text).toContain(
      `Changed the schedule of this channel's subscription: posts (everything). Id: ${before?.id}.`,
    );
    const [after] = await h.subscriptions.forChannel('slack', CHANNEL);
    expect(after?.id).toBe(before?.id);
    expect(after?.schedule).toBeUndefined();
    expect(after?.createdAt).toBe(before?.createdAt);
  });

  it.each([
    [
      'subscribe posts --digest daily@25:00',
      'digest',
      '--digest: 25:00 is not a time of day (00:00 to 23:59).',
    ],
    [
      'subscribe posts --quiet 07:00-07:00',
      'quiet',
      '--quiet: 07:00-07:00 is empty: the window must end at another time than it starts.',
    ],
    [
      'subscribe posts --digest daily@09:00 --top 0',
      'top',
      '--top must be a whole number from 1 to 50, got "0".',
    ],
    [
      'subscribe posts --digest daily@09:00 --top 500',
      'top',
      '--top must be a whole number from 1 to 50, got "500".',
    ],
    [
      'subscribe posts --digest hourly --tz Europe/Berln',
      'tz',
      '--tz: "Europe/Berln" is not an IANA time zone (like Europe/Berlin, America/New_York or UTC). Did you mean Europe/Berlin?',
    ],
    [
      'subscribe comments --digest hourly --top 3',
      'top',
      '--top ranks posts by votes: it applies to the posts feed only, not comments.',
    ],
    ['subscribe posts --top 3', 'top', "--top picks a digest's best items: give it with --digest."],
  ])('refuses "%s", naming the option, and stores nothing', async (text, option, message) => {
    const reply = await h.run(text, MANAGER);
    expect(reply.text).toBe(message);
    expect(reply.error).toMatchObject({ code: 'command_usage', option });
    expect(await h.subscriptions.list()).toEqual([]);
  });

  it('sets, shows and resets the channel zone, falling back to the workspace’s and then UTC', async () => {
    const bad = await h.run('timezone Europe/Berln', MANAGER);
    expect(bad.text).toBe(
      '<zone>: "Europe/Berln" is not an IANA time zone (like Europe/Berlin, America/New_York or UTC). Did you mean Europe/Berlin?',
    );
    expect(bad.error).toMatchObject({ code: 'command_usage', option: 'zone' });
    expect(await h.channelZones.list()).toEqual([]);

    await h.run('timezone Europe/Berlin', MANAGER);
    expect(await h.channelZones.get('slack', CHANNEL)).toMatchObject({
      zone: 'Europe/Berlin',
      workspaceId: 'T0123',
      setBy: 'U0000USER',
      setAt: MONDAY_EVENING,
    });
    const moved = await h.run('timezone Asia/Tokyo', MANAGER);
    expect(moved.text).toContain("Set this channel's time zone to Asia/Tokyo (was Europe/Berlin).");
    expect(moved.text).toContain('it is Tue 24 Nov 05:40 there now');

    const reset = await h.run('timezone reset', MANAGER);
    expect(reset.text).toBe(
      "Forgot this channel's time zone (Asia/Tokyo). This channel's time zone is America/New_York (the workspace's: the time zone Slack has for the person who installed the app); it is Mon 23 Nov 15:40 there now. Digests, quiet hours and caps of its subscriptions follow it.",
    );
    const discord = await h.run('timezone', MANAGER, 'discord');
    expect(discord.text).toBe(
      "This channel's time zone is UTC (the default: Discord tells bots no server time zone); it is Mon 23 Nov 20:40 there now. Digests, quiet hours and caps of its subscriptions follow it.",
    );
  });

  it('lets only channel managers see or change the zone', async () => {
    const refused = await h.run('timezone Europe/Berlin');
    expect(refused.error?.code).toBe('command_forbidden');
    expect(await h.channelZones.list()).toEqual([]);
  });
});

describe('the schedule options on every surface', () => {
  it('registers them as typed Discord options of subscribe, and timezone as a subcommand', () => {
    const [command] = buildDiscordCommands(COMMAND_REGISTRY.definitions);
    const subcommands = (command?.options ?? []) as { name: string; options?: Record<string, unknown>[] }[];
    const subscribe = subcommands.find((o) => o.name === 'subscribe');
    const options = new Map((subscribe?.options ?? []).map((o) => [o['name'], o]));
    expect(options.get('digest')).toMatchObject({ type: 3, max_length: 30 });
    expect(options.get('top')).toMatchObject({ type: 4, min_value: 1, max_value: 50 });
    expect(options.get('digest-empty')).toMatchObject({ type: 5 });
    expect(options.get('quiet')).toMatchObject({ type: 3 });
    expect(options.get('quiet-strict')).toMatchObject({ type: 5 });
    expect(options.get('max-per-hour')).toMatchObject({ type: 4, min_value: 1, max_value: 1000 });
    expect(options.get('max-per-day')).toMatchObject({ type: 4, min_value: 1, max_value: 10_000 });
    expect(options.get('tz')).toMatchObject({ type: 3 });
    expect(subcommands.find((o) => o.name === 'timezone')?.options).toEqual([
      expect.objectContaining({ name: 'zone', type: 3, required: false }),
    ]);
  });

  it('lists them in help subscribe with examples', () => {
    const help = COMMAND_REGISTRY.help('subscribe');
    const text = [help.text, ...help.messages.map((m) => JSON.stringify(m))].join('\n');
    for (const flag of [
      '--digest',
      '--top',
      '--digest-empty',
      '--quiet',
      '--quiet-strict',
      '--max-per-hour',
      '--max-per-day',
      '--tz',
    ])
      expect(text).toContain(flag);
    expect(text).toContain('subscribe posts --digest daily@09:00 --top 5');
  });
});
