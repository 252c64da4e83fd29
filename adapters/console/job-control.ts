import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isatty } from 'node:tty';

/**
 * Shell job control, as far as the console prompt is concerned. A process that reads from or
 * changes the mode of its terminal while it is not in the terminal's foreground process group
 * is stopped by the kernel (SIGTTIN / SIGTTOU): `npm start &` would freeze, HTTP and all. So
 * the prompt runs only in the foreground, steps aside on Ctrl-Z, and stays off after `bg`.
 */
export interface JobControl {
  /** True when stdin and stdout are terminals and this process is in the terminal's foreground. */
  isForeground(): boolean;
  /**
   * Stops the job as Ctrl-Z would: SIGTSTP to the whole foreground process group, so the shell
   * takes the terminal back also when the bot runs under npm or a watcher.
   */
  suspend(): void;
  /** Calls `listener` whenever the process is continued (`fg`, `bg`); returns how to stop listening. */
  onContinue(listener: () => void): () => void;
}

/** What the foreground test reads from the system; injected by tests. */
export interface ForegroundProbe {
  platform: NodeJS.Platform;
  isatty(fd: number): boolean;
  /** Linux: the text of /proc/self/stat, or undefined when it cannot be read. */
  procStat(): string | undefined;
  /** Other Unixes: `ps -o tpgid=,pgid= -p <pid>` output, or undefined when ps fails. */
  psGroups(): string | undefined;
}

const systemProbe: ForegroundProbe = {
  platform: process.platform,
  isatty,
  procStat: () => {
    try {
      return readFileSync('/proc/self/stat', 'utf8');
    } catch {
      return undefined;
    }
  },
  psGroups: () => {
    try {
      return execFileSync('ps', ['-o', 'tpgid=,pgid=', '-p', String(process.pid)], {
        encoding: 'utf8',
        timeout: 2000,
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    } catch {
      return undefined;
    }
  },
};

/**
 * The process group and the terminal's foreground process group from /proc/self/stat: fields
 * 5 (pgrp) and 8 (tpgid), counted after the command name, which is in parentheses and may
 * itself contain spaces and parentheses.
 */
export function groupsFromProcStat(stat: string): { pgrp: number; tpgid: number } | undefined {
  const end = stat.lastIndexOf(')');
  if (end === -1) return undefined;
  const fields = stat
    .slice(end + 1)
    .trim()
    .split(/\s+/);
  // fields[0] is field 3 (state): pgrp is field 5, tpgid field 8.
  const pgrp = Number(fields[2]);
  const tpgid = Number(fields[5]);
  if (!Number.isInteger(pgrp) || !Number.isInteger(tpgid)) return undefined;
  return { pgrp, tpgid };
}

/** `ps -o tpgid=,pgid=` prints the two numbers on one line. */
export function groupsFromPs(output: string): { pgrp: number; tpgid: number } | undefined {
  const [tpgid, pgrp] = output.trim().split(/\s+/).map(Number);
  if (!Number.isInteger(tpgid) || !Number.isInteger(pgrp)) return undefined;
  return { pgrp: pgrp as number, tpgid: tpgid as number };
}

/**
 * Whether stdin and stdout are both terminals, in the foreground or not: a person is there, and
 * a prompt can be offered once the job is in the foreground (a pipe on either side means a
 * script or a log collector is attached instead).
 */
export function isInteractiveTerminal(probe: Pick<ForegroundProbe, 'isatty'> = systemProbe): boolean {
  return probe.isatty(0) && probe.isatty(1);
}

/**
 * Whether this process may run an interactive prompt now: both stdin and stdout are terminals
 * (a pipe on either side means a script or a log collector is attached) and the process is in
 * its terminal's foreground process group (`tcgetpgrp(0) == getpgrp()`). When that cannot be
 * found out, the answer is no: a bot without a prompt still works, a frozen one does not.
 */
export function isForegroundTerminal(probe: ForegroundProbe = systemProbe): boolean {
  if (!isInteractiveTerminal(probe)) return false;
  // Windows consoles have no job control, so no background job can be stopped for using one.
  if (probe.platform === 'win32') return true;
  const stat = probe.platform === 'linux' ? probe.procStat() : undefined;
  let groups = stat === undefined ? undefined : groupsFromProcStat(stat);
  if (groups === undefined) {
    const ps = probe.psGroups();
    groups = ps === undefined ? undefined : groupsFromPs(ps);
  }
  return groups !== undefined && groups.tpgid > 0 && groups.tpgid === groups.pgrp;
}

/** Job control of this very process. */
export const processJobControl: JobControl = {
  isForeground: () => isForegroundTerminal(),
  suspend: () => {
    // In raw mode the terminal sends no SIGTSTP of its own; do what it would have done: signal
    // the process group (pid 0), which is the shell's job. Stopping only this process would
    // leave `npm start` (or `npm run dev`'s watcher) running in the foreground, waiting for it,
    // and the shell would never get the terminal back. With no SIGTSTP listener, Node stops.
    process.kill(0, 'SIGTSTP');
  },
  onContinue(listener) {
    // Windows has no job control, and no SIGCONT to listen for.
    if (process.platform === 'win32') return () => {};
    process.on('SIGCONT', listener);
    return () => process.off('SIGCONT', listener);
  },
};
