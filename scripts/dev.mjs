#!/usr/bin/env node
// `npm run dev`: runs the bot from source and starts it again whenever a file under src/ or
// adapters/ changes. Plain JavaScript, like build-if-stale.mjs: it runs before anything is built.
//
// Why not `tsx watch` or `node --watch` (docs/adr/017-npm-and-the-terminal.md): both keep running after the
// bot exits, so `exit` at the directory> prompt left a watcher behind, and `tsx watch` reads the
// terminal itself (Enter reran the bot). This runner never reads stdin: the bot's prompt has the
// terminal to itself. When the bot exits on its own with 0 (`exit`, Ctrl-C, Ctrl-D) the runner
// exits too; when it fails, the runner waits for a fix, as a watcher should.
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { join } from 'node:path';

const WATCHED = ['src', 'adapters'];
/** Editors save in bursts (write, rename, chmod): one restart per burst. */
const SETTLE_MS = 200;
const BOT = [
  process.execPath,
  '--import',
  'tsx',
  join('src', 'cli', 'main.ts'),
  'start',
  ...process.argv.slice(2),
];

let bot;
let restarting = false;
let leaving = false;
let changed;
let settle;

function say(text) {
  process.stderr.write(`[dev] ${text}\n`);
}

function startBot() {
  // Same process group and terminal as this runner: Ctrl-Z at the prompt stops both (the bot
  // signals its whole job), and `fg` continues both.
  const child = spawn(BOT[0], BOT.slice(1), { stdio: 'inherit' });
  bot = child;
  child.on('exit', (code, signal) => {
    if (bot === child) bot = undefined;
    if (restarting) {
      restarting = false;
      startBot();
      return;
    }
    const status = code ?? (signal === 'SIGINT' ? 130 : 143);
    if (leaving || status === 0) process.exit(status);
    say(`the bot exited (${signal ?? `code ${code}`}); it starts again when a file changes (Ctrl-C leaves)`);
  });
}

function restart() {
  say(`${changed} changed: restarting the bot`);
  if (bot === undefined) {
    startBot();
    return;
  }
  restarting = true;
  bot.kill('SIGTERM');
}

for (const folder of WATCHED) {
  watch(folder, { recursive: true }, (_event, file) => {
    if (leaving) return;
    changed = join(folder, String(file ?? ''));
    clearTimeout(settle);
    settle = setTimeout(restart, SETTLE_MS);
  });
}

// npm passes SIGTERM and SIGINT on to this runner (and the terminal sends Ctrl-C to the whole job,
// the bot included): the bot stops as it always does, and the runner leaves with its status.
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => {
    leaving = true;
    clearTimeout(settle);
    if (bot === undefined) process.exit(signal === 'SIGINT' ? 130 : 143);
    bot.kill(signal);
  });
}

startBot();
