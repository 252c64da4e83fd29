import { connect, createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDeadline } from '../../src/ports/deadline.js';
import { type ChildBot, spawnBot } from '../support/child-bot.js';
import { type LivePlatforms, SLACK_TOKEN, startLivePlatforms } from '../support/live-platforms.js';
import { eventually } from '../support/polling.js';
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

/** A stack trace line, as Node prints them, or inside a JSON log line (after an escaped newline). */
const STACK_LINE = /(^|\\n)\s+at .+[:(]/m;

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

  /** Starts a bot, reads the address its "listening on" line names, and checks it is what is bound. */
  async function listeningOn(env: Record<string, string>): Promise<string> {
    const bot = spawnBot(['start'], { PORT: '0', STORE_URL: `sqlite://${storeFile()}`, ...env });
    try {
      const [, host, port] = await bot.waitFor(/listening on http:\/\/(\[[^\]]+\]|[^:/\s]+):(\d+)/);
      const everyInterface = host === '[::]' || host === '0.0.0.0';
      // What the line says is what is bound: reachable from outside loopback exactly when it claims so.
      const external = Object.values(networkInterfaces())
        .flat()
        .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal);
      if (external !== undefined) expect(await accepts(external.address, Number(port))).toBe(everyInterface);
      expect(await accepts('127.0.0.1', Number(port))).toBe(true);
      expect((await bot.stop('SIGTERM')).code).toBe(0);
      return host ?? '';
    } finally {
      bot.child.kill('SIGKILL');
    }
  }

  it('the sandbox listens on 127.0.0.1 only, and the "listening on" line says so', async () => {
    expect(await listeningOn({})).toBe('127.0.0.1');
  }, 30_000);

  it('a configured bot, or one on Heroku, listens on every interface; HOST chooses otherwise', async () => {
    const configured = await listeningOn({
      DIRECTORY_BASE_URL: platforms.emulator.url,
      DIRECTORY_TOKEN: 'dev-token',
    });
    expect(['[::]', '0.0.0.0']).toContain(configured);
    expect(['[::]', '0.0.0.0']).toContain(await listeningOn({ DYNO: 'web.1' }));
    expect(await listeningOn({ HOST: '0.0.0.0' })).toBe('0.0.0.0');
  }, 60_000);
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

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

function logLines(output: string): LogLine[] {
  return output.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    return [JSON.parse(line) as LogLine];
  });
}

describe('DIRECTORY_TOKEN refused at start-up', () => {
  it('exits 78 with one line naming DIRECTORY_TOKEN, no stack trace, and never the token', async () => {
    const wrongToken = 'a-directory-token-that-was-revoked';
    const bot = spawnBot(['start'], {
      ...platforms.env(storeFile()),
      PORT: '0',
      DIRECTORY_TOKEN: wrongToken,
    });
    expect(await exitWithin(bot)).toBe(78);
    const output = bot.output();
    const lines = output.split('\n').filter((line) => line.includes('DIRECTORY_TOKEN'));
    expect(lines, output).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`DIRECTORY_TOKEN: refused by the directory at ${platforms.emulator.url} \\(401 `),
    );
    expect(output).not.toMatch(STACK_LINE);
    expect(output).not.toContain(wrongToken);
  }, 30_000);

  it('refused with the Slack token: both in the same run', async () => {
    platforms.slack.refuseNext('auth.test', 'invalid_auth');
    const bot = spawnBot(['start'], {
      ...platforms.env(storeFile()),
      PORT: '0',
      DIRECTORY_TOKEN: 'another-wrong-token',
    });
    expect(await exitWithin(bot)).toBe(78);
    const output = bot.output();
    expect(output.split('\n').filter((line) => line.includes('DIRECTORY_TOKEN: refused'))).toHaveLength(1);
    expect(output.split('\n').filter((line) => line.includes('SLACK_BOT_TOKEN: refused'))).toHaveLength(1);
    expect(output).not.toContain(SLACK_TOKEN);
  }, 30_000);
});

