import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_BOT_CLI } from './built-cli.js';
import { eventually } from './polling.js';

/**
 * A real terminal for tests: an interactive bash with job control inside a detached tmux
 * session on its own server socket. What a person would see is read back with capture-pane.
 * Keystrokes go in with send-keys, so `&`, Ctrl-Z, `bg` and `fg` behave as they do for a person.
 */
export interface TmuxTerminal {
  /** Types a line and presses Enter. */
  type(line: string): void;
  /** Presses keys by tmux name, e.g. `C-z`. */
  press(...keys: string[]): void;
  /** Everything on the screen and in its scrollback, wrapped lines joined. */
  screen(): string;
  /** Waits until the screen matches; returns the match. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Empties the screen and the scrollback, so the next waitFor sees only what follows; types nothing. */
  clear(): Promise<void>;
  /** The pid of the interactive shell. */
  shellPid(): number;
  close(): void;
}

/**
 * Puts a `directory-bot` command on the terminal's PATH: it execs the real CLI, compiled (see
 * built-cli.ts), so `$!` and the bot's pid are one and the same process.
 */
function installCli(binDir: string): void {
  mkdirSync(binDir, { recursive: true });
  const path = join(binDir, 'directory-bot');
  writeFileSync(path, `#!/bin/sh\nexec "${process.execPath}" "${BUILT_BOT_CLI}" "$@"\n`);
  chmodSync(path, 0o755);
}

export function openTmuxTerminal(options: { cwd: string; env?: Record<string, string> }): TmuxTerminal {
  const socket = `directory-bot-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const binDir = join(options.cwd, '.bin');
  installCli(binDir);
  const config = join(options.cwd, '.tmux.conf');
  writeFileSync(config, 'set -g history-limit 50000\nset -g status off\n');
  const env = {
    PATH: `${binDir}:${process.env['PATH'] ?? ''}`,
    HOME: options.cwd,
    TERM: 'xterm-256color',
    PS1: '$ ',
    // No history file: bash writes it as tmux goes away, racing the test folder's removal.
    HISTFILE: '/dev/null',
    ...options.env,
  };
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-L', socket, '-f', config, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  const pidFile = join(options.cwd, '.shell-pid');
  const shell = [
    'env',
    '-i',
    ...Object.entries(env).map(([name, value]) => `${name}=${value}`),
    'bash',
    '--norc',
    '--noprofile',
    '-i',
  ];
  try {
    tmux('new-session', '-d', '-s', 't', '-x', '200', '-y', '50', '-c', options.cwd, ...shell);
  } catch (error) {
    throw new Error(`these tests need tmux on PATH (apt-get install tmux): ${String(error)}`);
  }
  const terminal: TmuxTerminal = {
    type(line) {
      tmux('send-keys', '-t', 't', '-l', line);
      tmux('send-keys', '-t', 't', 'Enter');
    },
    press(...keys) {
      tmux('send-keys', '-t', 't', ...keys);
    },
    screen() {
      return tmux('capture-pane', '-p', '-J', '-t', 't', '-S', '-');
    },
    async waitFor(pattern, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = terminal.screen().match(pattern);
        if (match) return match;
        if (Date.now() > deadline) {
          throw new Error(`timed out waiting for ${pattern}; the screen:\n${terminal.screen()}`);
        }
        await new Promise((resolveWait) => setTimeout(resolveWait, 200));
      }
    },
    async clear() {
      // Reset the pane rather than type `clear`: the bot's prompt may be what is reading keys.
      tmux('send-keys', '-t', 't', '-R');
      tmux('clear-history', '-t', 't');
    },
    shellPid() {
      return Number(readFileSync(pidFile, 'utf8').trim());
    },
    close() {
      try {
        tmux('kill-server');
      } catch {
        // Already gone.
      }
    },
  };
  terminal.type(`echo $$ > ${pidFile}`);
  return terminal;
}

/** The process state letter from /proc (`T` = stopped by job control), or undefined when gone. */
export function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0];
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid runs (a zombie waiting to be reaped has ended). */
export function isRunning(pid: number): boolean {
  const state = processState(pid);
  return state !== undefined && state !== 'Z' && state !== 'X';
}

/** The direct children of a process (Linux). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** How often to poll a terminal's screen, processes or /healthz: each poll spawns or requests. */
export const TERMINAL_POLL_MS = 200;

/** GET /healthz with a short timeout: a stopped (frozen) process never answers. */
export async function healthy(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1500) });
    return response.status === 200;
  } catch {
    return false;
  }
}

/** Every process started from the terminal's shell, children first. */
function descendants(pid: number): number[] {
  return childPids(pid).flatMap((child) => [...descendants(child), child]);
}

/** Ends whatever still runs in the terminal (a test that failed half-way), then the terminal. */
export async function closeTerminal(terminal: TmuxTerminal): Promise<void> {
  const shell = terminal.shellPid();
  const left = descendants(shell);
  for (const pid of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  terminal.close();
  await eventually(
    () => [shell, ...left].every((pid) => !isRunning(pid)),
    10_000,
    "the terminal's processes end",
    TERMINAL_POLL_MS,
  );
}
