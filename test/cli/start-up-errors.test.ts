import { connect, createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDeadline } from '../../src/ports/deadline.js';
import { type ChildBot, spawnBot } from '../support/child-bot.js';
import { type LivePlatforms, SLACK_TOKEN, startLivePlatforms } from '../support/live-platforms.js';
import { makeTempDir } from '../support/temp-dir.js';

const temp = makeTempDir();
let platforms: LivePlatforms;
beforeAll(async () => {
  platforms = await startLivePlatforms();
});
afterAll(async () => {
  await platforms.close();
  temp.cleanup();
});

let storeSeq = 0;
function storeFile(): string {
  storeSeq += 1;
  return join(temp.path, `start-up-${storeSeq}.sqlite`);
}

/** The exit code, or 'still running' when the bot has not exited within `ms` (it is then killed). */
async function exitWithin(bot: ChildBot, ms = 20_000): Promise<number | null | 'still running'> {
  const result = await withDeadline(
    bot.exited.then((exit) => exit.code),
    ms,
    () => 'still running' as const,
  );
  if (result === 'still running') {
    bot.child.kill('SIGKILL');
    await bot.exited;
  }
  return result;
}

function linesNaming(output: string, variable: string): string[] {
  return output.split('\n').filter((line) => line.includes(variable));
}

/** A stack trace line, as Node prints them. */
const STACK_LINE = /^\s+at .+[:(]/m;

describe('a token the platform refuses at start-up', () => {
  it.each(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked'])(
    'SLACK_BOT_TOKEN refused by auth.test with %s: exit 78 and one line naming the variable',
    async (code) => {
      platforms.slack.refuseNext('auth.test', code);
      const bot = spawnBot(['start'], { ...platforms.env(storeFile()), PORT: '0' });
      expect(await exitWithin(bot)).toBe(78);
      const output = bot.output();
      const lines = linesNaming(output, 'SLACK_BOT_TOKEN');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`SLACK_BOT_TOKEN: refused by Slack \\(${code}\\)`));
      expect(output).not.toMatch(STACK_LINE);
      expect(output).not.toContain(SLACK_TOKEN);
    },
    30_000,
  );

  it.each(['true', 'false'])(
    'DISCORD_TOKEN refused with 401 (DISCORD_GATEWAY=%s): exit 78 and one line naming the variable',
    async (gateway) => {
      const wrongToken = 'discord-token-that-was-reset';
      const bot = spawnBot(['start'], {
        ...platforms.env(storeFile()),
        PORT: '0',
        DISCORD_TOKEN: wrongToken,
        DISCORD_GATEWAY: gateway,
      });
      expect(await exitWithin(bot)).toBe(78);
      const output = bot.output();
      const lines = linesNaming(output, 'DISCORD_TOKEN');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/DISCORD_TOKEN: refused by Discord \(401 Unauthorized\)/);
      expect(output).not.toMatch(STACK_LINE);
      expect(output).not.toContain(wrongToken);
    },
    30_000,
  );

  it('a mention the platform cannot ping: exit 78 and a line naming SUBSCRIPTIONS', async () => {
    const bot = spawnBot(['start'], {
      ...platforms.env(storeFile()),
      PORT: '0',
      SUBSCRIPTIONS: 'slack:C0123ABCD=posts?mention=role:112233445566778899',
    });
    expect(await exitWithin(bot)).toBe(78);
    expect(linesNaming(bot.output(), 'SUBSCRIPTIONS')).toEqual([
      expect.stringContaining('slack cannot mention a role'),
    ]);
  }, 30_000);

  it('a webhook URL no kind takes: exit 78, a line naming its variable, the URL never printed', async () => {
    const url = 'https://hooks.example.com/some/path/SECRET-PART';
    const bot = spawnBot(['start'], {
      ...platforms.env(storeFile()),
      PORT: '0',
      WEBHOOK_NEWS_URL: url,
    });
    expect(await exitWithin(bot)).toBe(78);
    const output = bot.output();
    expect(linesNaming(output, 'WEBHOOK_NEWS_URL')).toEqual([
      expect.stringContaining(
        'WEBHOOK_NEWS_URL: not a Discord webhook, Slack webhook, Teams webhook, Mattermost webhook URL; for a generic JSON webhook, also set WEBHOOK_NEWS_SECRET',
      ),
    ]);
    expect(output).not.toContain('SECRET-PART');
    expect(output).not.toMatch(STACK_LINE);
  }, 30_000);

  it('both tokens refused: both reported in the same run', async () => {
    platforms.slack.refuseNext('auth.test', 'invalid_auth');
    const bot = spawnBot(['start'], {
      ...platforms.env(storeFile()),
      PORT: '0',
      DISCORD_TOKEN: 'another-wrong-token',
    });
    expect(await exitWithin(bot)).toBe(78);
    expect(linesNaming(bot.output(), 'SLACK_BOT_TOKEN')).toHaveLength(1);
    expect(linesNaming(bot.output(), 'DISCORD_TOKEN')).toHaveLength(1);
  }, 30_000);

  it('Slack failing (HTTP 500) at start-up is not a configuration error: the bot starts and becomes ready', async () => {
    platforms.slack.failNext('auth.test', 500);
    const bot = spawnBot(['start'], { ...platforms.env(storeFile()), PORT: '0' });
    try {
      const [, port] = await bot.waitFor(/listening on http:\/\/\S+:(\d+)/);
      await bot.waitFor(/directory bot ready/);
      expect(bot.output()).toContain('could not verify the Slack bot token; continuing');
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      bot.child.kill('SIGTERM');
      expect((await bot.exited).code).toBe(0);
    } finally {
      bot.child.kill('SIGKILL');
    }
  }, 30_000);
});

describe('the HTTP port', () => {
  it('a busy PORT is one line naming the port and what to do, exit 1, no stack trace', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const bot = spawnBot(['start'], { PORT: String(port), STORE_URL: `sqlite://${storeFile()}` });
      expect(await exitWithin(bot)).toBe(1);
      const output = bot.output();
      const lines = linesNaming(output, `PORT ${port}`);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`PORT ${port} is in use; set PORT to a free port`));
      expect(output).not.toMatch(STACK_LINE);
      expect(output).not.toContain('EADDRINUSE');
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  }, 30_000);

  it('the "listening on" line shows the address actually bound: every interface, as Heroku needs', async () => {
    const bot = spawnBot(['start'], { PORT: '0', STORE_URL: `sqlite://${storeFile()}` });
    try {
      const [, host, port] = await bot.waitFor(/listening on http:\/\/(\[[^\]]+\]|[^:/\s]+):(\d+)/);
      const everyInterface = host === '[::]' || host === '0.0.0.0';
      expect(everyInterface, `logged ${host}`).toBe(true);
      // What the line says is what is bound: reachable from outside loopback exactly when it claims so.
      const external = Object.values(networkInterfaces())
        .flat()
        .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal);
      if (external !== undefined) expect(await accepts(external.address, Number(port))).toBe(everyInterface);
      expect(await accepts('127.0.0.1', Number(port))).toBe(true);
      bot.child.kill('SIGTERM');
      expect((await bot.exited).code).toBe(0);
    } finally {
      bot.child.kill('SIGKILL');
    }
  }, 30_000);
});

/** Whether a TCP connection to `host:port` is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
