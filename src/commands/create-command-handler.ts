import type { CommandHandler, CommandInvocation, CommandReply } from '../ports/index.js';
import { COMMANDS } from './all-commands.js';
import { mayManage, whoMayManage } from './channel-permission.js';
import { commandForm, formTokens, tokensAsText } from './command-form.js';
import { type CommandModule, isLookup, type Lookup } from './command-module.js';
import { createCommandRegistry } from './command-registry.js';
import { foreignLinkReply } from './directory-links.js';
import { createLinkPreviews } from './link-preview.js';
import { createLookupCache } from './lookup-cache.js';
import type { ParseResult } from './parse-invocation.js';
import { errorReply, infoReply, rateLimitedReply } from './replies.js';
import type { CommandDependencies, CommandEvent, CommandResult } from './types.js';
import { upstreamFailureReply } from './upstream-failure.js';
import { createUserRateLimiter } from './user-rate-limiter.js';

const DEFAULT_CACHE_TTL_MS = 60_000;
const DEFAULT_PER_MINUTE = 10;
const MAX_COMPLETIONS = 25;

function resultOf(reply: CommandReply): CommandResult {
  switch (reply.error?.code) {
    case undefined:
      return 'ok';
    case 'command_usage':
      return 'usage';
    case 'command_forbidden':
      return 'forbidden';
    case 'command_rate_limited':
      return 'rate_limited';
    case 'upstream_not_found':
    case 'subscription_not_found':
      return 'not_found';
    case 'quota_exhausted':
    case 'upstream_rate_limited':
      return 'quota';
    case 'internal':
      return 'error';
    default:
      return 'upstream_error';
  }
}

/**
 * The `/directory` commands, defined once for every platform: parses the text, checks
 * permissions, serves lookups through a short cache, a per-person rate limit and the quota
 * reserve, and answers every invocation with a reply (never a throw, never silence).
 * What each command does is its module's; the policy here follows the command's kind only.
 * `commands` is the list served (COMMANDS unless a test brings its own).
 */
