import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { CommandHandler, CommandInvocation, Logger } from '../../src/ports/index.js';
import type { ConsoleRenderOptions } from './render-console-message.js';
import { renderConsoleReply } from './render-console-reply.js';

export const PROMPT = 'directory> ';

/** Who types at the console: the operator, who may change any channel's settings. */
const CONSOLE_ACTOR: CommandInvocation['actor'] = {
  userId: 'console',
  displayName: 'you',
  canManageChannel: true,
};

export interface ConsolePromptDeps {
  input: NodeJS.ReadableStream;
  write: (text: string) => void;
  commands: CommandHandler;
  logger: Logger;
  render?: ConsoleRenderOptions;
  /** Called once when the input ends by itself (Ctrl-D, end of a pipe), after its last answer; not after close(). */
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
  const { write, commands, logger } = deps;
  // readline wants a stream for the prompt and echo; route it through the injected writer.
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      write(chunk.toString());
      callback();
    },
  });
  const terminal = (deps.input as { isTTY?: boolean }).isTTY === true;
  const rl = createInterface({ input: deps.input, output, terminal, prompt: PROMPT });
  let queue: Promise<void> = Promise.resolve();
  let closed = false;
  // Set when close() ends the prompt, so onClose reports only the input ending by itself.
  let closedByOwner = false;

  const answer = async (line: string): Promise<void> => {
    if (line.trim() === '') return;
    const invocation: CommandInvocation = {
      platform: 'console',
      channelId: 'console',
      actor: CONSOLE_ACTOR,
      text: commandText(line),
    };
    try {
      const reply = await commands.handle(invocation);
      const rendered = renderConsoleReply(reply, deps.render);
      if (rendered !== '') write(`${rendered}\n`);
    } catch (error) {
      logger.error({ err: error, text: invocation.text }, 'console command failed');
      write(`✗ The command failed: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  };

  rl.on('line', (line) => {
    queue = queue.then(async () => {
      await answer(line);
      if (!closed) rl.prompt();
    });
  });
  rl.on('close', () => {
    closed = true;
    if (!closedByOwner) void queue.then(() => deps.onClose?.());
  });
  rl.prompt();

  return {
    close() {
      if (closed) return;
      closed = true;
      closedByOwner = true;
      rl.close();
    },
    idle: () => queue,
  };
}
