import type { CommandInvocation, CommandReply } from '../ports/index.js';
import type { CommandKind, CommandSpec, ParsedArgs } from './command-spec.js';
import type { CommandDependencies } from './types.js';

/** What a command's `run` gets: the invocation, its validated arguments and the bot's services. */
export interface CommandRequest {
  invocation: CommandInvocation;
  args: ParsedArgs;
  /** The spec the text was parsed with (for its usage line in a reply). */
  spec: CommandSpec;
  deps: CommandDependencies;
  /** Every command of the list being served, in help order (for `help`). */
  commands: readonly CommandSpec[];
  /**
   * Counts one upstream request against the person's lookup allowance (the same per-person limit
   * as lookups) and answers how long they must wait first: 0 means go ahead. For commands that
   * are not lookups but may still ask the directory (a reminder for an event not yet listed).
   */
  spendLookupAllowance?(): number;
}

/**
 * A lookup split in two: `key` names the answer independently of how it was typed (for the
 * cache), `fetch` asks the directory for it.
 */
export interface Lookup {
  key: string;
  fetch(): Promise<CommandReply>;
}

type SpecOf<K extends CommandKind> = CommandSpec & { readonly kind: K };

interface CommandModuleBase {
  /**
   * Values worth suggesting for `option` as it is typed; only ones known without a request.
   * `commands` is the list being served, in help order.
   */
  complete?(option: string, commands: readonly CommandSpec[]): readonly string[];
}

/** A command that asks the directory: the handler caches it, rate-limits it and spends the reserve. */
export interface LookupCommand extends CommandModuleBase {
  readonly spec: SpecOf<'lookup'>;
  run(request: CommandRequest): Lookup;
}

/** A command answered here: `manage` ones only after the permission check, `local` ones by anyone. */
export interface ActionCommand extends CommandModuleBase {
  readonly spec: SpecOf<'manage' | 'local'>;
  run(request: CommandRequest): CommandReply | Promise<CommandReply>;
}

/**
 * One `/directory` command: its `spec` (grammar, help, public definition) and how to `run` it,
 * as discord.js shapes commands (`data` + `execute`). The list in all-commands.ts gathers them.
 */
export type CommandModule = LookupCommand | ActionCommand;

export function isLookup(command: CommandModule): command is LookupCommand {
  return command.spec.kind === 'lookup';
}