export function createCommandHandler(
  deps: CommandDependencies,
  commands: readonly CommandModule[] = COMMANDS,
): CommandHandler {
  const { client, clock } = deps;
  const registry = createCommandRegistry(commands);
  const cache = createLookupCache({ clock, ttlMs: deps.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS });
  const limiter = createUserRateLimiter({
    clock,
    perMinute: deps.userRateLimit?.perMinute ?? DEFAULT_PER_MINUTE,
  });
  // Identical lookups arriving together share one upstream call.
  const inFlight = new Map<string, Promise<CommandReply>>();
  const emit = (event: CommandEvent) => {
    try {
      deps.onEvent?.(event);
    } catch {
      // Metrics must never break an answer.
    }
  };

  async function lookup(who: { platform: string; userId: string }, { key, fetch }: Lookup) {
    const cached = cache.get(key);
    if (cached) return { reply: cached, cached: true };
    const pending = inFlight.get(key);
    if (pending) return { reply: await pending, cached: true };
    const waitMs = limiter.take(who.platform, who.userId);
    if (waitMs > 0) return { reply: rateLimitedReply(waitMs), cached: false };
    const work = fetch().then(
      (reply) => {
        // A "no such post" answer is as stable as a found one; failures are not kept.
        if (reply.error === undefined || reply.error.code === 'upstream_not_found') cache.set(key, reply);
        return reply;
      },
      (error: unknown) => upstreamFailureReply(error, { ledger: client.ledger, now: clock.now() }).reply,
    );
    inFlight.set(key, work);
    try {
      return { reply: await work, cached: false };
    } finally {
      inFlight.delete(key);
    }
  }

  const preview = createLinkPreviews({
    client,
    clock,
    directoryLinks: deps.directoryLinks,
    lookup,
    onEvent: (event) => {
      try {
        deps.onPreview?.(event);
      } catch {
        // Metrics must never break an answer.
      }
    },
  });

  /**
   * Answers parsed words: typed text and submitted forms alike. `bare`: the command was named
   * with nothing after it, which opens its form when the surface can show one.
   */
  async function answer(
    invocation: CommandInvocation,
    parsed: ParseResult,
    bare: boolean,
  ): Promise<{ command: string; reply: CommandReply; cached: boolean }> {
    if (parsed.ok === 'empty') return { command: 'help', reply: registry.help(undefined), cached: false };
    const spec = parsed.ok ? parsed.spec : parsed.spec && !parsed.suggestion ? parsed.spec : undefined;
    const command = spec?.name ?? 'unknown';
    // Refuse a change before discussing its arguments: fixing them would not help.
    if (spec?.kind === 'manage' && !mayManage(invocation, deps.adminUserIds)) {
      return {
        command,
        reply: errorReply(
          'command_forbidden',
          `You cannot change this channel's subscriptions. ${whoMayManage(invocation.platform)}`,
        ),
        cached: false,
      };
    }
    // Checked after the permission: someone who may not subscribe is refused before any form.
    const form = bare && invocation.canOpenForm === true && spec ? commandForm(spec) : undefined;
    if (form) {
      return { command, reply: { ...infoReply(`Opening the ${command} form…`), form }, cached: false };
    }
    if (!parsed.ok) {
      return {
        command,
        // The usage line only of the command the problem is about: any other would mislead.
        reply: errorReply('command_usage', parsed.problem, parsed.spec?.usage, parsed.option),
        cached: false,
      };
    }
    const { args } = parsed;
    const foreignLink = foreignLinkReply(args, deps.directoryLinks);
    if (foreignLink) return { command, reply: foreignLink, cached: false };
    const commandModule = registry.find(parsed.spec.name);
    if (!commandModule)
      return { command, reply: errorReply('internal', 'This command has no answer yet.'), cached: false };
    const who = { platform: invocation.platform, userId: invocation.actor.userId };
    const request = {
      invocation,
      args,
      spec: parsed.spec,
      deps,
      commands: registry.specs,
      spendLookupAllowance: () => limiter.take(who.platform, who.userId),
    };
    if (isLookup(commandModule)) {
      return { command, ...(await lookup(who, commandModule.run(request))) };
    }
    return { command, reply: await commandModule.run(request), cached: false };
  }

  /**
   * A change a `manage` command made goes into the channel's history, whichever surface ran it.
   * An answer that opens a form changed nothing yet. A failure to record never fails the answer:
   * the change is made, and only the history misses its line.
   */
  async function recordChange(
    invocation: CommandInvocation,
    command: string,
    reply: CommandReply,
    fromForm: boolean,
  ): Promise<void> {
    if (deps.history === undefined || reply.error !== undefined || reply.form !== undefined) return;
    if (registry.find(command)?.spec.kind !== 'manage') return;
    const { actor } = invocation;
    await deps.history
      .record(
        {
          platform: invocation.platform,
          workspaceId: invocation.workspaceId,
          channelId: invocation.channelId,
        },
        {
          by: actor.userId,
          ...(actor.displayName === undefined ? {} : { byName: actor.displayName }),
          via: invocation.via ?? (fromForm ? 'form' : 'command'),
          command: invocation.text.trim(),
          result: reply.text.split('\n', 1)[0] ?? '',
        },
      )
      .catch(() => {});
  }

  async function respond(
    invocation: CommandInvocation,
    parse: () => { parsed: ParseResult; bare: boolean },
    fromForm = false,
  ): Promise<CommandReply> {
    let outcome: { command: string; reply: CommandReply; cached: boolean };
    try {
      const { parsed, bare } = parse();
      outcome = await answer(invocation, parsed, bare);
    } catch (error) {
      // Store or upstream failures outside a lookup (subscriptions, status) still get an answer.
      const failure = upstreamFailureReply(error, { ledger: client.ledger, now: clock.now() });
      const word = invocation.text.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? '';
      outcome = {
        command: registry.find(word) ? word : 'unknown',
        reply: failure.reply,
        cached: false,
      };
    }
    await recordChange(invocation, outcome.command, outcome.reply, fromForm);
    emit({
      command: outcome.command,
      platform: invocation.platform,
      result: outcome.cached ? 'cached' : resultOf(outcome.reply),
    });
    return outcome.reply;
  }

  return {
    definitions: () => registry.definitions,
    handle(invocation) {
      return respond(invocation, () => ({
        parsed: registry.parse(invocation.text),
        bare: invocation.text.trim() !== '' && !/\s/.test(invocation.text.trim()),
      }));
    },
    async submitForm(submission) {
      const { command, values: _values, ...rest } = submission;
      const spec = registry.find(command)?.spec;
      if (spec?.form === undefined) {
        return errorReply('command_usage', `"${command}" has no form; type the command instead.`);
      }
      // The same words the typed command would be split into, through the same parser and checks.
      const tokens = formTokens(spec, submission);
      return respond(
        { ...rest, text: tokensAsText(tokens) },
        () => ({ parsed: registry.parseTokens(tokens), bare: false }),
        true,
      );
    },
    preview,
    async complete(command, option, partial) {
      const prefix = partial.trim().toLowerCase();
      const pick = (values: readonly string[]) =>
        values.filter((v) => v.startsWith(prefix)).slice(0, MAX_COMPLETIONS);
      return pick(registry.find(command)?.complete?.(option, registry.specs) ?? []);
    },
  };
}
