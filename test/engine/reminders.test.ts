import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDiscordAdapter } from '../../adapters/discord/index.js';
import { createSlackAdapter } from '../../adapters/slack/index.js';
import { buildCommandHandler } from '../../src/app/wiring.js';
import { createDirectoryClient } from '../../src/directory/index.js';
import {
  createManualClock,
  type ManualClock,
  type RunningEmulator,
  startEmulator,
} from '../../src/emulator/index.js';
import { createItemComposer } from '../../src/engine/compose-item.js';
import { createEngine, type EngineEvent } from '../../src/engine/engine.js';
import type { LiveFeedState } from '../../src/feeds/live-feed.js';
import type { ChatAdapter, CommandInvocation } from '../../src/ports/index.js';
import { createStore } from '../../src/store/create-store.js';
import { directoryIdFor, directoryKeys } from '../../src/store/directory-keys.js';
import { REMINDERS_KEY, type Reminder } from '../../src/subscriptions/personal-reminders.js';
import { exportWorkspace, forgetWorkspace } from '../../src/workspaces/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { createCapturingLogger } from '../support/capturing-logger.js';
import { APP_ID } from '../support/discord-interactions.js';
import { TEST_SETTINGS } from '../support/engine-harness.js';
import { Cleanup } from '../support/pipeline-harness.js';
import { eventually } from '../support/polling.js';
import { makeTempDir } from '../support/temp-dir.js';

const SLACK_TOKEN = 'xoxb-remind';
const DISCORD_TOKEN = 'discord-remind-token';
const TEAM = 'T0REMIND';
const GUILD = '300000000000000001';
const ALICE = 'U0ALICE';
const DISCORD_ALICE = '400000000000000001';
const MINUTE = 60_000;
/** A start that is no round hour on any clock: the test reads the same at any hour, in any zone. */
const START = Date.parse('2031-03-14T15:37:00.000Z');

let clock: ManualClock;
let emulator: RunningEmulator;
let slack: FakeSlackApi;
let discord: FakeDiscordRest;
let temp: ReturnType<typeof makeTempDir>;
let storeUrl: string;
const cleanup = new Cleanup();

beforeEach(async () => {
  temp = makeTempDir();
  storeUrl = `sqlite://${join(temp.path, `${randomUUID()}.sqlite`)}`;
  clock = createManualClock(START - 3 * 60 * MINUTE);
  emulator = await startEmulator({ port: 0, seed: 7, clock });
  slack = await new FakeSlackApi({ now: clock.now }).start();
  slack.addToken(SLACK_TOKEN, TEAM);
  discord = new FakeDiscordRest({ token: DISCORD_TOKEN, now: clock.now });
  await discord.listen();
});

afterEach(async () => {
  await cleanup.run();
  await discord.close();
  await slack.close();
  await emulator.close();
  temp.cleanup();
});

/** One bot instance: the real engine, command handler and adapters, on the shared store and clock. */
async function startBot(options: { start?: boolean } = {}) {
  const events: EngineEvent[] = [];
  const store = createStore({ url: storeUrl, namespace: 'remind' });
  const client = createDirectoryClient({ baseUrl: emulator.url, token: 'dev-token', clock });
  const directoryId = directoryIdFor(emulator.url);
  const adapters: ChatAdapter[] = [
    createSlackAdapter({
      botToken: SLACK_TOKEN,
      signingSecret: 'secret',
      apiUrl: slack.apiUrl,
      logger: createCapturingLogger(),
    }),
    createDiscordAdapter({
      token: DISCORD_TOKEN,
      applicationId: APP_ID,
      apiUrl: discord.url,
      gateway: false,
      logger: createCapturingLogger(),
    }),
  ];
  const engine = createEngine({
    store,
    client,
    directoryId,
    adapters,
    clock,
    compose: createItemComposer(clock),
    settings: { ...TEST_SETTINGS, reminderTickMs: 30 },
    onEvent: (event) => events.push(event),
  });
  const commands = buildCommandHandler(
    { feeds: { adminUserIds: [], liveRemindMinutes: 15 }, directory: { baseUrl: undefined } },
    { client, engine, store, directoryId },
    { clock },
  );
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await engine.stop();
    await engine.dispatcher.stop();
    await client.close();
    await store.close();
  };
  cleanup.add(close);
  if (options.start !== false) await engine.start();
  const ask = (text: string, platform: 'slack' | 'discord' = 'slack', userId = ALICE) => {
    const invocation: CommandInvocation = {
      platform,
      channelId: platform === 'slack' ? 'C0LIVE' : '300000000000000002',
      workspaceId: platform === 'slack' ? TEAM : GUILD,
      actor: { userId, canManageChannel: false },
      text,
    };
    return commands.handle(invocation);
  };
  return { store, engine, events, ask, close, directoryId };
}

