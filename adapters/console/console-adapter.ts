import {
  type AdapterHealth,
  type ChatAdapter,
  type DeliveryOutcome,
  type DeliveryPacing,
  type Logger,
  type Message,
  messageOf,
  type WorkspaceAccess,
} from '../../src/ports/index.js';
import { type ConsolePrompt, startConsolePrompt } from './console-prompt.js';
import { type ConsoleScreen, createConsoleScreen } from './console-screen.js';
import type { JobControl } from './job-control.js';
import { type ConsoleRenderOptions, renderConsoleMessage } from './render-console-message.js';
import { oneLine } from './terminal-text.js';

/** A terminal has no rate limit worth the name; this only keeps a burst readable. */
export const CONSOLE_PACING: DeliveryPacing = {
  perDestination: { ratePerSecond: 20, burst: 20 },
  global: { ratePerSecond: 50, burst: 50 },
};

export interface ConsoleAdapterOptions {
  /** Where output goes; default `process.stdout.write`. Text is written as is (no newline added). */
  write?: (text: string) => void;
  /**
   * The terminal shared with the log lines, so they keep clear of the prompt; default a screen
   * over `write`. Given, it takes the place of `write`.
   */
  screen?: ConsoleScreen;
  /**
   * Commands are read from here at a `directory> ` prompt. Pass `process.stdin` only when it is
   * interactive (or a deliberate script); leave it out to just print deliveries.
   */
  input?: NodeJS.ReadableStream;
  logger: Logger;
  /** Rendering options, e.g. `{ color: process.stdout.isTTY }`. */
  render?: ConsoleRenderOptions;
  /** Called when the input ends (Ctrl-D, `exit`), e.g. to shut the bot down. */
  onInputClosed?: () => void;
  /** The channel the prompt's commands act on; make it the one the feeds print to. Default `console`. */
  promptChannelId?: string;
  /** Printed once at start, before the first prompt: what this is and how to leave. */
  banner?: string | (() => string);
  /** For a prompt on a real terminal: Ctrl-Z, `fg` and `bg` (see job-control.ts). */
  jobControl?: JobControl;
}

/**
 * The console as the control panel sees it: one "workspace", this machine, holding every console
 * channel; whoever reaches a console channel in the panel is the person at this machine (the
 * panel signs only them in for the console), who manages every channel, as at the prompt.
 */
const CONSOLE_INSTALLATION = { id: 'console', name: 'This machine (console)' };
const CONSOLE_ACCESS: WorkspaceAccess = {
  installations: async () => [CONSOLE_INSTALLATION],
  installation: async (id) => (id === CONSOLE_INSTALLATION.id ? CONSOLE_INSTALLATION : undefined),
  workspaceOfChannel: async () => 'console',
  mayManageChannel: async () => true,
};

/**
 * The console "platform": deliveries are printed to the terminal and `/directory` commands
 * can be typed at a prompt. It is the default when neither Slack nor Discord is configured,
 * so the whole pipeline can be watched locally.
 */
export function createConsoleAdapter(options: ConsoleAdapterOptions): ChatAdapter {
  const screen = options.screen ?? createConsoleScreen(options.write);
  const logger = options.logger.child({ platform: 'console' });
  let state: 'new' | 'started' | 'stopped' = 'new';
  let prompt: ConsolePrompt | undefined;
  let sequence = 0;

  /** A block: `header`, then the message (none: the header alone, as a deletion prints). */
  async function print(header: string, message?: Message, indent = ''): Promise<DeliveryOutcome> {
    if (state === 'stopped') {
      return { status: 'failed', code: 'platform_error', reason: 'the console adapter is stopped' };
    }
    try {
      const body = message === undefined ? '' : renderConsoleMessage(message, options.render);
      const block = indent === '' ? body : indentLines(body, indent);
      screen.write(`\n${header}\n${block === '' ? '' : `${block}\n`}`);
    } catch (error) {
      // A closed stdout (EPIPE) may recover only if someone reattaches; treat it as transient.
      return { status: 'failed', code: 'platform_error', reason: messageOf(error) };
    }
    sequence += 1;
    return { status: 'delivered', platformMessageId: `console-${sequence}` };
  }

  return {
    platform: 'console',
    pacing: CONSOLE_PACING,
    // A terminal notifies nobody; any target is shown as it would be pinged, for trying it out.
    mentions: {
      kinds: ['role', 'group', 'user', 'tag'],
      hint: 'role:, group:, user: or tag:<id>',
      problem: () => undefined,
    },
    access: CONSOLE_ACCESS,

    async start(context) {
      if (state !== 'new') return;
      state = 'started';
      const banner = typeof options.banner === 'function' ? options.banner() : options.banner;
      if (banner !== undefined) screen.write(`${banner.trimEnd()}\n`);
      if (options.input !== undefined) {
        prompt = startConsolePrompt({
          input: options.input,
          screen,
          commands: context.commands,
          logger,
          ...(options.promptChannelId === undefined ? {} : { channelId: options.promptChannelId }),
          ...(options.render === undefined ? {} : { render: options.render }),
          ...(options.jobControl === undefined ? {} : { jobControl: options.jobControl }),
          ...(options.onInputClosed === undefined ? {} : { onClose: options.onInputClosed }),
        });
      }
      logger.debug({ prompt: prompt !== undefined }, 'console adapter ready');
    },

    deliver(destination, message): Promise<DeliveryOutcome> {
      const channel = `#${oneLine(destination.channelId) || 'console'}`;
      // A reply is shown indented under a line naming its parent, as a thread reads in a chat.
      const thread = destination.thread;
      if (thread !== undefined) {
        const also = thread.broadcast ? ' (also sent to the channel)' : '';
        return print(
          `  ↳ ${channel}, reply in the thread of ${oneLine(thread.parentMessageId)}${also}`,
          message,
          '    ',
        );
      }
      return print(`── ${channel} ──`, message);
    },

    /** An edit in place, printed as a new block marked `↻ edited:` with the message it replaces. */
    edit(destination, reference, message): Promise<DeliveryOutcome> {
      const where = `#${oneLine(destination.channelId) || 'console'}`;
      return print(`↻ edited: ${where} ${oneLine(reference.messageId)}`, message);
    },

    /** A message deleted (its item was removed upstream), printed as one line naming it. */
    delete(destination, reference): Promise<DeliveryOutcome> {
      const where = `#${oneLine(destination.channelId) || 'console'}`;
      return print(`✕ removed: ${where} ${oneLine(reference.messageId)}`);
    },

    /** A reminder DM, printed under a "DM to" header instead of a channel's. */
    deliverDirect(destination, message): Promise<DeliveryOutcome> {
      return print(`── DM to @${oneLine(destination.channelId) || 'console'} ──`, message);
    },

    health(): AdapterHealth {
      if (state === 'started') return { ready: true };
      return {
        ready: false,
        reason: state === 'new' ? 'console adapter not started' : 'console adapter stopped',
      };
    },

    async stop() {
      if (state === 'stopped') return;
      state = 'stopped';
      prompt?.close();
      await prompt?.idle();
    },
  };
}

/** Every line of `text` behind `indent` (blank lines stay blank). */
function indentLines(text: string, indent: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : `${indent}${line}`))
    .join('\n');
}