describe('the directory refusing the token, or not answering, while the bot runs', () => {
  it('says so once per change, stays ready but degraded, and keeps answering commands', async () => {
    const bot = spawnBot(['start'], {
      ...platforms.env(storeFile()),
      PORT: '0',
      LOG_LEVEL: 'info',
      SUBSCRIPTIONS: 'console:news=comments',
      POLL_MIN_INTERVAL_S: '1',
    });
    try {
      const [, portText] = await bot.waitFor(/listening on http:\/\/\S+:(\d+)/);
      const base = `http://127.0.0.1:${portText}`;
      await bot.waitFor(/directory bot ready/);
      const readyz = async () => (await fetch(`${base}/readyz`)).json() as Promise<Record<string, unknown>>;
      expect(await readyz()).toMatchObject({ ready: true, degraded: false });

      // The token is revoked: every request from now on is answered 401.
      platforms.emulator.admin.injectFault({ route: '*', count: 100_000, kind: 'status', status: 401 });
      await bot.waitFor(/the directory refused DIRECTORY_TOKEN/, 20_000);
      const refusedReady = await fetch(`${base}/readyz`);
      expect(refusedReady.status).toBe(200);
      const refusedBody = (await refusedReady.json()) as {
        degraded: boolean;
        degradations: Record<string, string>;
      };
      expect(refusedBody.degraded).toBe(true);
      expect(refusedBody.degradations['directory']).toMatch(/^the directory refused DIRECTORY_TOKEN since /);
      expect((await fetch(`${base}/readyz?strict`)).status).toBe(503);
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toContain('directory_bot_directory_connection{state="refused"} 1');
      expect(metrics).toContain('directory_bot_directory_connection{state="ok"} 0');

      // Commands are still answered, and status says what is wrong.
      const statusSent = await platforms.slashCommand(base, 'status', 'UADMIN');
      expect(statusSent.status).toBe(200);
      // Answered in the acknowledgement, or (when slower) through the response URL.
      const acknowledged = await statusSent.text();
      const reply = acknowledged.includes('refuses the token')
        ? acknowledged
        : JSON.stringify(
            (
              await withDeadline(
                platforms.slack.waitForResponse((r) => JSON.stringify(r.body).includes('refuses the token')),
                15_000,
              )
            ).body,
          );
      expect(reply).toContain('REFUSES DIRECTORY_TOKEN since');

      // More requests are refused (polls, retried with backoff): nothing more is said about it.
      const refusedRequests = async () =>
        (await (await fetch(`${base}/metrics`)).text())
          .split('\n')
          .filter(
            (line) =>
              line.startsWith('directory_bot_upstream_requests_total{') && line.includes('status="401"'),
          )
          .reduce((sum, line) => sum + Number(line.split(' ').at(-1)), 0);
      const refusedSoFar = await refusedRequests();
      await eventually(
        async () => (await refusedRequests()) >= refusedSoFar + 3,
        30_000,
        'more requests are refused',
      );

      // The directory takes the token again: one line, and no longer degraded.
      platforms.emulator.admin.clearFaults();
      await bot.waitFor(/the directory accepts the token again/, 20_000);
      await eventually(async () => (await readyz())['degraded'] === false, 10_000, 'no longer degraded');

      // Then it stops answering (a 503 on every try, after the retries).
      platforms.emulator.admin.injectFault({ route: '*', count: 100_000, kind: 'status', status: 503 });
      await bot.waitFor(/the directory is unreachable/, 30_000);
      expect((await readyz())['degradations']).toMatchObject({
        directory: expect.stringMatching(/^the directory has not answered since /),
      });
      platforms.emulator.admin.clearFaults();
      await bot.waitFor(/the directory answers again/, 30_000);

      const lines = logLines(bot.output());
      const said = (pattern: RegExp) => lines.filter((line) => pattern.test(line.msg));
      expect(said(/the directory refused DIRECTORY_TOKEN/)).toHaveLength(1);
      expect(said(/the directory refused DIRECTORY_TOKEN/)[0]?.level).toBe(50);
      expect(said(/the directory accepts the token again/)).toHaveLength(1);
      expect(said(/the directory is unreachable/)).toHaveLength(1);
      expect(said(/the directory answers again/)).toHaveLength(1);
      // Once per change: no warning per failed poll or request, and no stack trace anywhere.
      expect(said(/feed poll failed|directory request failed/)).toEqual([]);
      expect(bot.output()).not.toMatch(STACK_LINE);
      expect((await bot.stop('SIGTERM')).code).toBe(0);
    } finally {
      platforms.emulator.admin.clearFaults();
      if (bot.child.exitCode === null) bot.child.kill('SIGKILL');
    }
  }, 120_000);
});
