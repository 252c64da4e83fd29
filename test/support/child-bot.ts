import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

export interface ChildBot {
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Resolves with the first match of `pattern` in the output. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const CLI = resolve('src/cli/main.ts');

/** Runs the real CLI in a child process (through tsx, so no build is needed). */
export function spawnBot(args: string[], env: Record<string, string> = {}): ChildBot {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', LOG_FORMAT: 'json', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let buffer = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.on('exit', (code, signal) => resolveExit({ code, signal }));
  });
  return {
    child,
    output: () => buffer,
    exited,
    waitFor(pattern, timeoutMs = 20_000) {
      return new Promise((resolveMatch, reject) => {
        const check = () => {
          const match = buffer.match(pattern);
          if (!match) return;
          cleanup();
          resolveMatch(match);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}; output so far:\n${buffer}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then(() => {
          if (listeners.has(check)) {
            cleanup();
            reject(new Error(`process exited before ${pattern}; output:\n${buffer}`));
          }
        });
        check();
      });
    },
  };
}
