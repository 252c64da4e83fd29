import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configProblems, loadConfig } from '../../src/config/load-config.js';
import { BotError, isBotError } from '../../src/errors.js';
import { makeTempDir } from '../support/temp-dir.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());

function load(environment: Record<string, string>) {
  return loadConfig({ environment, envFile: false });
}

/** A real directory, which every configuration with a chat platform needs. */
const DIRECTORY = { DIRECTORY_BASE_URL: 'https://directory.example.com', DIRECTORY_TOKEN: 'dir-token' };

function problemsOf(environment: Record<string, string>): readonly string[] {
  try {
    load(environment);
  } catch (error) {
    const problems = configProblems(error);
    if (problems) return problems;
    throw error;
  }
  throw new Error('expected a configuration error');
}

describe('loading the configuration', () => {
  it('runs the sandbox with nothing set: port 3000, SQLite, emulator, no chat platforms', () => {
    const config = load({});
    expect(config.server.port).toBe(3000);
    expect(config.sandbox.enabled).toBe(true);
    // Its own file: invented data never shares a file with a real directory's state.
    expect(config.store).toEqual({ url: 'sqlite://./data/sandbox.sqlite', source: 'default' });
    expect(config.directory.baseUrl).toBeUndefined();
    expect(config.slack).toBeUndefined();
    expect(config.discord).toBeUndefined();
    expect(config.feeds.dedupeTtlMs).toBe(30 * 86_400_000);
    expect(config.directory.lookupReserveFraction).toBe(0.2);
  });

  it('names PORT, what it expects and the value it got when PORT is not a number', () => {
    expect(problemsOf({ PORT: 'abc' })).toEqual(['PORT: expected a whole number from 0 to 65535, got "abc"']);
  });

  it('reports a bad PORT and a malformed SUBSCRIPTIONS in the same run', () => {
    expect(problemsOf({ PORT: 'abc', SUBSCRIPTIONS: 'garbage' })).toEqual([
      'PORT: expected a whole number from 0 to 65535, got "abc"',
      'SUBSCRIPTIONS: "garbage": expected platform:channel=feed[?filters], e.g. slack:C0123ABCD=comments',
    ]);
  });

  it('reports bad values and missing companions together', () => {
    const problems = problemsOf({
      ...DIRECTORY,
      LOG_LEVEL: 'loud',
      SLACK_BOT_TOKEN: 'xoxb-1-2-3',
      DISCORD_PUBLIC_KEY: 'xyz',
    });
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'LOG_LEVEL',
      'DISCORD_PUBLIC_KEY',
      'SLACK_SIGNING_SECRET',
      'DISCORD_APPLICATION_ID',
      'DISCORD_TOKEN',
    ]);
  });

  it('never says a variable’s name twice in its line', () => {
    const problems = problemsOf({
      PORT: '99999',
      DIRECTORY_BASE_URL: 'nope',
      DIRECTORY_TOKEN: 'dir-token',
      SLACK_API_URL: 'ftp://slack.example',
      SLACK_BOT_TOKEN: 'xoxb-1-2-3',
      SLACK_SIGNING_SECRET: 'shh-secret',
      DISCORD_API_URL: 'discord',
      DISCORD_TOKEN: 'token',
      DISCORD_APPLICATION_ID: '112233445566778899',
      NOTIFICATIONS_CLEAR: 'maybe',
    });
    expect(problems).toHaveLength(5);
    for (const line of problems) {
      const name = line.slice(0, line.indexOf(':'));
      expect(line.slice(name.length), line).not.toContain(name);
    }
    expect(problems).toContain('DIRECTORY_BASE_URL: expected an absolute http(s) URL, got "nope"');
  });

  it('quotes a bad value back, but never a secret one', () => {
    const problems = problemsOf({
      LOG_LEVEL: 'loud',
      REDIS_URL: 'mysql://user:hunter2@db.example',
      SLACK_BOT_TOKEN: 'abc-not-a-bot-token',
      SLACK_SIGNING_SECRET: 'shh-secret',
    });
    expect(problems).toContain(
      'LOG_LEVEL: expected one of trace, debug, info, warn, error, fatal, silent, got "loud"',
    );
    expect(problems.join('\n')).not.toMatch(/hunter2|mysql|abc-not-a-bot-token/);
  });

  it('masks the password of a store URL it quotes back', () => {
    expect(problemsOf({ STORE_URL: 'mysql://bot:hunter2@db.example/bot' })).toEqual([
      'STORE_URL: expected a URL starting with sqlite://, redis://, rediss://, postgres:// or postgresql://, got "mysql://bot:***@db.example/bot"',
    ]);
  });

  it('throws a BotError with code config_invalid, as every other error in the project', () => {
    try {
      load({ PORT: 'abc' });
      expect.unreachable();
    } catch (error) {
      expect(isBotError(error, 'config_invalid')).toBe(true);
    }
    const refused = new BotError('config_invalid', 'SLACK_BOT_TOKEN: refused by Slack (invalid_auth)');
    expect(configProblems(refused)).toEqual(['SLACK_BOT_TOKEN: refused by Slack (invalid_auth)']);
    expect(configProblems(new BotError('internal', 'boom'))).toBeUndefined();
  });

  it('reports every bad variable at once, one line each', () => {
    const problems = problemsOf({
      PORT: '-1',
      LOG_LEVEL: 'loud',
      STORE_URL: 'mysql://x',
      DIRECTORY_BASE_URL: 'nope',
    });
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'PORT',
      'LOG_LEVEL',
      'STORE_URL',
      'DIRECTORY_BASE_URL',
      'DIRECTORY_TOKEN',
    ]);
  });

  it('prefers STORE_URL, then REDIS_URL, then DATABASE_URL', () => {
    const both = { REDIS_URL: 'redis://r:6379', DATABASE_URL: 'postgres://p/db' };
    expect(load(both).store).toEqual({ url: 'redis://r:6379', source: 'REDIS_URL' });
    expect(load({ DATABASE_URL: 'postgres://p/db' }).store.source).toBe('DATABASE_URL');
    expect(load({ ...both, STORE_URL: 'sqlite://./x.sqlite' }).store.source).toBe('STORE_URL');
  });

  it('requires a token with a real directory', () => {
    expect(problemsOf({ DIRECTORY_BASE_URL: 'https://directory.example.com' })[0]).toMatch(
      /^DIRECTORY_TOKEN: required/,
    );
  });

  it('requires the signing secret when Slack is configured', () => {
    expect(problemsOf({ ...DIRECTORY, SLACK_BOT_TOKEN: 'xoxb-1-2-3' })).toEqual([
      'SLACK_SIGNING_SECRET: required to verify requests from Slack when Slack is configured',
    ]);
  });

  it('accepts a complete single-workspace Slack setup', () => {
    const config = load({ ...DIRECTORY, SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_SIGNING_SECRET: 'shh-secret' });
    expect(config.sandbox.enabled).toBe(false);
    expect(config.store).toEqual({ url: 'sqlite://./data/directory-bot.sqlite', source: 'default' });
    expect(config.slack).toMatchObject({
      botToken: 'xoxb-1-2-3',
      apiUrl: 'https://slack.com/api/',
      workspaceMessagesPerMinute: 240,
      oauth: undefined,
    });
  });

  it('takes the Slack workspace pace from SLACK_WORKSPACE_MESSAGES_PER_MINUTE, and refuses zero', () => {
    const slack = { ...DIRECTORY, SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_SIGNING_SECRET: 'shh-secret' };
    expect(load({ ...slack, SLACK_WORKSPACE_MESSAGES_PER_MINUTE: '600' }).slack).toMatchObject({
      workspaceMessagesPerMinute: 600,
    });
    expect(problemsOf({ ...slack, SLACK_WORKSPACE_MESSAGES_PER_MINUTE: '0' })[0]).toMatch(
      /^SLACK_WORKSPACE_MESSAGES_PER_MINUTE: /,
    );
  });

  it('refuses a bot token together with multi-workspace OAuth, naming both sides', () => {
    const problems = problemsOf({
      ...DIRECTORY,
      SLACK_BOT_TOKEN: 'xoxb-1-2-3',
      SLACK_SIGNING_SECRET: 'shh-secret',
      SLACK_CLIENT_ID: '123.456',
      SLACK_CLIENT_SECRET: 'client-secret',
      SLACK_STATE_SECRET: 'state-secret',
      STORE_ENCRYPTION_KEY: 'A'.repeat(43) + '=',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^SLACK_BOT_TOKEN: leave it unset with multi-workspace OAuth/),
    ]);
  });

  it('checks Discord ids and keys for their shape', () => {
    const problems = problemsOf({
      ...DIRECTORY,
      DISCORD_TOKEN: 't',
      DISCORD_APPLICATION_ID: '12ab',
      DISCORD_PUBLIC_KEY: 'xyz',
    });
    expect(problems).toEqual([
      'DISCORD_APPLICATION_ID: expected a Discord snowflake (17 to 20 digits), got "12ab"',
      'DISCORD_PUBLIC_KEY: expected 64 hexadecimal characters, got "xyz"',
    ]);
  });

  it('takes the restricted Discord command name from DISCORD_ADMIN_COMMAND', () => {
    const discord = { ...DIRECTORY, DISCORD_TOKEN: 'token', DISCORD_APPLICATION_ID: '112233445566778899' };
    expect(load(discord).discord?.restrictedCommandName).toBeUndefined();
    expect(load({ ...discord, DISCORD_ADMIN_COMMAND: 'Directory-Admin' }).discord).toMatchObject({
      restrictedCommandName: 'directory-admin',
    });
    expect(problemsOf({ ...discord, DISCORD_ADMIN_COMMAND: 'directory' })).toEqual([
      'DISCORD_ADMIN_COMMAND: expected a name other than directory (the main command), got "directory"',
    ]);
    expect(problemsOf({ ...discord, DISCORD_ADMIN_COMMAND: 'directory admin' })[0]).toMatch(
      /^DISCORD_ADMIN_COMMAND: expected a command name/,
    );
  });

  it('refuses Slack or Discord without a real directory, naming DIRECTORY_BASE_URL and SANDBOX=true', () => {
    const slack = { SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_SIGNING_SECRET: 'shh-secret' };
    const discord = { DISCORD_TOKEN: 'discord-token', DISCORD_APPLICATION_ID: '112233445566778899' };
    for (const platform of [slack, discord]) {
      const problems = problemsOf(platform);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/^DIRECTORY_BASE_URL: required with Slack, Discord or a webhook/);
      expect(problems[0]).toContain('SANDBOX=true');
    }
  });

  it('runs the demo into a platform when SANDBOX=true asks for it, on the sandbox store', () => {
    const config = load({ SANDBOX: 'true', SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_SIGNING_SECRET: 'shh' });
    expect(config.sandbox.enabled).toBe(true);
    expect(config.directory.baseUrl).toBeUndefined();
    expect(config.slack?.botToken).toBe('xoxb-1-2-3');
    expect(config.store.url).toBe('sqlite://./data/sandbox.sqlite');
  });

  it('refuses SANDBOX=true together with a real directory, and SANDBOX=false without one', () => {
    expect(problemsOf({ ...DIRECTORY, SANDBOX: 'true' })).toEqual([
      expect.stringMatching(/^SANDBOX: true runs the embedded emulator, but DIRECTORY_BASE_URL/),
    ]);
    expect(problemsOf({ SANDBOX: 'false' })).toEqual([
      expect.stringMatching(/^DIRECTORY_BASE_URL: required with SANDBOX=false/),
    ]);
    expect(load({ ...DIRECTORY, SANDBOX: 'false' }).sandbox.enabled).toBe(false);
  });

  it('does not call a malformed DIRECTORY_BASE_URL or SANDBOX missing as well', () => {
    const slack = { SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_SIGNING_SECRET: 'shh-secret' };
    expect(problemsOf({ ...slack, DIRECTORY_BASE_URL: 'nope', DIRECTORY_TOKEN: 'dir-token' })).toEqual([
      expect.stringMatching(/^DIRECTORY_BASE_URL: expected an absolute http\(s\) URL/),
    ]);
    expect(problemsOf({ ...slack, SANDBOX: 'maybe' })).toEqual([
      'SANDBOX: expected true or false, got "maybe"',
    ]);
  });

  it('keeps an explicitly chosen store in the sandbox', () => {
    const config = load({ STORE_URL: 'sqlite://./mine.sqlite' });
    expect(config.sandbox.enabled).toBe(true);
    expect(config.store).toEqual({ url: 'sqlite://./mine.sqlite', source: 'STORE_URL' });
  });

  it('parses static subscriptions with their filters', () => {
    const config = load({
      SUBSCRIPTIONS:
        'slack:C0123ABCD=comments?keyword=ai,ml&exclude=crypto; discord:112233445566778899=live?video=true&remind=10',
    });
    expect(config.feeds.subscriptions).toEqual([
      {
        platform: 'slack',
        channelId: 'C0123ABCD',
        feed: 'comments',
        filters: { keywords: ['ai', 'ml'], exclude: ['crypto'] },
      },
      {
        platform: 'discord',
        channelId: '112233445566778899',
        feed: 'live',
        filters: { video: true, remindMinutes: 10 },
      },
    ]);
  });

  it('names the malformed SUBSCRIPTIONS entry and why', () => {
    const problems = problemsOf({
      SUBSCRIPTIONS: 'slack:C0123ABCD=comments;slack:C0123ABCD=tweets;discord:1=live',
    });
    expect(problems).toEqual([
      'SUBSCRIPTIONS: "slack:C0123ABCD=tweets": unknown feed "tweets" (posts, comments, collections, live or notifications)',
      'SUBSCRIPTIONS: "discord:1=live": "1" is not a Discord channel id (17 to 20 digits)',
    ]);
  });

  it('reads format=full|compact|title beside the filters, as how items look rather than which', () => {
    const config = load({
      SUBSCRIPTIONS:
        'slack:C0123ABCD=comments?format=compact&keyword=ai;console:demo=posts?format=title;console:demo=live?format=full',
    });
    const routes = config.feeds.subscriptions.map((s) => [s.channelId, s.feed, s.filters, s.format]);
    expect(routes).toEqual([
      ['C0123ABCD', 'comments', { keywords: ['ai'] }, 'compact'],
      ['demo', 'posts', {}, 'title'],
      ['demo', 'live', {}, 'full'],
    ]);
    // Without format= an entry names none: the subscription is full, as before formats existed.
    expect(load({ SUBSCRIPTIONS: 'console:demo=posts' }).feeds.subscriptions[0]).not.toHaveProperty('format');
    expect(problemsOf({ SUBSCRIPTIONS: 'slack:C0123ABCD=comments?format=tiny' })).toEqual([
      'SUBSCRIPTIONS: "slack:C0123ABCD=comments?format=tiny": format expects full, compact or title, got "tiny"',
    ]);
  });

  it('reads the schedule options of an entry as /directory subscribe does', () => {
    const config = load({
      SUBSCRIPTIONS:
        'slack:C0123ABCD=posts?digest=daily@09:00&top=5&tz=Asia/Tokyo&quiet=22:00-07:00&digest-empty=true&min-votes=10;' +
        'console:demo=live?quiet=23:00-06:30&quiet-strict=true&max-per-hour=10&max-per-day=50',
    });
    expect(config.feeds.subscriptions.map((s) => [s.feed, s.filters, s.schedule])).toEqual([
      [
        'posts',
        { minVotes: 10 },
        {
          digest: { every: 'daily', at: { hour: 9, minute: 0 } },
          top: 5,
          digestEmpty: true,
          quiet: { from: { hour: 22, minute: 0 }, to: { hour: 7, minute: 0 } },
          timeZone: 'Asia/Tokyo',
        },
      ],
      [
        'live',
        {},
        {
          quiet: { from: { hour: 23, minute: 0 }, to: { hour: 6, minute: 30 } },
          quietStrict: true,
          maxPerHour: 10,
          maxPerDay: 50,
        },
      ],
    ]);
    expect(load({ SUBSCRIPTIONS: 'console:demo=posts' }).feeds.subscriptions[0]).not.toHaveProperty(
      'schedule',
    );
  });

  it('names the entry and the schedule option that is wrong, with what it accepts', () => {
    expect(
      problemsOf({
        SUBSCRIPTIONS: [
          'console:a=posts?digest=daily@25:00',
          'console:b=posts?digest=hourly&top=500',
          'console:c=posts?quiet=22:00-22:00',
          'console:d=posts?digest=hourly&tz=Europe/Berln',
          'console:e=comments?digest=hourly&top=3',
          'console:f=posts?digest=hourly&digest=daily@09:00',
        ].join(';'),
      }),
    ).toEqual([
      'SUBSCRIPTIONS: "console:a=posts?digest=daily@25:00": digest: 25:00 is not a time of day (00:00 to 23:59)',
      'SUBSCRIPTIONS: "console:b=posts?digest=hourly&top=500": top must be a whole number from 1 to 50, got "500"',
      'SUBSCRIPTIONS: "console:c=posts?quiet=22:00-22:00": quiet: 22:00-22:00 is empty: the window must end at another time than it starts',
      'SUBSCRIPTIONS: "console:d=posts?digest=hourly&tz=Europe/Berln": tz: "Europe/Berln" is not an IANA time zone (like Europe/Berlin, America/New_York or UTC). Did you mean Europe/Berlin?',
      'SUBSCRIPTIONS: "console:e=comments?digest=hourly&top=3": top ranks posts by votes: it applies to the posts feed only, not comments',
      'SUBSCRIPTIONS: "console:f=posts?digest=hourly&digest=daily@09:00": digest is given more than once',
    ]);
  });

  it('rejects a filter that does not apply to the feed', () => {
    expect(problemsOf({ SUBSCRIPTIONS: 'slack:C0123ABCD=comments?video=true' })[0]).toContain(
      'filter video does not apply to the comments feed',
    );
  });

  it('reads a .env file, but real environment variables win', () => {
    const file = join(temp.path, '.env');
    writeFileSync(file, 'PORT=4100\nLOG_LEVEL=debug\n');
    const config = loadConfig({ environment: { LOG_LEVEL: 'warn' }, envFile: file });
    expect(config.server.port).toBe(4100);
    expect(config.server.logLevel).toBe('warn');
  });

  it('treats an empty value as unset', () => {
    expect(load({ PORT: '', SLACK_BOT_TOKEN: '' }).server.port).toBe(3000);
  });

  it('collects secret values, including a store password, for the log scrubber', () => {
    const config = load({
      DIRECTORY_BASE_URL: 'https://d.example.com',
      DIRECTORY_TOKEN: 'dir-token-123456',
      REDIS_URL: 'rediss://:p4ssw0rd@redis.example.com:6380',
    });
    expect(config.secrets).toEqual(expect.arrayContaining(['dir-token-123456', 'p4ssw0rd']));
  });
});
