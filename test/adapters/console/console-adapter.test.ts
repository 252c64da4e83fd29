import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createConsoleAdapter, PROMPT } from '../../../adapters/console/index.js';
import { createSilentLogger } from '../../../src/logging/create-logger.js';
import type {
  AdapterContext,
  CommandDefinition,
  CommandHandler,
  CommandInvocation,
  CommandReply,
  Message,
} from '../../../src/ports/index.js';

const silentLogger = createSilentLogger;

/** A real CommandHandler that records invocations and answers `post …` with one message. */
class FakeCommands implements CommandHandler {
  readonly invocations: CommandInvocation[] = [];
  definitions(): readonly CommandDefinition[] {
    return [];
  }
  async handle(invocation: CommandInvocation): Promise<CommandReply> {
    this.invocations.push(invocation);
    if (invocation.text.startsWith('boom')) throw new Error('lookup exploded');
    if (!invocation.text.startsWith('post')) {
      return {
        visibility: 'ephemeral',
        text: `Unknown command "${invocation.text}"`,
        messages: [],
        shareable: false,
        error: { code: 'command_usage', usage: '/directory post <id>' },
      };
    }
    return {
      visibility: 'ephemeral',
      text: 'Here it is',
      messages: [{ kind: 'post', title: `Post ${invocation.text.slice(5)}`, fallback: 'post' }],
      shareable: true,
    };
  }
}

/** Captures output and lets a test await the moment some text has been written (no sleeps). */
function capture() {
  let output = '';
  const waiters: { pattern: string; count: number; resolve: () => void }[] = [];
  const occurrences = (pattern: string) => output.split(pattern).length - 1;
  return {
    write(text: string) {
      output += text;
      for (const waiter of [...waiters]) {
        if (occurrences(waiter.pattern) >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    },
    output: () => output,
    /** Resolves once `pattern` has been written at least `count` times. */
    until(pattern: string, count = 1): Promise<void> {
      if (occurrences(pattern) >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ pattern, count, resolve }));
    },
  };
}

function contextWith(commands: CommandHandler): AdapterContext {
  return { http: { mount: () => {} }, commands, logger: silentLogger() };
}

const message: Message = { kind: 'comment', title: 'New comment on Foo', text: 'hi\u001b[2J', fallback: 'x' };

describe('the console adapter', () => {
  it('prints a delivered message under its channel and reports it delivered', async () => {
    const out = capture();
    const adapter = createConsoleAdapter({ write: out.write, logger: silentLogger() });
    expect(adapter.health().ready).toBe(false);
    await adapter.start(contextWith(new FakeCommands()));
    expect(adapter.platform).toBe('console');
    expect(adapter.health()).toEqual({ ready: true });
    const outcome = await adapter.deliver({ platform: 'console', channelId: 'general' }, message, {
      idempotencyKey: 'k',
    });
    expect(outcome).toEqual({ status: 'delivered', platformMessageId: 'console-1' });
    expect(out.output()).toBe('\n── #general ──\nNew comment on Foo\n\n  hi\n');
    await adapter.stop();
  });

  it('reports a failed delivery when writing throws, and after stop', async () => {
    const adapter = createConsoleAdapter({
      write: () => {
        throw new Error('EPIPE');
      },
      logger: silentLogger(),
    });
    await adapter.start(contextWith(new FakeCommands()));
    const destination = { platform: 'console', channelId: 'c' };
    expect(await adapter.deliver(destination, message, { idempotencyKey: 'k' })).toMatchObject({
      status: 'failed',
      reason: 'EPIPE',
    });
    await adapter.stop();
    expect(adapter.health()).toEqual({ ready: false, reason: 'console adapter stopped' });
    expect(await adapter.deliver(destination, message, { idempotencyKey: 'k' })).toMatchObject({
      status: 'failed',
    });
  });

  it('answers commands typed at the prompt through the command handler, in order', async () => {
    const out = capture();
    const input = new PassThrough();
    const commands = new FakeCommands();
    const adapter = createConsoleAdapter({ write: out.write, input, logger: silentLogger() });
    await adapter.start(contextWith(commands));
    await out.until(PROMPT);

    input.write('/directory post 42\npost 7\n\n/DIRECTORY   frob\n');
    // One prompt at start, then one after each line (the blank one too).
    await out.until(PROMPT, 5);

    expect(commands.invocations.map((i) => i.text)).toEqual(['post 42', 'post 7', 'frob']);
    expect(commands.invocations[0]).toEqual({
      platform: 'console',
      channelId: 'console',
      actor: { userId: 'console', displayName: 'you', canManageChannel: true },
      text: 'post 42',
    });
    const output = out.output();
    expect(output.indexOf('Post 42')).toBeLessThan(output.indexOf('Post 7'));
    expect(output).toContain('Here it is\n\nPost 42\n');
    expect(output).toContain('✗ Unknown command "frob" (command_usage)\nUsage: /directory post <id>');
    await adapter.stop();
  });

  it('keeps the prompt alive when a command throws', async () => {
    const out = capture();
    const input = new PassThrough();
    const adapter = createConsoleAdapter({ write: out.write, input, logger: silentLogger() });
    await adapter.start(contextWith(new FakeCommands()));
    input.write('boom\npost 1\n');
    await out.until('Post 1');
    expect(out.output()).toContain('✗ The command failed: lookup exploded');
    await adapter.stop();
  });

  it('tells its owner when the input ends', async () => {
    const input = new PassThrough();
    const out = capture();
    const closed = new Promise<void>((resolve) => {
      const adapter = createConsoleAdapter({
        write: out.write,
        input,
        logger: silentLogger(),
        onInputClosed: resolve,
      });
      void adapter.start(contextWith(new FakeCommands()));
    });
    input.end('post 5\n');
    await closed;
    expect(out.output()).toContain('Post 5');
  });

  it('does not report the input as ended when it is stopped itself', async () => {
    let reported = 0;
    const input = new PassThrough();
    const adapter = createConsoleAdapter({
      write: capture().write,
      input,
      logger: silentLogger(),
      onInputClosed: () => {
        reported += 1;
      },
    });
    await adapter.start(contextWith(new FakeCommands()));
    await adapter.stop();
    input.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toBe(0);
  });
});