function scheduleEvent(name = 'AI office hours', startsAt = START) {
  const record = emulator.admin.scheduleLive({
    name,
    tagline: 'Bring questions',
    startsAt: new Date(startsAt).toISOString(),
    liveVideo: true,
  });
  return { id: String(record['id']), url: String(record['url']) };
}

const slackDms = () =>
  slack.callsTo('chat.postMessage').filter((c) => String(c.params['channel']).startsWith('D'));
const discordDms = () =>
  discord.calls.filter(
    (c) => c.method === 'POST' && discord.dms.userOf(c.path.split('/')[2] ?? '') !== undefined,
  );

describe('/directory remind', () => {
  it('sets, lists and cancels a reminder, answering privately with the DM time', async () => {
    const event = scheduleEvent();
    const bot = await startBot({ start: false });

    const set = await bot.ask(`remind ${event.id} --before 30`);
    expect(set.error).toBeUndefined();
    expect(set.visibility).toBe('ephemeral');
    expect(set.text).toContain('I will DM you at 15:07 UTC (in 2 h 30 min), 30 min before "AI office hours"');
    // The card carries the DM time as its timestamp: Slack's <!date^…> and Discord's embed show it in the reader's zone.
    expect(set.messages[0]?.timestamp).toBe(new Date(START - 30 * MINUTE).toISOString());
    const id = /remind cancel (r[0-9a-f]{6})/.exec(set.text)?.[1] ?? '';
    expect(id).not.toBe('');

    const again = await bot.ask(`remind ${event.url} --before 30`);
    expect(again.text).toContain(`You already have this reminder (${id})`);
    expect((await bot.store.keyv.get<Reminder[]>(REMINDERS_KEY))?.length).toBe(1);

    const list = await bot.ask('remind list');
    expect(list.text).toContain('Your reminders (1)');
    expect(list.messages.map((m) => m.title)).toEqual([`${id}: AI office hours`]);
    expect((await bot.ask('remind list', 'slack', 'U0BOB')).text).toContain('You have no reminders');
    expect((await bot.ask(`remind cancel ${id}`, 'slack', 'U0BOB')).error?.code).toBe('not_found');

    const cancelled = await bot.ask(`remind cancel ${id}`);
    expect(cancelled.text).toBe(`Cancelled reminder ${id} for "AI office hours".`);
    expect((await bot.ask('remind list')).text).toContain('You have no reminders');
  });

  it('refuses a bad --before, an unknown event, one already started, and a foreign link, clearly', async () => {
    const event = scheduleEvent();
    const bot = await startBot({ start: false });
    for (const value of ['0', '1441', 'soon']) {
      const reply = await bot.ask(`remind ${event.id} --before ${value}`);
      expect(reply.error?.code).toBe('command_usage');
      expect(reply.text).toContain('--before');
    }
    expect((await bot.ask(`remind ${event.id} --before 0`)).text).toContain('between 1 and 1440 minutes');
    const unknown = await bot.ask('remind 987654321');
    expect(unknown.error?.code).toBe('not_found');
    expect(unknown.text).toContain('no live event with id 987654321');
    const foreign = await bot.ask('remind https://evil.example/live/ai-office-hours');
    expect(foreign.text).toContain('evil.example is not the directory');

    clock.advance(3 * 60 * MINUTE + MINUTE);
    const started = await bot.ask(`remind ${event.id}`);
    expect(started.text).toContain('"AI office hours" has already started');
    expect(await bot.store.keyv.get(REMINDERS_KEY)).toBeUndefined();
  });

  it("counts a search for an unlisted event against the person's lookup allowance", async () => {
    const bot = await startBot({ start: false });
    const answers = [];
    // Nothing is listed yet (the poller is not running), so every id is looked for upstream.
    for (let n = 0; n < 12; n += 1) answers.push(await bot.ask(`remind ${900000 + n}`));
    expect(answers.slice(0, 10).map((a) => a.error?.code)).toEqual(Array(10).fill('not_found'));
    expect(answers.at(-1)?.error?.code).toBe('command_rate_limited');
    expect(answers.at(-1)?.text).toContain('Try again in');
    // Someone else still has their own allowance.
    expect((await bot.ask('remind 999999', 'slack', 'U0BOB')).error?.code).toBe('not_found');
  });

  it('holds at most 25 pending reminders per person, and says how to make room', async () => {
    const events = Array.from({ length: 26 }, (_, n) => scheduleEvent(`Event ${n}`, START + n * MINUTE));
    const bot = await startBot({ start: false });
    for (const event of events.slice(0, 25)) {
      expect((await bot.ask(`remind ${event.id}`)).error).toBeUndefined();
      // Past the per-person lookup allowance (10 a minute): these are looked up upstream.
      clock.advance(7_000);
    }
    const full = await bot.ask(`remind ${events[25]?.id}`);
    expect(full.error?.code).toBe('command_usage');
    expect(full.text).toContain('You have 25 reminders already');
    expect((await bot.store.keyv.get<Reminder[]>(REMINDERS_KEY))?.length).toBe(25);
    expect((await bot.ask(`remind ${events[25]?.id}`, 'slack', 'U0BOB')).error).toBeUndefined();
  });

  it('DMs the person on Slack at the right time, once, through conversations.open', async () => {
    const event = scheduleEvent();
    const bot = await startBot();
    await bot.ask(`remind ${event.id} --before 10`);

    clock.set(START - 11 * MINUTE);
    await bot.engine.reminderRunner.runOnce();
    expect(slack.callsTo('conversations.open')).toEqual([]);

    clock.set(START - 10 * MINUTE);
    await eventually(() => slackDms().length === 1, 5000, 'the reminder DM');
    const [open] = slack.callsTo('conversations.open');
    expect(open?.params['users']).toBe(ALICE);
    const [dm] = slackDms();
    expect(JSON.stringify(dm?.params['blocks'])).toContain('Starting in 10 minutes: AI office hours');
    expect(JSON.stringify(dm?.params['blocks'])).not.toContain('Sent late');
    expect(slack.violations).toEqual([]);

    // Further ticks find nothing: the reminder went with its DM.
    clock.advance(MINUTE);
    await bot.engine.reminderRunner.runOnce();
    await bot.engine.dispatcher.drained();
    expect(slackDms()).toHaveLength(1);
    expect((await bot.ask('remind list')).text).toContain('You have no reminders');
  });

  it('still sends after a restart before the time, and late (marked, once) when it was down at the time', async () => {
    const event = scheduleEvent();
    const first = await startBot({ start: false });
    await first.ask(`remind ${event.id} --before 10`, 'discord', DISCORD_ALICE);
    await first.ask(`remind ${event.id} --before 60`);
    await first.close();

    // Down until well past the 60-minute reminder's time, not yet at the 10-minute one.
    clock.set(START - 30 * MINUTE);
    const second = await startBot();
    await eventually(() => slackDms().length === 1, 5000, 'the late Slack reminder');
    const late = JSON.stringify(slackDms()[0]?.params['blocks']);
    expect(late).toContain('Sent late: the bot was not running when this reminder was due');
    expect(late).toContain('Starting in 30 minutes');
    expect(discordDms()).toEqual([]);

    clock.set(START - 10 * MINUTE);
    await eventually(() => discordDms().length === 1, 5000, 'the punctual Discord reminder');
    const [open] = discord.callsTo('POST', '/users/@me/channels');
    expect(open?.body).toEqual({ recipient_id: DISCORD_ALICE });
    const body = JSON.stringify(discordDms()[0]?.body);
    expect(body).toContain('Starting in 10 minutes: AI office hours');
    expect(body).not.toContain('Sent late');
    expect(discord.problems).toEqual([]);

    clock.advance(5 * MINUTE);
    await second.engine.reminderRunner.runOnce();
    await second.engine.dispatcher.drained();
    expect(slackDms()).toHaveLength(1);
    expect(discordDms()).toHaveLength(1);
    expect(second.events).toContainEqual(
      expect.objectContaining({ source: 'reminders', type: 'queued', late: true }),
    );
  });

  it('never sends a reminder twice with two instances on one store', async () => {
    const event = scheduleEvent();
    const a = await startBot();
    const b = await startBot();
    await a.ask(`remind ${event.id}`);
    await b.ask(`remind ${event.id} --before 20`, 'slack', 'U0BOB');
    clock.set(START - 5 * MINUTE);
    await eventually(() => slackDms().length === 2, 5000, 'both reminders');
    // Give the standby instance time to tick too, had it been polling.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await a.engine.dispatcher.drained();
    await b.engine.dispatcher.drained();
    expect(slackDms()).toHaveLength(2);
    expect(
      slack
        .callsTo('conversations.open')
        .map((c) => c.params['users'])
        .sort(),
    ).toEqual([ALICE, 'U0BOB']);
    expect([a.engine.leader.isLeader, b.engine.leader.isLeader].filter(Boolean)).toHaveLength(1);
  });

  it('drops a Discord DM the person refuses (50007) without retrying, and keeps delivering channels', async () => {
    const event = scheduleEvent();
    discord.dms.closedDms.add(DISCORD_ALICE);
    discord.addChannel('300000000000000002', 'ok', GUILD);
    const bot = await startBot();
    await bot.ask(`remind ${event.id}`, 'discord', DISCORD_ALICE);
    clock.set(START - 10 * MINUTE);
    await eventually(
      () => bot.events.some((e) => e.source === 'dispatcher' && e.type === 'dropped'),
      5000,
      'the refused DM dropped',
    );
    const dropped = bot.events.filter((e) => e.source === 'dispatcher' && e.type === 'dropped');
    expect(dropped).toEqual([expect.objectContaining({ code: 'cannot_message_user' })]);
    clock.advance(10 * MINUTE);
    await bot.engine.reminderRunner.runOnce();
    await bot.engine.dispatcher.drained();
    expect(discordDms()).toHaveLength(1);
    expect(bot.events.some((e) => e.source === 'dispatcher' && e.type === 'rejected')).toBe(false);
    expect(await bot.engine.subscriptions.list()).toEqual([]);
  });

  it('escapes a hostile event name in the reply and in both DMs', async () => {
    const event = scheduleEvent('Launch <!channel> @everyone <@U0VICTIM> @here');
    const bot = await startBot();
    const reply = await bot.ask(`remind ${event.id}`);
    expect(reply.error).toBeUndefined();
    await bot.ask(`remind ${event.id}`, 'discord', DISCORD_ALICE);
    clock.set(START - 10 * MINUTE);
    await eventually(() => slackDms().length === 1 && discordDms().length === 1, 5000, 'both DMs');
    const slackText = JSON.stringify(slackDms()[0]?.params);
    expect(slackText).not.toContain('<!channel>');
    expect(slackText).not.toContain('<@U0VICTIM>');
    const discordBody = discordDms()[0]?.body as { allowed_mentions?: unknown };
    expect(discordBody.allowed_mentions).toEqual({ parse: [] });
    expect(JSON.stringify(discordBody)).not.toMatch(/(^|[^\u200b])@(everyone|here)/);
    expect(slack.violations).toEqual([]);
    expect(discord.problems).toEqual([]);
  });

  it('re-times a reminder when the live feed lists the event at a new start, and says so', async () => {
    const event = scheduleEvent();
    const bot = await startBot({ start: false });
    await bot.ask(`remind ${event.id}`);
    // What the live feed stores after a poll that saw the event moved an hour later.
    const moved = new Date(START + 60 * MINUTE).toISOString();
    const stateKey = directoryKeys(bot.directoryId).feedState('live');
    const listed = [
      { id: event.id, name: 'AI office hours', startsAt: moved, liveVideo: true, url: event.url },
    ];
    const state: LiveFeedState = { seen: [event.id], upcoming: listed };
    await bot.store.keyv.set(stateKey, state);
    await bot.engine.outbox.load();
    bot.engine.dispatcher.start();

    clock.set(START - 10 * MINUTE);
    expect(await bot.engine.reminderRunner.runOnce()).toBe(0);
    expect((await bot.ask('remind list')).messages[0]?.fields).toContainEqual(
      expect.objectContaining({ name: 'Starts', value: expect.stringContaining('16:37 UTC') }),
    );
    clock.set(START + 50 * MINUTE);
    expect(await bot.engine.reminderRunner.runOnce()).toBe(1);
    await bot.engine.dispatcher.drained();
    expect(JSON.stringify(slackDms()[0]?.params['blocks'])).toContain('The event moved: it was to start');
  });

  it('says the event may be cancelled when the listing no longer shows it but shows later ones', async () => {
    const event = scheduleEvent();
    const bot = await startBot({ start: false });
    await bot.ask(`remind ${event.id}`);
    const later = {
      id: '999',
      name: 'Later',
      startsAt: new Date(START + 120 * MINUTE).toISOString(),
      liveVideo: false,
    };
    const state: LiveFeedState = { seen: ['999'], upcoming: [later] };
    await bot.store.keyv.set(directoryKeys(bot.directoryId).feedState('live'), state);
    await bot.engine.outbox.load();
    bot.engine.dispatcher.start();
    clock.set(START - 10 * MINUTE);
    expect(await bot.engine.reminderRunner.runOnce()).toBe(1);
    await bot.engine.dispatcher.drained();
    expect(JSON.stringify(slackDms()[0]?.params['blocks'])).toContain('it may have been cancelled or moved');
  });

  it('is exported with the workspace and forgotten with it', async () => {
    const event = scheduleEvent();
    const bot = await startBot({ start: false });
    await bot.ask(`remind ${event.id}`);
    const exported = await exportWorkspace({ store: bot.store }, { platform: 'slack', id: TEAM });
    expect(exported.reminders).toEqual([expect.objectContaining({ userId: ALICE, eventId: event.id })]);
    const report = await forgetWorkspace(
      { store: bot.store },
      { platform: 'slack', id: TEAM },
      { dryRun: false },
    );
    expect(report.counts.reminders).toBe(1);
    expect((await exportWorkspace({ store: bot.store }, { platform: 'slack', id: TEAM })).reminders).toEqual(
      [],
    );
  });
});
