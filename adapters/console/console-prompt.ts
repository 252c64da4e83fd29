import { clearScreenDown, createInterface, cursorTo, type Interface, moveCursor } from 'node:readline';
import { Writable } from 'node:stream';
import {
  type CommandHandler,
  type CommandInvocation,
  type Logger,
  messageOf,
} from '../../src/ports/index.js';
import type { ConsoleScreen } from './console-screen.js';
import type { JobControl } from './job-control.js';
import type { ConsoleRenderOptions } from './render-console-message.js';
import { renderConsoleReply } from './render-console-reply.js';

export const PROMPT = 'directory> ';

/** How often a prompt sent to the background looks whether `fg` brought it back. */
const FOREGROUND_CHECK_MS = 1000;

/** Words that leave the prompt (and stop the bot) instead of reaching the command handler. */
const LEAVE_WORDS = new Set(['exit', 'quit']);

/** Added under `help` at the prompt: the one thing the chat platforms' help cannot say. */
export const PROMPT_HELP_FOOTER = 'At this prompt, "exit" or "quit" (or Ctrl-D) stops the bot.';

/** Who types at the console: the operator, who may change any channel's settings. */
const CONSOLE_ACTOR: CommandInvocation['actor'] = {
  userId: 'console',
  displayName: 'you',
  canManageChannel: true,
};

export interface ConsolePromptDeps {
  input: NodeJS.ReadableStream;
  screen: ConsoleScreen;
  commands: CommandHandler;
  logger: Logger;
  /** The console channel commands act on (`subscriptions`, `subscribe`); default `console`. */
  channelId?: string;
  render?: ConsoleRenderOptions;
  /** On a real terminal: suspend on Ctrl-Z, and keep off the terminal while in the background. */
  jobControl?: JobControl;
  /** Called once when the input ends by itself (Ctrl-D, `exit`, end of a pipe), after its last answer; not after close(). */
  onClose?: () => void;
}

export interface ConsolePrompt {
  /** Stops reading input; a command in flight still prints its answer. */
  close(): void;
  /** Resolves when every command typed so far has been answered. */
  idle(): Promise<void>;
}

/** `/directory post 42` and `post 42` both mean the command text `post 42`. */
export function commandText(line: string): string {
  const trimmed = line.trim();
  const match = /^\/directory(?:\s+|$)/i.exec(trimmed);
  return match ? trimmed.slice(match[0].length).trim() : trimmed;
}

/**
 * Reads `/directory …` commands line by line and answers each through the core's command
 * handler, one at a time and in order (a piped script must not have its answers interleaved).
 */
