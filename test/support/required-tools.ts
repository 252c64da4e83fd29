import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Tools some suites need from the machine beyond Node: tmux (a real terminal), Debian's
 * libfaketime (a clock an hour ahead), redis-server (a Redis restarted under the bot). Off CI a
 * missing one skips the suite, printing why and how to install it, as an unreachable store
 * server does (backends.ts); in CI (`CI` set) it fails instead, so a missing tool can never pass
 * as a green run.
 */

/** Prints that `suite` is skipped and why; throws instead in CI. */
export function reportSkip(suite: string, reason: string): void {
  if (process.env['CI']) throw new Error(`${suite} must run in CI: ${reason}`);
  console.warn(`[skipped] ${suite}: ${reason}`);
}

/**
 * Why `suite` cannot run here (printed, or thrown in CI), or undefined when it can. Pass the
 * result to `describe.skipIf(…)` / `it.skipIf(…)`.
 */
export function unavailable(suite: string, problem: string | undefined): string | undefined {
  if (problem !== undefined) reportSkip(suite, problem);
  return problem;
}

/** Why `program` cannot be run (not on PATH, or failing `args`), or undefined when it can. */
export function programProblem(program: string, args: string[], install: string): string | undefined {
  try {
    execFileSync(program, args, { stdio: 'ignore', timeout: 10_000 });
    return undefined;
  } catch {
    return `${program} is not installed (${install})`;
  }
}

/** tmux, which the terminal tests drive the real CLI in. */
export function tmuxProblem(): string | undefined {
  return programProblem('tmux', ['-V'], 'apt-get install tmux');
}

/** Debian's libfaketime for this machine's architecture (`apt-get install faketime`), if installed. */
export const LIBFAKETIME = [
  `/usr/lib/${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}-linux-gnu/faketime/libfaketime.so.1`,
  '/usr/lib/faketime/libfaketime.so.1',
].find((path) => existsSync(path));

/** Why libfaketime cannot be preloaded here, or undefined when it can. */
export function libfaketimeProblem(): string | undefined {
  return LIBFAKETIME === undefined ? 'libfaketime is not installed (apt-get install faketime)' : undefined;
}
