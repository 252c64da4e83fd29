import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  createConsoleAdapter,
  createConsoleScreen,
  type JobControl,
  PROMPT,
  PROMPT_HELP_FOOTER,
} from '../../../adapters/console/index.js';
import { createSilentLogger } from '../../../src/observability/create-logger.js';
import type { AdapterContext, CommandHandler, Message } from '../../../src/ports/index.js';
import { type CommandScript, FakeCommandHandler } from '../../support/fake-command-handler.js';

const silentLogger = createSilentLogger;

/** The console suite's stand-in for the core: `post …` finds one message, `boom` throws. */
const consoleScript: CommandScript = {
  definitions: [],
  answer(invocation) {
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
  },
};

const fakeCommands = () => new FakeCommandHandler(consoleScript);

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
    await adapter.start(contextWith(fakeCommands()));
    expect(adapter.platform).toBe('console');
    expect(adapter.health()).toEqual({ ready: true });
    const outcome = await adapter.deliver({ platform: 'console', channelId: 'general' }, message, {
      idempotencyKey: 'k',
    });
    expect(outcome).toEqual({ status: 'delivered', platformMessageId: 'console-1' });
    expect(out.output()).toBe('\n── #general ──\nNew comment on Foo\n\n  hi\n');
    await adapter.stop();
  });

  it('prints a reminder DM as a DM line to the person, not under a channel', async () => {
    const out = capture();
    const adapter = createConsoleAdapter({ write: out.write, logger: silentLogger() });
    await adapter.start(contextWith(fakeCommands()));
    const outcome = await adapter.deliverDirect?.(
      { platform: 'console', channelId: 'console', direct: true },
      message,
      { idempotencyKey: 'k' },
    );
    expect(outcome).toEqual({ status: 'delivered', platformMessageId: 'console-1' });
    expect(out.output()).toBe('\n── DM to @console ──\nNew comment on Foo\n\n  hi\n');
    await adapter.stop();
  });

  it('prints an edit in place as a "↻ edited:" block naming the message it replaces', async () => {
    const out = capture();
    const adapter = createConsoleAdapter({ write: out.write, logger: silentLogger() });
    await adapter.start(contextWith(fakeCommands()));
    const where = { platform: 'console', channelId: 'general' };
    await adapter.deliver(where, message, { idempotencyKey: 'k' });
    const outcome = await adapter.edit?.(
      where,
      { messageId: 'console-1' },
      { ...message, title: 'Removed from the directory: Foo' },
    );
    expect(outcome).toMatchObject({ status: 'delivered' });
    expect(out.output()).toContain('\n↻ edited: #general console-1\nRemoved from the directory: Foo\n');
    await adapter.stop();
  });

  it('reports a failed delivery when writing throws, and after stop', async () => {
    const adapter = createConsoleAdapter({
      write: () => {
        throw new Error('EPIPE');
      },
      logger: silentLogger(),
    });
    await adapter.start(contextWith(fakeCommands()));
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
    const commands = fakeCommands();
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
    expect(output).toContain('✗ Unknown command "frob"\nUsage: /directory post <id>');
    expect(output).not.toContain('command_usage');
    await adapter.stop();
  });

  it('keeps the prompt alive when a command throws', async () => {
    const out = capture();
    const input = new PassThrough();
    const adapter = createConsoleAdapter({ write: out.write, input, logger: silentLogger() });
    await adapter.start(contextWith(fakeCommands()));
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
      void adapter.start(contextWith(fakeCommands()));
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
    await adapter.start(contextWith(fakeCommands()));
    await adapter.stop();
    input.end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toBe(0);
  });

  it('leaves on exit or quit, telling its owner, and never sends either word as a command', async () => {
    for (const word of ['exit', 'QUIT', '/directory exit']) {
      const out = capture();
      const input = new PassThrough();
      const commands = fakeCommands();
      const closed = new Promise<void>((resolve) => {
        const adapter = createConsoleAdapter({
          write: out.write,
          input,
          logger: silentLogger(),
          onInputClosed: resolve,
        });
        void adapter.start(contextWith(commands));
      });
      input.write(`post 1\n${word}\npost 2\n`);
      await closed;
      expect(
        commands.invocations.map((i) => i.text),
        word,
      ).toEqual(['post 1']);
      expect(out.output()).toContain('Stopping the bot');
    }
  });

  it('says under help how to leave the prompt', async () => {
    const out = capture();
    const input = new PassThrough();
    const adapter = createConsoleAdapter({ write: out.write, input, logger: silentLogger() });
    await adapter.start(contextWith(fakeCommands()));
    input.write('help\n');
    await out.until(PROMPT_HELP_FOOTER);
    expect(PROMPT_HELP_FOOTER).toMatch(/"exit" or "quit"/);
    await adapter.stop();
  });

  it('acts on the channel it is given, and prints its banner before the first prompt', async () => {
    const out = capture();
    const input = new PassThrough();
    const commands = fakeCommands();
    const adapter = createConsoleAdapter({
      write: out.write,
      input,
      logger: silentLogger(),
      promptChannelId: 'sandbox',
      banner: 'Welcome to the sandbox',
    });
    await adapter.start(contextWith(commands));
    await out.until(PROMPT);
    expect(out.output().indexOf('Welcome to the sandbox\n')).toBe(0);
    input.write('post 3\n');
    await out.until('Post 3');
    expect(commands.invocations[0]?.channelId).toBe('sandbox');
    await adapter.stop();
  });
});

