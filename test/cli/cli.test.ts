import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createQuotaLedger } from '../../src/directory/index.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { DirectoryReport } from '../../src/engine/index.js';
import { createStore, directoryIdFor, directoryKeys } from '../../src/store/index.js';
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import { spawnBot } from '../support/child-bot.js';
import { makeTempDir } from '../support/temp-dir.js';

const temp = makeTempDir();
afterAll(() => temp.cleanup());

describe('the directory-bot command', () => {
  it('lists every subcommand with --help', async () => {
    const bot = spawnBot(['--help']);
    expect((await bot.exited).code).toBe(0);
    for (const name of ['start', 'doctor']) expect(bot.output()).toContain(`  ${name}`);
  });

  it('prints the version of its package.json with --version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    const bot = spawnBot(['--version']);
    expect((await bot.exited).code).toBe(0);
    expect(bot.output().trim()).toBe(pkg.version);
  });

  it('exits 2 with a pointer to --help on an unknown subcommand', async () => {
    const bot = spawnBot(['frobnicate']);
    expect((await bot.exited).code).toBe(2);
    expect(bot.output()).toContain('Unknown subcommand "frobnicate"');
  });

  it('says an unknown top-level option is unknown instead of printing start’s usage', async () => {
    const bot = spawnBot(['--bogus']);
    expect((await bot.exited).code).toBe(2);
    expect(bot.output()).toContain('Unknown option "--bogus"');
    expect(bot.output()).not.toContain('Usage: directory-bot start');
  });

  it('shows the discord group’s help with discord --help, exit 0', async () => {
    const bot = spawnBot(['discord', '--help']);
    expect((await bot.exited).code).toBe(0);
    expect(bot.output()).toContain('Usage: directory-bot discord <subcommand>');
    expect(bot.output()).toContain('  discord register');
  });

  it('calls discord frob an unknown subcommand and lists the real ones', async () => {
    const bot = spawnBot(['discord', 'frob']);
    expect((await bot.exited).code).toBe(2);
    expect(bot.output()).toContain('Unknown subcommand "discord frob"');
    expect(bot.output()).toContain('  discord register');
  });

  it('exits 2 on an unknown option of a subcommand', async () => {
    const bot = spawnBot(['doctor', '--bogus']);
    expect((await bot.exited).code).toBe(2);
    expect(bot.output()).toContain('--bogus');
  });

  it('render --digest prints a digest of the records in a file, and exits 2 on a bad schedule', async () => {
    const posts = join(temp.path, 'posts.json');
    const post = (id: number, name: string, votesCount: number) => ({
      id: String(id),
      name,
      votesCount,
      createdAt: '2017-03-09T07:15:00Z',
      url: `https://www.example-directory.test/posts/${id}`,
    });
    writeFileSync(posts, JSON.stringify([post(1, 'Loom', 5), post(2, 'Engine', 9)]));
    const digest = spawnBot(['render', '-p', 'console', '--digest', 'hourly', '--top', '1', posts]);
    expect((await digest.exited).code).toBe(0);
    expect(digest.output()).toContain('Top 1 post · 07:00–08:00\n');
    expect(digest.output()).toContain('1. Engine — 9 votes');
    const bad = spawnBot(['render', '-p', 'slack', '--digest', 'daily@25:00', posts]);
    expect((await bad.exited).code).toBe(2);
    expect(bad.output()).toContain('--digest: 25:00 is not a time of day (00:00 to 23:59).');
  });

  it('refuses to start with exit 78 naming PORT when PORT=abc', async () => {
    const bot = spawnBot(['start'], { PORT: 'abc' });
    expect((await bot.exited).code).toBe(78);
    expect(bot.output()).toContain('PORT: expected a whole number');
  });

  it('reports every configuration problem of one start, one line each, with the bad value', async () => {
    const bot = spawnBot(['start'], { PORT: 'abc', SUBSCRIPTIONS: 'garbage' });
    expect((await bot.exited).code).toBe(78);
    const lines = bot.output().split('\n');
    expect(lines.filter((line) => /^\s+PORT: /.test(line))).toEqual([
      '  PORT: expected a whole number from 0 to 65535, got "abc"',
    ]);
    expect(lines.filter((line) => /^\s+SUBSCRIPTIONS: /.test(line))).toEqual([
      '  SUBSCRIPTIONS: "garbage": expected platform:channel=feed[?filters], e.g. slack:C0123ABCD=comments',
    ]);
  });

  it('a one-shot command reports a bad configuration as start does, under its own name', async () => {
    const bot = spawnBot(['workspace', 'export', 'slack:T0123'], { PORT: 'abc' });
    expect((await bot.exited).code).toBe(78);
    const lines = bot.output().split('\n');
    expect(lines).toContain('directory-bot workspace export: the configuration is invalid.');
    expect(lines).toContain('  PORT: expected a whole number from 0 to 65535, got "abc"');
    expect(lines).toContain('See .env.example for every variable and what it expects.');
  });

  it('doctor reports a reachable store and what is not configured', async () => {
    const bot = spawnBot(['doctor'], { STORE_URL: `sqlite://${join(temp.path, 'doctor.sqlite')}` });
    expect((await bot.exited).code).toBe(0);
    expect(bot.output()).toContain('✓ configuration is valid');
    expect(bot.output()).toMatch(/✓ store \(STORE_URL\): .* is readable and writable/);
    expect(bot.output()).toContain('slack: not configured');
    expect(bot.output()).toContain('! platforms: none configured: the bot will post nowhere but the console');
  });

  it('doctor does not warn about platforms when one is configured', async () => {
    const bot = spawnBot(['doctor'], {
      STORE_URL: `sqlite://${join(temp.path, 'doctor-slack.sqlite')}`,
      // A platform needs a directory, or the demo asked for by name.
      SANDBOX: 'true',
      SLACK_BOT_TOKEN: 'xoxb-1-2-3',
      SLACK_SIGNING_SECRET: 'shh-secret',
    });
    expect((await bot.exited).code).toBe(0);
    expect(bot.output()).toContain('✓ slack: single workspace');
    expect(bot.output()).not.toContain('platforms');
  });

  it('doctor lists every configuration problem at once and exits 78', async () => {
    const bot = spawnBot(['doctor'], { PORT: 'abc', LOG_LEVEL: 'loud' });
    expect((await bot.exited).code).toBe(78);
    expect(bot.output()).toContain('    PORT: expected a whole number from 0 to 65535, got "abc"');
    expect(bot.output()).toContain('    LOG_LEVEL: expected one of');
  });

  it('discord register puts subscribe under the command named by DISCORD_ADMIN_COMMAND', async () => {
    const rest = new FakeDiscordRest({ token: 'reg-token' });
    await rest.listen();
    try {
      const guild = '223344556677889900';
      const bot = spawnBot(['discord', 'register', '--guild', guild], {
        DIRECTORY_BASE_URL: 'https://directory.example.com',
        DIRECTORY_TOKEN: 'dir-token',
        DISCORD_TOKEN: 'reg-token',
        DISCORD_APPLICATION_ID: '112233445566778899',
        DISCORD_API_URL: rest.url,
        DISCORD_ADMIN_COMMAND: 'directory-admin',
      });
      expect((await bot.exited).code, bot.output()).toBe(0);
      const saved = (rest.commands.guilds.get(guild) ?? []) as {
        name: string;
        options?: { name: string }[];
      }[];
      expect(saved.map((command) => command.name)).toEqual(['directory', 'directory-admin']);
      const admin = saved.find((command) => command.name === 'directory-admin');
      expect(admin?.options?.map((option) => option.name)).toContain('subscribe');
    } finally {
      await rest.close();
    }
  });

  it('doctor checks the directory token against a real service', async () => {
    const emulator = await startEmulator({ port: 0 });
    try {
      const env = {
        STORE_URL: `sqlite://${join(temp.path, 'doctor2.sqlite')}`,
        DIRECTORY_BASE_URL: emulator.url,
      };
      const good = spawnBot(['doctor'], { ...env, DIRECTORY_TOKEN: 'dev-token' });
      expect((await good.exited).code).toBe(0);
      expect(good.output()).toContain('accepted the token');
      const bad = spawnBot(['doctor'], { ...env, DIRECTORY_TOKEN: 'wrong-token' });
      expect((await bad.exited).code).toBe(1);
      expect(bad.output()).toMatch(
        /✗ directory: \S+ refused DIRECTORY_TOKEN \(.*401.*\): set the access token/,
      );
      expect(bad.output()).not.toContain('wrong-token');
    } finally {
      await emulator.close();
    }
  });

  it("doctor says what the running bot's polling instance found: a token refused since it started", async () => {
    const emulator = await startEmulator({ port: 0 });
    const storeUrl = `sqlite://${join(temp.path, 'doctor-report.sqlite')}`;
    try {
      // What a poller whose token was revoked saved on its last round, a few seconds ago.
      const store = createStore({ url: storeUrl });
      const report: DirectoryReport = {
        at: Date.now() - 5000,
        quotas: createQuotaLedger().snapshot(),
        connection: {
          state: 'refused',
          since: Date.parse('2026-11-20T08:00:00Z'),
          detail: '401: unauthorized_oauth',
        },
      };
      await store.keyv.set(directoryKeys(directoryIdFor(emulator.url)).directoryReport, report);
      await store.close();
      const bot = spawnBot(['doctor'], {
        STORE_URL: storeUrl,
        DIRECTORY_BASE_URL: emulator.url,
        DIRECTORY_TOKEN: 'dev-token',
      });
      expect((await bot.exited).code).toBe(1);
      // doctor's own call succeeds with its token; the running bot's did not.
      expect(bot.output()).toContain('accepted the token');
      expect(bot.output()).toMatch(
        /✗ running bot: the directory refused DIRECTORY_TOKEN since 2026-11-20T08:00:00.000Z: 401: unauthorized_oauth \(reported \d+ s ago\)/,
      );
    } finally {
      await emulator.close();
    }
  });

  it('store migrate-keys has nothing to do on a SQLite store, and says so', async () => {
    const bot = spawnBot(['store', 'migrate-keys'], {
      STORE_URL: `sqlite://${join(temp.path, 'migrate.sqlite')}`,
    });
    expect((await bot.exited).code).toBe(0);
    expect(bot.output()).toContain('Nothing to migrate: only Redis stores had the doubled prefix');
  });

  it('doctor fails with a clear line when the store is unreachable', async () => {
    const bot = spawnBot(['doctor'], { STORE_URL: 'redis://127.0.0.1:1' });
    expect((await bot.exited).code).toBe(1);
    expect(bot.output()).toMatch(/✗ store \(STORE_URL\): The redis store is unreachable/);
  });
});

describe('the running bot', () => {
  it('answers /healthz soon after start and exits 0 on SIGTERM', async () => {
    const bot = spawnBot(['start'], {
      PORT: '0',
      STORE_URL: `sqlite://${join(temp.path, 'lifecycle.sqlite')}`,
    });
    const [, port] = await bot.waitFor(/listening on http:\/\/\S+:(\d+)/);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    await bot.waitFor(/store ready/);
    const exit = await bot.stop('SIGTERM');
    expect(exit.code).toBe(0);
    expect(bot.output()).toContain('stopped cleanly');
  });
});
