import { type ChildProcess, spawn } from 'node:child_process';
import { BUILT_BOT_CLI } from './built-cli.js';
import { type ProcessExit, stopProcess } from './stop-process.js';

export interface ChildBot {
  child: ChildProcess;
  /** Everything the process wrote so far (stdout and stderr). */
  output(): string;
  /** Resolves with the first match of `pattern` in the output. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<ProcessExit>;
  /** The port the bot said it listens on, once it has said so. */
  port(): number | undefined;
  /**
   * Sends `signal` to the bot's process and resolves with its exit once it is provably gone: pid
   * gone and, if it was listening, its port refusing connections (see `stopProcess`).
   */
  stop(signal: NodeJS.Signals, timeoutMs?: number): Promise<ProcessExit>;
}

/**
 * The test's clock and zone, for the child: `TZ`, and libfaketime's variables when the time
 * sweep (.ci/time-sweep) runs the tests at a fixed instant. A bot on another clock than the
 * test would refuse the test's signed Slack and Discord requests as stale.
 */
function timeEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && /^(TZ|LD_PRELOAD|FAKETIME(_\w+)?|DONT_FAKE_\w+)$/.test(name))
      env[name] = value;
  }
  // `FAKETIME=@…` starts a clock at that instant in every process as it starts: a child would
  // run behind the test, and each restarted bot would go back in time past the leases its
  // predecessor wrote. Start the child's clock at the test's now instead (epoch seconds).
  if (env['FAKETIME']?.startsWith('@')) {
    env['FAKETIME'] = `@${Math.floor(Date.now() / 1000)}`;
    env['FAKETIME_FMT'] = '%s';
    delete env['FAKETIME_SHARED'];
  }
  return env;
}

/**
 * Runs the real CLI, compiled (see built-cli.ts), in a child process. The child is node itself
 * running dist/, so `child` is the process that runs the bot: no `npx`, `sh -c` or `tsx` CLI in
 * between, which would fork the bot into a second process that outlives a signal sent to the
 * first.
 */
export function spawnBot(args: string[], env: Record<string, string> = {}): ChildBot {
  const child = spawn(process.execPath, [BUILT_BOT_CLI, ...args], {
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: process.env['HOME'] ?? '',
      LOG_FORMAT: 'json',
      ...timeEnvironment(),
      ...env,
    },
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
  const exited = new Promise<ProcessExit>((resolveExit) => {
    child.on('exit', (code, signal) => resolveExit({ code, signal }));
  });
  const port = () => {
    // The line names the address actually bound: `[::]`, `0.0.0.0` or a host.
    const match = /listening on http:\/\/(?:\[[^\]]*\]|[^\s:/]+):(\d+)/.exec(buffer);
    if (match) return Number(match[1]);
    // A bot that said it listens but whose port we cannot read would skip the port check.
    if (buffer.includes('listening on http')) throw new Error(`unreadable "listening on" line:\n${buffer}`);
    return undefined;
  };
  return {
    child,
    output: () => buffer,
    exited,
    port,
    stop(signal, timeoutMs) {
      const listening = port();
      return stopProcess(child, signal, {
        ...(listening === undefined ? {} : { port: listening }),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
    },
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

/**
 * The environment of a bot started and killed over and over (the SIGKILL trials): polling every
 * second, and a short poller lease, since a killed process never releases its own and its
 * successor takes over only once it expires.
 */
export function killTrialEnv(options: {
  directoryUrl: string;
  storeUrl: string;
  subscriptions: string;
}): Record<string, string> {
  return {
    PORT: '0',
    LOG_LEVEL: 'info',
    DIRECTORY_BASE_URL: options.directoryUrl,
    DIRECTORY_TOKEN: 'dev-token',
    STORE_URL: options.storeUrl,
    SUBSCRIPTIONS: options.subscriptions,
    POLL_MIN_INTERVAL_S: '1',
    POLLER_LEASE_TTL_S: '2',
  };
}
