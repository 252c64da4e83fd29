import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { runEmulatorCli } from '../../src/emulator/cli.js';
import { BUILT_EMULATOR_CLI } from '../support/built-cli.js';
import { stopProcess } from '../support/stop-process.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { stdout: (l: string) => out.push(l), stderr: (l: string) => err.push(l) } };
}

describe('directory-bot emulator CLI', () => {
  it('prints usage for --help and returns 0', async () => {
    const { out, io } = capture();
    expect(await runEmulatorCli(['--help'], io)).toBe(0);
    expect(out.join('\n')).toContain('--quota-complexity');
  });

  it.each([
    [['--port', 'abc'], '--port'],
    [['--bogus'], 'bogus'],
    [['--max-complexity', '0'], '--max-complexity'],
    [['--port', '70000'], '--port'],
    [['stray'], 'stray'],
    [['--v1-offset=+15:00'], '--v1-offset'],
    [['--v1-offset', '0800'], '--v1-offset'],
    [['--v1-offset', '-12:00'], '--v1-offset'],
  ])('returns 2 and says what is wrong for %j', async (argv, needle) => {
    const { err, io } = capture();
    expect(await runEmulatorCli(argv, io)).toBe(2);
    expect(err.join('\n')).toContain(needle);
  });

  it('renders V1 timestamps in the offset given with --v1-offset', async () => {
    const { out, io } = capture();
    const stop = new AbortController();
    const running = runEmulatorCli(['--port', '0', '--v1-offset=-12:00'], io, stop.signal);
    await expect.poll(() => out.length).toBeGreaterThanOrEqual(2);
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out[0]!)?.[0];
    const reply = await fetch(`${url}/v1/comments?per_page=1`, {
      headers: { authorization: 'Bearer dev-token' },
    });
    const { comments } = (await reply.json()) as { comments: { created_at: string }[] };
    expect(comments[0]?.created_at).toMatch(/-12:00$/);
    stop.abort();
    expect(await running).toBe(0);
  });

  it('starts in process with the given tokens and stops on its abort signal', async () => {
    const { out, io } = capture();
    const stop = new AbortController();
    const running = runEmulatorCli(
      ['--port', '0', '--token', 'one', '--token', 'two', '--seed', '3'],
      io,
      stop.signal,
    );
    await expect.poll(() => out.length).toBeGreaterThanOrEqual(2);
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out[0]!)?.[0];
    expect(out[1]).toContain('one, two');
    const reply = await fetch(`${url}/v1/live?per_page=1`, { headers: { authorization: 'Bearer two' } });
    expect(reply.status).toBe(200);
    stop.abort();
    expect(await running).toBe(0);
  });

  it('runs as a child process: prints its URL, accepts dev-token, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [BUILT_EMULATOR_CLI, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines = createInterface({ input: child.stdout! });
    const iterator = lines[Symbol.asyncIterator]();
    const ready = (await iterator.next()).value as string;
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(ready)?.[0];
    expect(url).toBeDefined();
    expect((await iterator.next()).value).toContain('dev-token');
    const reply = await fetch(`${url}/v1/comments?per_page=1`, {
      headers: { authorization: 'Bearer dev-token' },
    });
    expect(reply.status).toBe(200);
    const exit = await stopProcess(child, 'SIGTERM', { port: Number(new URL(url!).port) });
    expect(exit.code).toBe(0);
  });
});
