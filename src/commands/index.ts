/**
 * The `/directory` commands, defined once in the core: the definitions adapters bind, and the
 * handler that parses an invocation and answers it with a platform-neutral reply.
 */
export type { ArgValue, CommandKind, CommandSpec, OptionSpec, ParsedArgs } from './command-spec.js';
export { createCommandHandler } from './create-command-handler.js';
export { type DirectoryLinks, directoryLinks } from './directory-links.js';
export { MAX_COMMAND_LENGTH, type ParseResult, parseInvocation } from './parse-invocation.js';
export { COMMAND_SPECS, MAX_RESULTS } from './shared-options.js';
export type {
  CommandDependencies,
  CommandEvent,
  CommandResult,
  QuotaStatus,
  StatusReport,
} from './types.js';