/** A terminal's stdin without a terminal: readline drives it in raw mode, as it would a real one. */
function fakeTerminalInput() {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    rawModes: [] as boolean[],
    setRawMode(raw: boolean) {
      input.rawModes.push(raw);
      return input;
    },
  });
  return input;
}

/** Job control whose foreground can be moved by the test, like `bg` and `fg` would. */
class FakeJobControl implements JobControl {
  foreground = true;
  suspended = 0;
  readonly #listeners = new Set<() => void>();
  isForeground(): boolean {
    return this.foreground;
  }
  suspend(): void {
    this.suspended += 1;
  }
  onContinue(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  /** SIGCONT: the shell ran `fg` on a stopped job, or `bg`. */
  continueIn(place: 'foreground' | 'background'): void {
    this.foreground = place === 'foreground';
    for (const listener of this.#listeners) listener();
  }
}

describe('the console prompt on a terminal', () => {
  /** The console adapter started on a fake terminal, in the foreground of a fake job control unless told. */
  async function startOnTerminal(place: 'foreground' | 'background' = 'foreground') {
    const out = capture();
    const input = fakeTerminalInput();
    const jobs = new FakeJobControl();
    jobs.foreground = place === 'foreground';
    const commands = fakeCommands();
    const adapter = createConsoleAdapter({
      write: out.write,
      input,
      logger: silentLogger(),
      jobControl: jobs,
    });
    await adapter.start(contextWith(commands));
    return { out, input, jobs, commands, adapter };
  }

  it('hands the terminal back on Ctrl-Z and takes it again on fg', async () => {
    const { out, input, jobs, adapter } = await startOnTerminal();
    expect(input.rawModes).toEqual([true]);
    input.write('\u001a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(jobs.suspended).toBe(1);
    expect(input.rawModes).toEqual([true, false]);
    const prompts = out.output().split(PROMPT).length;
    jobs.continueIn('foreground');
    expect(input.rawModes).toEqual([true, false, true]);
    expect(out.output().split(PROMPT).length).toBe(prompts + 1);
    input.write('post 8\r');
    await out.until('Post 8');
    await adapter.stop();
  });

  it('stays off the terminal in the background, and comes back when fg sends no signal', async () => {
    const { out, input, jobs, commands, adapter } = await startOnTerminal();
    input.write('\u001a');
    await new Promise((resolve) => setImmediate(resolve));
    jobs.continueIn('background');
    expect(out.output()).toContain('"fg" brings the directory> prompt back');
    // In the background neither the mode nor the input of the terminal may be touched.
    input.write('post 9\r');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(commands.invocations).toHaveLength(0);
    expect(input.rawModes).toEqual([true, false]);
    // A shell's `fg` of a running job sends no SIGCONT: the prompt notices by itself.
    jobs.foreground = true;
    await out.until('Post 9');
    expect(input.rawModes).toEqual([true, false, true]);
    await adapter.stop();
  });

  it('started in the background (npm start &), leaves the terminal alone until fg makes it the foreground job', async () => {
    const { out, input, jobs, commands, adapter } = await startOnTerminal('background');
    expect(out.output()).toContain('"fg" brings the directory> prompt');
    // No prompt drawn: the sentence above is the only place the word appears.
    expect(out.output().split(PROMPT)).toHaveLength(2);
    // Neither the mode nor the input of the terminal is touched from the background.
    input.write('post 4\r');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(input.rawModes).toEqual([]);
    expect(commands.invocations).toHaveLength(0);
    // `fg` of a running job sends no signal: the prompt notices by itself, and reads what was typed.
    jobs.foreground = true;
    await out.until('Post 4');
    expect(out.output().split(PROMPT).length).toBeGreaterThan(2);
    expect(input.rawModes).toEqual([true]);
    await adapter.stop();
  });

  it('stops without touching the terminal mode when it is in the background', async () => {
    const { input, jobs, adapter } = await startOnTerminal();
    jobs.continueIn('background');
    await adapter.stop();
    expect(input.rawModes).toEqual([true]);
    expect(input.isPaused()).toBe(true);
  });
});

describe('the console screen', () => {
  it('clears a waiting prompt before printing and draws it again after, on a line of its own', () => {
    let text = '';
    const screen = createConsoleScreen((chunk) => {
      text += chunk;
    });
    screen.write('before\n');
    screen.setPromptLine({ clear: () => screen.raw('<clear>'), redraw: () => screen.raw('directory> hal') });
    screen.write('── #sandbox ──\nitem');
    screen.setPromptLine(undefined);
    screen.write('after');
    expect(text).toBe('before\n<clear>── #sandbox ──\nitem\ndirectory> halafter');
  });
});
