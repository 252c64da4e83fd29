import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load-config.js';
import { makeTempDir } from '../support/temp-dir.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());

function load(environment: Record<string, string>) {
  return loadConfig({ environment, envFile: false });
}

function problemsOf(environment: Record<string, string>): string[] {
  try {
    load(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loading the configuration', () => {
  it('runs the sandbox with nothing set: port 3000, SQLite, emulator, no chat platforms', () => {
    const config = load({});
    expect(config.server.port).toBe(3000);
    expect(config.store).toEqual({ url: 'sqlite://./data/directory-bot.sqlite', source: 'default' });
    expect(config.directory.baseUrl).toBeUndefined();
    expect(config.slack).toBeUndefined();
    expect(config.discord).toBeUndefined();
    expect(config.feeds.dedupeTtlMs).toBe(30 * 86_400_000);
    expect(config.directory.lookupReserveFraction).toBe(0.2);
  });

  it('names PORT and what it expects when PORT is not a number', () => {
    expect(problemsOf({ PORT: 'abc' })).toEqual(['PORT: expected a whole number from 0 to 65535']);
  });

  it('reports every bad variable at once, one line each', () => {
    const problems = problemsOf({
      PORT: '-1',
      LOG_LEVEL: 'loud',
      STORE_URL: 'mysql://x',
      DIRECTORY_BASE_URL: 'nope',
    });
    expect(problems).toHaveLength(4);
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'PORT',
      'LOG_LEVEL',
      'STORE_URL',
      'DIRECTORY_BASE_URL',
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
    expect(problemsOf({ SLACK_BOT_TOKEN: 'xoxb-1-2-3' })).toEqual([
      'SLACK_SIGNING_SECRET: required to verify requests from Slack when Slack is configured',
    ]);
  });

  it('accepts a complete single-workspace Slack setup', () => {
    const config = load({ SLACK_BOT_TOKEN: 'xoxb-1-2-3', SLACK_SIGNING_SECRET: 'shh-secret' });
    expect(config.slack).toMatchObject({
      botToken: 'xoxb-1-2-3',
      apiUrl: 'https://slack.com/api/',
      oauth: undefined,
    });
  });

  it('refuses a bot token together with multi-workspace OAuth, naming both sides', () => {
    const problems = problemsOf({
      SLACK_BOT_TOKEN: 'xoxb-1-2-3',
      SLACK_SIGNING_SECRET: 'shh-secret',
      SLACK_CLIENT_ID: '123.456',
      SLACK_CLIENT_SECRET: 'client-secret',
      SLACK_STATE_SECRET: 'state-secret',
    });
    expect(problems).toEqual([
      expect.stringMatching(/^SLACK_BOT_TOKEN: leave it unset with multi-workspace OAuth/),
    ]);
  });

  it('checks Discord ids and keys for their shape', () => {
    const problems = problemsOf({
      DISCORD_TOKEN: 't',
      DISCORD_APPLICATION_ID: '12ab',
      DISCORD_PUBLIC_KEY: 'xyz',
    });
    expect(problems).toEqual([
      'DISCORD_APPLICATION_ID: expected a Discord snowflake (17 to 20 digits)',
      'DISCORD_PUBLIC_KEY: expected 64 hexadecimal characters',
    ]);
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
