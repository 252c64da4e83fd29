/**
 * The `/directory` commands, defined once in the core: one module per command, the list that
 * gathers them (the definitions adapters bind), and the handler that parses an invocation and
 * answers it with a platform-neutral reply.
 */
export { COMMAND_REGISTRY, COMMAND_SPECS, COMMANDS } from './all-commands.js';
export { commandForm, formTokens, tokensAsText } from './command-form.js';
export type {
  ActionCommand,
  CommandModule,
  CommandRequest,
  Lookup,
  LookupCommand,
} from './command-module.js';
export { type CommandRegistry, createCommandRegistry } from './command-registry.js';
export type { ArgValue, CommandKind, CommandSpec, OptionSpec, ParsedArgs } from './command-spec.js';
export { createCommandHandler } from './create-command-handler.js';
export { type ScheduleClock, scheduleClock } from './describe-schedule.js';
export { describePause, describeSubscription } from './describe-subscription.js';
export { type DirectoryLinks, directoryLinks } from './directory-links.js';
export { createHomeService, HOME_MAX_VIEWERS, HOME_RECENT_MS, type HomeServiceDeps } from './home.js';
export { type LinkTarget, linkTarget } from './link-preview.js';
export { MAX_COMMAND_LENGTH, type ParseResult, parseInvocation } from './parse-invocation.js';
export { MAX_RESULTS } from './shared-options.js';
export { previewSubscription } from './subscription-preview.js';
export { subscribeValues } from './subscription-values.js';
export { formatDuration, formatUtc } from './time-text.js';
export type {
  CommandDependencies,
  CommandEvent,
  CommandResult,
  PreviewEvent,
  QuotaStatus,
  StatusReport,
  WhyDesk,
} from './types.js';
