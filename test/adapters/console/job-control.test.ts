import { describe, expect, it } from 'vitest';
import {
  type ForegroundProbe,
  groupsFromProcStat,
  groupsFromPs,
  isForegroundTerminal,
} from '../../../adapters/console/job-control.js';

/** /proc/<pid>/stat as Linux writes it: pid (comm) state ppid pgrp session tty_nr tpgid … */
function stat(comm: string, pgrp: number, tpgid: number): string {
  return `4242 (${comm}) S 4000 ${pgrp} 4000 34816 ${tpgid} 4194304 1041 0 0 0 3 1 0 0 20 0 11 0\n`;
}

function probe(overrides: Partial<ForegroundProbe>): ForegroundProbe {
  return {
    platform: 'linux',
    isatty: () => true,
    procStat: () => undefined,
    psGroups: () => undefined,
    ...overrides,
  };
}

describe('finding out whether the bot is the foreground job of its terminal', () => {
  it('reads the process group and the terminal foreground group from /proc, whatever the command is called', () => {
    expect(groupsFromProcStat(stat('node', 4242, 4242))).toEqual({ pgrp: 4242, tpgid: 4242 });
    expect(groupsFromProcStat(stat('odd) S 1 2 3 4 (name', 77, 99))).toEqual({ pgrp: 77, tpgid: 99 });
    expect(groupsFromProcStat('garbage')).toBeUndefined();
    expect(groupsFromPs('  4242  4242\n')).toEqual({ pgrp: 4242, tpgid: 4242 });
    expect(groupsFromPs('')).toBeUndefined();
  });

  it('is in the foreground only when its group is the terminal foreground group', () => {
    expect(isForegroundTerminal(probe({ procStat: () => stat('node', 500, 500) }))).toBe(true);
    // `npm start &`: the job has its own group while the shell holds the terminal.
    expect(isForegroundTerminal(probe({ procStat: () => stat('node', 500, 480) }))).toBe(false);
    // No controlling terminal at all.
    expect(isForegroundTerminal(probe({ procStat: () => stat('node', 500, -1) }))).toBe(false);
  });

  it('wants a terminal on both stdin and stdout', () => {
    const foreground = { procStat: () => stat('node', 500, 500) };
    expect(isForegroundTerminal(probe({ ...foreground, isatty: (fd) => fd !== 1 }))).toBe(false);
    expect(isForegroundTerminal(probe({ ...foreground, isatty: (fd) => fd !== 0 }))).toBe(false);
  });

  it('asks ps where there is no /proc, and says no when nothing can tell', () => {
    expect(isForegroundTerminal(probe({ platform: 'darwin', psGroups: () => '612 612' }))).toBe(true);
    expect(isForegroundTerminal(probe({ platform: 'darwin', psGroups: () => '600 612' }))).toBe(false);
    expect(isForegroundTerminal(probe({ platform: 'darwin' }))).toBe(false);
    expect(isForegroundTerminal(probe({ platform: 'win32' }))).toBe(true);
  });
});
