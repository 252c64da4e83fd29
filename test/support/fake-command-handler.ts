import type {
  CommandDefinition,
  CommandHandler,
  CommandInvocation,
  CommandReply,
} from '../../src/ports/index.js';

/**
 * What a fake handler answers, per suite: the definitions it advertises and a reply for each
 * invocation (it may throw, to stand for a core that fell over). Each adapter's tests keep their
 * own script beside them, because their assertions name its texts.
 */
export interface CommandScript {
  readonly definitions: readonly CommandDefinition[];
  answer(invocation: CommandInvocation, name: string): CommandReply | Promise<CommandReply>;
}

/**
 * A real CommandHandler standing in for the core in adapter tests: it records every invocation
 * and completion request, holds `slow` commands until the test releases them, and answers from
 * a script.
 */
export class FakeCommandHandler implements CommandHandler {
  readonly invocations: CommandInvocation[] = [];
  readonly completions: { command: string; option: string; partial: string }[] = [];
  readonly #script: CommandScript;
  #release: () => void = () => {};
  readonly #gate: Promise<void> = new Promise((resolve) => {
    this.#release = resolve;
  });

  constructor(script: CommandScript) {
    this.#script = script;
  }

  definitions(): readonly CommandDefinition[] {
    return this.#script.definitions;
  }

  /** Lets every held `slow` command answer. */
  releaseSlow(): void {
    this.#release();
  }

  async handle(invocation: CommandInvocation): Promise<CommandReply> {
    this.invocations.push(invocation);
    const [name = ''] = invocation.text.split(/\s+/);
    if (name === 'slow') await this.#gate;
    return this.#script.answer(invocation, name);
  }

  async complete(command: string, option: string, partial: string): Promise<readonly string[]> {
    this.completions.push({ command, option, partial });
    return ['directory-bot', 'directory-cli', `${partial}-x`].filter((s) => s.startsWith(partial));
  }
}
