import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { eventually } from '../support/polling.js';
import { tmuxProblem, unavailable } from '../support/required-tools.js';
import { processExists, refusesConnections } from '../support/stop-process.js';
import { makeTempDir } from '../support/temp-dir.js';
import {
  closeTerminal,
  healthy,
  openTmuxTerminal,
  TERMINAL_POLL_MS,
  type TmuxTerminal,
} from '../support/tmux-terminal.js';

const ITEM = /── #sandbox ──/;
/** Longer than the minute the second start has to show an item, as a real first look is. */
const FIRST_RUN_MS = 75_000;

function count(text: string, pattern: RegExp): number {
  return text.split(pattern).length - 1;
}

function lastLine(screen: string): string {
  return screen.trimEnd().split('\n').at(-1) ?? '';
}

const missing = unavailable("the newcomer's terminal session (tmux)", tmuxProblem());

/**
 * A newcomer's first hour, scripted: the real CLI in a real terminal (tmux), in a fresh folder,
 * with nothing configured. Each step is what the README and the bot's own words lead a person
 * to type next.
 */
describe.skipIf(missing !== undefined)('a newcomer at a terminal', () => {
  let openedFolder: string | undefined;
  let port = 0;
  let opened: TmuxTerminal | undefined;
  // Opened for the test, not while the file is collected: a skipped suite must start nothing.
  beforeAll(async () => {
    openedFolder = makeTempDir().path;
    port = await freePort();
    opened = openTmuxTerminal({ cwd: openedFolder, env: { PORT: String(port) } });
    await opened.waitFor(/\$ $/m);
  });
  afterAll(async () => {
    if (opened !== undefined) await closeTerminal(opened);
    if (openedFolder !== undefined)
      rmSync(openedFolder, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  it('starts, reads help, looks up, leaves, runs it in the background, and starts again', async () => {
    const terminal = opened;
    const folder = openedFolder;
    if (terminal === undefined || folder === undefined) throw new Error('the terminal did not open');

    // First start: a banner that says what this is and how to leave, then the prompt; no log noise.
    terminal.type('directory-bot start');
    const firstStart = Date.now();
    await terminal.waitFor(/^directory> /m, 30_000);
    const opening = terminal.screen();
    expect(opening).toContain('SANDBOX MODE');
    expect(opening).toMatch(/"exit" or "quit"/);
    expect(opening.indexOf('SANDBOX MODE')).toBeLessThan(opening.indexOf('directory> '));

    // Items arriving while a command is half typed print above the prompt, which comes back
    // below them with what was typed so far.
    const itemsBefore = count(terminal.screen(), ITEM);
    terminal.press('h', 'e', 'l');
    await eventually(
      () => count(terminal.screen(), ITEM) > itemsBefore,
      60_000,
      'a feed item arrives',
      TERMINAL_POLL_MS,
    );
    await eventually(
      () => lastLine(terminal.screen()) === 'directory> hel',
      5000,
      'the prompt is redrawn',
      TERMINAL_POLL_MS,
    );

    // help lists every command, status included, and says how to leave.
    await terminal.clear();
    terminal.press('p', 'Enter');
    await terminal.waitFor(/stops the bot\./, 15_000);
    const help = terminal.screen();
    expect(help).toMatch(/^ {2}status$/m);
    expect(help).toContain('Quota left, feed health and paused subscriptions');
    expect(help).not.toMatch(/subs…/);
    for (const noise of ['INFO', 'service:', 'directory-bot"', '(command_usage)'])
      expect(help).not.toContain(noise);
    // The logs kept off the screen are all in the file the banner names.
    expect(readFileSync(join(folder, 'data', 'directory-bot.log'), 'utf8')).toContain('INFO: listening on');

    // A first look lasts a while; the second start below must not pay for it with silence.
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, FIRST_RUN_MS - (Date.now() - firstStart))),
    );

    // exit leaves the prompt and stops the bot.
    terminal.type('exit');
    await terminal.waitFor(/The bot has stopped\./, 15_000);
    terminal.type('echo "start exit code: $?"');
    await terminal.waitFor(/start exit code: 0/);
    expect(await refusesConnections(port)).toBe(true);

    // A quoted lookup, as `lookup --help` shows it.
    await terminal.clear();
    terminal.type('directory-bot lookup "post 3"; echo "lookup exit code: $?"');
    await terminal.waitFor(/lookup exit code: \d+/, 30_000);
    expect(terminal.screen()).toContain('lookup exit code: 0');
    expect(terminal.screen()).toContain('Votes');
    await terminal.clear();
    terminal.type('directory-bot lookup "collections featured"; echo "lookup exit code: $?"');
    await terminal.waitFor(/lookup exit code: \d+/, 30_000);
    expect(terminal.screen()).toContain('lookup exit code: 0');

    // `npm start &`: in the background it serves /healthz, and SIGTERM ends it.
    const logged = () => readFileSync(join(folder, 'data', 'directory-bot.log'), 'utf8');
    const POLLING = /this instance now polls and delivers/;
    const pollersBefore = count(logged(), POLLING);
    await terminal.clear();
    terminal.type('directory-bot start & echo "background pid $!"');
    const pid = Number((await terminal.waitFor(/background pid (\d+)/))[1]);
    await eventually(() => healthy(port), 30_000, 'the background bot answers /healthz', TERMINAL_POLL_MS);
    // Its prompt waits for fg; the full logs go on to the file the banner named.
    await terminal.waitFor(/"fg" brings the directory> prompt/, 30_000);
    await eventually(
      () => count(logged(), POLLING) > pollersBefore,
      30_000,
      'the background bot polls',
      TERMINAL_POLL_MS,
    );
    expect(await healthy(port)).toBe(true);
    process.kill(pid, 'SIGTERM');
    await eventually(
      () => !processExists(pid),
      10_000,
      'the background bot is gone after SIGTERM',
      TERMINAL_POLL_MS,
    );
    expect(await refusesConnections(port)).toBe(true);

    // A second start in the same folder shows items again within a minute.
    await terminal.clear();
    terminal.type('directory-bot start');
    await terminal.waitFor(/^directory> /m, 30_000);
    await terminal.waitFor(ITEM, 60_000);
    terminal.type('quit');
    await terminal.waitFor(/The bot has stopped\./, 15_000);
  }, 300_000);
});