export function startConsolePrompt(deps: ConsolePromptDeps): ConsolePrompt {
  const { screen, commands, logger, jobControl } = deps;
  // readline draws the prompt and echoes keys itself; that must not go through the screen's
  // clear-and-redraw, or every keystroke would redraw the prompt.
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      screen.raw(chunk.toString());
      callback();
    },
  });
  const tty = deps.input as NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => void };
  const terminal = tty.isTTY === true;
  let rl: Interface | undefined;
  let queue: Promise<void> = Promise.resolve();
  let closed = false;
  // Set when close() ends the prompt, so onClose reports only the input ending by itself.
  let closedByOwner = false;
  // Off the terminal: stopped by Ctrl-Z, continued in the background with `bg`, or started there.
  let suspended = false;
  // A typed line is being answered; the prompt comes back when it is done.
  let busy = false;

  const promptLine = {
    clear() {
      if (rl === undefined) return;
      const { rows } = rl.getCursorPos();
      moveCursor(output, 0, -rows);
      cursorTo(output, 0);
      clearScreenDown(output);
    },
    redraw() {
      if (rl === undefined) return;
      // readline redraws from where it thinks the prompt starts, `rows` lines above the cursor
      // of a long wrapped line; blank lines there keep it from overwriting what was printed.
      const { rows } = rl.getCursorPos();
      if (rows > 0) screen.raw('\n'.repeat(rows));
      rl.prompt(true);
    },
  };
  /** Shows the prompt when it may be shown: not closed, not answering, not in the background. */
  const showPrompt = () => {
    if (closed || busy || suspended || rl === undefined) return;
    rl.prompt();
    if (terminal) screen.setPromptLine(promptLine);
  };
  const hidePrompt = () => screen.setPromptLine(undefined);

  const answer = async (line: string): Promise<void> => {
    const text = commandText(line);
    if (text === '') return;
    const invocation: CommandInvocation = {
      platform: 'console',
      channelId: deps.channelId ?? 'console',
      actor: CONSOLE_ACTOR,
      text,
    };
    try {
      const reply = await commands.handle(invocation);
      // The person reads the sentence; the code is for whoever reads the logs later.
      if (reply.error !== undefined) logger.info({ code: reply.error.code, text }, 'console command refused');
      const rendered = renderConsoleReply(reply, deps.render);
      const footer = /^help$/i.test(text) ? `\n\n${PROMPT_HELP_FOOTER}` : '';
      if (rendered !== '') screen.write(`${rendered}${footer}\n`);
    } catch (error) {
      logger.error({ err: error, text: invocation.text }, 'console command failed');
      screen.write(`✗ The command failed: ${messageOf(error)}\n`);
    }
  };

  /** Creates the readline interface: on a terminal this switches it to raw mode. */
  const openReadline = (): Interface => {
    const opened = createInterface({ input: deps.input, output, terminal, prompt: PROMPT });
    opened.on('line', (line) => {
      if (closed) return;
      if (LEAVE_WORDS.has(commandText(line).toLowerCase())) {
        hidePrompt();
        screen.write('Stopping the bot…\n');
        // The same as the input ending: the owner is told once the answers in flight are out.
        opened.close();
        return;
      }
      busy = true;
      hidePrompt();
      queue = queue.then(async () => {
        await answer(line);
        busy = false;
        showPrompt();
      });
    });
    opened.on('close', () => {
      hidePrompt();
      closed = true;
      if (!closedByOwner) void queue.then(() => deps.onClose?.());
    });
    if (terminal && jobControl !== undefined) {
      // Ctrl-Z arrives as a key in raw mode: give the terminal back in its normal mode, then stop
      // the whole job, as the terminal itself would have (npm or a watcher above the bot too).
      opened.on('SIGTSTP', () => {
        suspended = true;
        hidePrompt();
        opened.pause();
        tty.setRawMode?.(false);
        screen.raw('\n');
        jobControl.suspend();
      });
    }
    return opened;
  };

  let stopListening = () => {};
  let watch: NodeJS.Timeout | undefined;
  const stopWatching = () => {
    clearInterval(watch);
    watch = undefined;
  };
  if (terminal && jobControl !== undefined) {
    /** Back in the foreground: the terminal's mode is ours again, and so is its input. */
    const resumeIfForeground = () => {
      if (closed || !suspended || !jobControl.isForeground()) return;
      stopWatching();
      suspended = false;
      if (rl === undefined) {
        rl = openReadline();
      } else {
        tty.setRawMode?.(true);
        rl.resume();
      }
      showPrompt();
    };
    /** Off the terminal until `fg`; shells send no signal when `fg` takes a running job back. */
    const waitForForeground = () => {
      if (watch === undefined) {
        watch = setInterval(resumeIfForeground, FOREGROUND_CHECK_MS);
        watch.unref();
      }
    };
    // Continued by `fg` or `bg`. In the background, touching the terminal's mode or reading from
    // it would stop the whole process again (SIGTTOU/SIGTTIN), HTTP server and all, so the
    // prompt waits, looking every second whether the terminal is its own again.
    stopListening = jobControl.onContinue(() => {
      if (closed) return;
      if (jobControl.isForeground()) {
        resumeIfForeground();
        return;
      }
      if (!suspended) {
        suspended = true;
        hidePrompt();
        rl?.pause();
      }
      screen.write('The bot carries on in the background; "fg" brings the directory> prompt back.\n');
      waitForForeground();
    });
    // Started in the background (`npm start &`): creating readline switches the terminal to raw
    // mode, which would stop the whole process (SIGTTOU), so it waits for `fg`.
    if (!jobControl.isForeground()) {
      suspended = true;
      screen.write('The bot runs in the background; "fg" brings the directory> prompt.\n');
      waitForForeground();
    }
  }
  if (!suspended) rl = openReadline();
  showPrompt();

  return {
    close() {
      if (closed) return;
      closed = true;
      closedByOwner = true;
      hidePrompt();
      stopListening();
      stopWatching();
      if (suspended && jobControl !== undefined && !jobControl.isForeground()) {
        // Closing resets the terminal's mode, which a background process may not do without
        // being stopped; stopping to read is all that is needed to let the process end.
        rl?.pause();
        return;
      }
      rl?.close();
    },
    idle: () => queue,
  };
}
