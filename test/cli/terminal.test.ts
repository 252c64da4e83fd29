import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { eventually } from '../support/polling.js';
import { tmuxProblem, unavailable } from '../support/required-tools.js';
import { processExists, refusesConnections } from '../support/stop-process.js';
import { makeTempDir } from '../support/temp-dir.js';
import {
  childPids,
  closeTerminal,
  healthy,
  openTmuxTerminal,
  processState,
  TERMINAL_POLL_MS,
  type TmuxTerminal,
} from '../support/tmux-terminal.js';

const missing = unavailable('the terminal tests (tmux)', tmuxProblem());

/** The full log a bot on a terminal writes beside its prompt (data/directory-bot.log), or ''. */
function logFile(folder: string): string {
  try {
    return readFileSync(join(folder, 'data', 'directory-bot.log'), 'utf8');
  } catch {
    return '';
  }
}

/**
 * The bot in a real terminal, driven the way a person drives it: an interactive shell with job
 * control in tmux. A process that reads from its terminal or changes its mode while it is not
 * the foreground job is stopped by the kernel, HTTP server and all; these tests prove the
 * prompt never does that.
 */
describe.skipIf(missing !== undefined)('the bot on a real terminal', () => {
  let terminal: TmuxTerminal | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    if (terminal !== undefined) await closeTerminal(terminal);
    if (folder !== undefined)
      rmSync(folder, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  async function open() {
    folder = makeTempDir().path;
    const port = await freePort();
    terminal = openTmuxTerminal({ cwd: folder, env: { PORT: String(port) } });
    await terminal.waitFor(/\$ $/m);
    return { terminal, port, folder };
  }

  it('started with & from an interactive shell, keeps answering /healthz and stops on SIGTERM', async () => {
    const { terminal, port, folder } = await open();
    terminal.type('directory-bot start & echo "BGPID=$!"');
    const pid = Number((await terminal.waitFor(/BGPID=(\d+)/))[1]);
    await eventually(() => healthy(port), 30_000, 'the background bot answers /healthz', TERMINAL_POLL_MS);
    // Well after start-up (when the prompt used to grab the terminal) it is still running: its
    // prompt waits for fg, and the full logs go to the file the banner names.
    await terminal.waitFor(/"fg" brings the directory> prompt/);
    await eventually(
      () => logFile(folder).includes('this instance now polls and delivers'),
      30_000,
      'the bot polls',
      TERMINAL_POLL_MS,
    );
    expect(processState(pid)).not.toBe('T');
    expect(await healthy(port)).toBe(true);
    // The shell still has its terminal.
    terminal.type('echo "shell is $((6 * 7))"');
    await terminal.waitFor(/shell is 42/);
    process.kill(pid, 'SIGTERM');
    await eventually(() => !processExists(pid), 10_000, 'the bot exits after SIGTERM', TERMINAL_POLL_MS);
    expect(await refusesConnections(port)).toBe(true);
  }, 60_000);

  it('behind a pipe under timeout, runs without a prompt and stops cleanly when timeout sends SIGTERM', async () => {
    const { terminal, port, folder } = await open();
    // timeout signals its whole process group, tee included: the bot loses its reader as it
    // stops and must still finish cleanly. The sh -c only reports the bot's own exit code (its
    // trap keeps it alive to do so; a caught signal is not inherited by the bot).
    terminal.type(
      `timeout 12 sh -c 'trap : TERM; directory-bot start; echo "bot exited: $?" >&2' 2>err.log | tee run.log; echo "PIPE $((1 + 1)) DONE"`,
    );
    await eventually(() => healthy(port), 30_000, 'the bot behind a pipe answers /healthz', TERMINAL_POLL_MS);
    await terminal.waitFor(/PIPE 2 DONE/, 30_000);
    expect(readFileSync(join(folder, 'run.log'), 'utf8')).toContain('No prompt');
    const errors = readFileSync(join(folder, 'err.log'), 'utf8');
    expect(errors, errors).toContain('bot exited: 0');
    expect(await refusesConnections(port)).toBe(true);
  }, 60_000);

  it('in the foreground: Ctrl-Z and bg keep it serving, fg brings the prompt back, exit leaves', async () => {
    const { terminal, port } = await open();
    terminal.type('directory-bot start');
    await terminal.waitFor(/^directory> /m, 30_000);
    const pid = childPids(terminal.shellPid())[0] as number;
    terminal.press('C-z');
    await terminal.waitFor(/Stopped\s+directory-bot start/);
    terminal.type('bg');
    await terminal.waitFor(/carries on in the background/);
    await eventually(() => healthy(port), 10_000, 'the bot answers /healthz after bg', TERMINAL_POLL_MS);
    expect(processState(pid)).not.toBe('T');
    await terminal.clear();
    terminal.type('fg');
    await terminal.waitFor(/^directory> /m, 10_000);
    terminal.type('status');
    await terminal.waitFor(/Directory bot status/, 15_000);
    terminal.type('exit');
    await terminal.waitFor(/The bot has stopped\./, 15_000);
    terminal.type('echo "exit code $?"');
    await terminal.waitFor(/exit code 0/);
    expect(processExists(pid)).toBe(false);
  }, 90_000);

  it('stops at once on SIGTERM with the prompt open, and gives the shell a sane terminal back', async () => {
    const { terminal } = await open();
    terminal.type('directory-bot start');
    await terminal.waitFor(/^directory> /m, 30_000);
    const pid = childPids(terminal.shellPid())[0] as number;
    terminal.press('h', 'a', 'l');
    // Half a command on the prompt, read by the bot: under load keys still in the terminal's
    // buffer when the bot died would reach the shell and make its next line "halecho …".
    await terminal.waitFor(/^directory> hal/m);
    const sent = Date.now();
    process.kill(pid, 'SIGTERM');
    await eventually(() => !processExists(pid), 10_000, 'the bot exits after SIGTERM', TERMINAL_POLL_MS);
    expect(Date.now() - sent).toBeLessThan(5000);
    // Cooked mode again: the shell echoes and runs what is typed.
    await terminal.clear();
    terminal.type('echo "back in $((40 + 2))"');
    await terminal.waitFor(/back in 42/);
  }, 60_000);
});
