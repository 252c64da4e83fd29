import { BotError } from '../errors.js';
import type { CommandDefinition, CommandReply } from '../ports/index.js';
import type { CommandModule } from './command-module.js';
import { type CommandSpec, publicDefinition } from './command-spec.js';
import { helpReply } from './help.js';
import { type ParseResult, parseInvocation, parseTokens } from './parse-invocation.js';

/** Everything a list of commands drives: the parser, help and the definitions adapters bind. */
export interface CommandRegistry {
  /** The commands in list order, which is the order of help and of Discord's registration. */
  readonly commands: readonly CommandModule[];
  readonly specs: readonly CommandSpec[];
  /** What adapters see (Discord options, Slack's permission check), without validation details. */
  readonly definitions: readonly CommandDefinition[];
  find(name: string): CommandModule | undefined;
  parse(text: string): ParseResult;
  /** Parses words already split (a submitted form's), with the same checks and messages. */
  parseTokens(tokens: readonly string[]): ParseResult;
  /** `help` (topic undefined) or `help <topic>`. */
  help(topic: string | undefined): CommandReply;
}

/**
 * The registry of a command list. A function of the list, not a module-level table, so a test
 * can serve a list with one command more and see every surface pick it up.
 */
export function createCommandRegistry(commands: readonly CommandModule[]): CommandRegistry {
  const byName = new Map<string, CommandModule>();
  for (const command of commands) {
    // Two commands of one name would leave the second unreachable, silently.
    if (byName.has(command.spec.name))
      throw new BotError('internal', `two commands are named "${command.spec.name}"`);
    byName.set(command.spec.name, command);
  }
  const specs = commands.map((command) => command.spec);
  const definitions = specs.map(publicDefinition);
  return {
    commands,
    specs,
    definitions,
    find: (name) => byName.get(name),
    parse: (text) => parseInvocation(text, specs),
    parseTokens: (tokens) => parseTokens(tokens, specs),
    help: (topic) => helpReply(specs, topic),
  };
}
