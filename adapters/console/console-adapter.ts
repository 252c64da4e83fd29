import type {
  AdapterHealth,
  ChatAdapter,
  DeliveryOutcome,
  DeliveryPacing,
  Logger,
} from '../../src/ports/index.js';
import { type ConsolePrompt, startConsolePrompt } from './console-prompt.js';
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
   * Commands are read from here at a `directory> ` prompt. Pass `process.stdin` only when it is
   * interactive (or a deliberate script); leave it out to just print deliveries.
   */
  input?: NodeJS.ReadableStream;
  logger: Logger;
  /** Rendering options, e.g. `{ color: process.stdout.isTTY }`. */
  render?: ConsoleRenderOptions;
  /** Called when the input ends (Ctrl-D), e.g. to shut the bot down. */
  onInputClosed?: () => void;
}

/**
 * The console "platform": deliveries are printed to the terminal and `/directory` commands
 * can be typed at a prompt. It is the default when neither Slack nor Discord is configured,
 * so the whole pipeline can be watched locally.
 */
export function createConsoleAdapter(options: ConsoleAdapterOptions): ChatAdapter {
  const write = options.write ?? ((text: string) => void process.stdout.write(text));
  const logger = options.logger.child({ platform: 'console' });
  let state: 'new' | 'started' | 'stopped' = 'new';
  let prompt: ConsolePrompt | undefined;
  let sequence = 0;

  return {
    platform: 'console',
    pacing: CONSOLE_PACING,

    async start(context) {
      if (state !== 'new') return;
      state = 'started';
      if (options.input !== undefined) {
        const deps = {
          input: options.input,
          write,
          commands: context.commands,
          logger,
          ...(options.render === undefined ? {} : { render: options.render }),
          ...(options.onInputClosed === undefined ? {} : { onClose: options.onInputClosed }),
        };
        prompt = startConsolePrompt(deps);
      }
      logger.debug({ prompt: prompt !== undefined }, 'console adapter ready');
    },

    async deliver(destination, message): Promise<DeliveryOutcome> {
      if (state === 'stopped') {
        return { status: 'failed', code: 'platform_error', reason: 'the console adapter is stopped' };
      }
      try {
        const header = `── #${oneLine(destination.channelId) || 'console'} ──`;
        write(`\n${header}\n${renderConsoleMessage(message, options.render)}\n`);
      } catch (error) {
        // A closed stdout (EPIPE) may recover only if someone reattaches; treat it as transient.
        return {
          status: 'failed',
          code: 'platform_error',
          reason: error instanceof Error ? error.message : String(error),
        };
      }
      sequence += 1;
      return { status: 'delivered', platformMessageId: `console-${sequence}` };
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
