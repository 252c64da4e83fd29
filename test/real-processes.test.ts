import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { findWrappedLaunches } from './support/process-launch-audit.js';
import { processExists, refusesConnections, stopProcess } from './support/stop-process.js';

const TEST_ROOT = fileURLToPath(new URL('.', import.meta.url));

/** A stand-in for the bot: an HTTP server that prints its pid and port. */
const SERVER = `const s = require('node:http').createServer((q, r) => r.end('ok'));
s.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ pid: process.pid, port: s.address().port })));`;
/** A stand-in for npx or sh -c: it runs the server as a second process and waits for it. */
const WRAPPER = `require('node:child_process').spawn(process.execPath, ['-e', process.argv[1]], { stdio: 'inherit' });`;

const started: number[] = [];
afterEach(async () => {
  // Whatever a failed test left running.
  for (const pid of started.splice(0)) if (processExists(pid)) process.kill(pid, 'SIGKILL');
});

async function firstLine(child: ChildProcess): Promise<{ pid: number; port: number }> {
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  const served = JSON.parse(line) as { pid: number; port: number };
  started.push(served.pid);
  return served;
}

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'fixtures' ? [] : testFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('stopping a process in a test', () => {
  it('resolves once the signalled process is gone and its port refuses connections', async () => {
    const server = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const { pid, port } = await firstLine(server);
    expect(pid).toBe(server.pid);
    expect(await refusesConnections(port)).toBe(false);

    const exit = await stopProcess(server, 'SIGKILL', { port });

    expect(exit).toEqual({ code: null, signal: 'SIGKILL' });
    expect(processExists(pid)).toBe(false);
    expect(await refusesConnections(port)).toBe(true);
  });

  it('fails when the signal reached a wrapper and the real process still serves', async () => {
    const wrapper = spawn(process.execPath, ['-e', WRAPPER, SERVER], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const { pid, port } = await firstLine(wrapper);
    expect(pid).not.toBe(wrapper.pid);

    await expect(stopProcess(wrapper, 'SIGKILL', { port })).rejects.toThrow(
      /port \d+ still accepts connections/,
    );
    // This is what a test that killed `npx` or `sh -c` would have left behind.
    expect(processExists(pid)).toBe(true);
    expect(await refusesConnections(port)).toBe(false);
  });

  it('fails when the process had already exited before the signal', async () => {
    const quick = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await once(quick, 'exit');
    await expect(stopProcess(quick, 'SIGTERM')).rejects.toThrow(/already exited/);
  });
});

describe('child processes started by tests', () => {
  it('are started directly, never through npx, npm, tsx, a shell or shell: true', () => {
    const files = testFiles(TEST_ROOT);
    expect(files.map((f) => relative(TEST_ROOT, f))).toEqual(
      expect.arrayContaining([
        'support/child-bot.ts',
        'engine/sigkill.test.ts',
        'engine/redis-restart.test.ts',
      ]),
    );
    const wrapped = files.flatMap((file) =>
      findWrappedLaunches(file, readFileSync(file, 'utf8')).map(
        (w) => `${relative(TEST_ROOT, file)}:${w.line} ${w.call} (${w.why})`,
      ),
    );
    expect(wrapped).toEqual([]);
  });

  // The samples live in text files so that the audit above does not report them.
  const sample = (name: string) =>
    readFileSync(new URL(`fixtures/process-launches/${name}`, import.meta.url), 'utf8');

  it('the audit reports every wrapped launch: npx, sh -c, bash, exec, execSync, shell options, the tsx CLI', () => {
    const source = sample('wrapped.txt');
    const lines = source
      .trimEnd()
      .split('\n')
      .map((_, i) => i + 1);
    expect(findWrappedLaunches('wrapped.ts', source).map((w) => w.line)).toEqual(lines);
  });

  it('the audit accepts direct launches and RegExp exec calls', () => {
    expect(findWrappedLaunches('direct.ts', sample('direct.txt'))).toEqual([]);
  });
});
