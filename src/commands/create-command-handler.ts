import { FEED_NAMES } from '../feeds/feed-names.js';
import type { CommandHandler, CommandInvocation, CommandReply } from '../ports/commands.js';
import { publicDefinition } from './command-spec.js';
import { foreignLinkReply } from './directory-links.js';
import { helpReply } from './help.js';
import { createLookupCache } from './lookup-cache.js';
import { prepareLookup } from './lookup-helpers.js';
import { parseInvocation } from './parse-invocation.js';
import { errorReply } from './replies.js';
import { COMMAND_SPECS } from './shared-options.js';
import { statusReply } from './status.js';
import { listSubscriptions, mayManage, subscribe, unsubscribe, whoMayManage } from './subscribe.js';
import { formatDuration } from './time-text.js';
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
 */
export function createCommandHandler(deps: CommandDependencies): CommandHandler {
  const { client, clock } = deps;
  const definitions = COMMAND_SPECS.map(publicDefinition);
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

  async function lookup(invocation: CommandInvocation, key: string, run: () => Promise<CommandReply>) {
    const cached = cache.get(key);
    if (cached) return { reply: cached, cached: true };
    const pending = inFlight.get(key);
    if (pending) return { reply: await pending, cached: true };
    const waitMs = limiter.take(invocation.platform, invocation.actor.userId);
    if (waitMs > 0) {
      const reply = errorReply(
        'command_rate_limited',
        `You are looking things up faster than the team's shared directory quota allows. Try again in ${formatDuration(waitMs)}.`,
      );
      return { reply, cached: false };
    }
    const work = run().then(
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

  async function answer(
    invocation: CommandInvocation,
  ): Promise<{ command: string; reply: CommandReply; cached: boolean }> {
    const parsed = parseInvocation(invocation.text, COMMAND_SPECS);
    if (parsed.ok === 'empty')
      return { command: 'help', reply: helpReply(COMMAND_SPECS, undefined), cached: false };
    const spec = parsed.ok ? parsed.spec : parsed.spec && !parsed.suggestion ? parsed.spec : undefined;
    const command = spec?.name ?? 'unknown';
    // Refuse a change before discussing its arguments: fixing them would not help.
    if (spec?.managesChannel && !mayManage(invocation, deps.adminUserIds)) {
      return {
        command,
        reply: errorReply(
          'command_forbidden',
          `You cannot change this channel's subscriptions. ${whoMayManage(invocation.platform)}`,
        ),
        cached: false,
      };
    }
    if (!parsed.ok) {
      return {
        command,
        // The usage line only of the command the problem is about: any other would mislead.
        reply: errorReply('command_usage', parsed.problem, parsed.spec?.usage),
        cached: false,
      };
    }
    const { args } = parsed;
    const foreignLink = foreignLinkReply(args, deps.directoryLinks);
    if (foreignLink) return { command, reply: foreignLink, cached: false };
    const subscriptionDeps = {
      client,
      subscriptions: deps.subscriptions,
      clock,
      adminUserIds: deps.adminUserIds,
      defaultRemindMinutes: deps.defaultRemindMinutes,
    };
    switch (parsed.spec.name) {
      case 'help': {
        const topic = typeof args['command'] === 'string' ? args['command'] : undefined;
        return { command, reply: helpReply(COMMAND_SPECS, topic), cached: false };
      }
      case 'subscribe':
        return {
          command,
          reply: await subscribe(invocation, args, subscriptionDeps, parsed.spec.usage),
          cached: false,
        };
      case 'unsubscribe':
        return {
          command,
          reply: await unsubscribe(invocation, args, subscriptionDeps, parsed.spec.usage),
          cached: false,
        };
      case 'subscriptions':
        return { command, reply: await listSubscriptions(invocation, subscriptionDeps), cached: false };
      case 'status':
        return { command, reply: statusReply(await deps.status(), invocation, clock.now()), cached: false };
      default: {
        const prepared = prepareLookup(parsed.spec.name, args, { client, clock });
        if (!prepared)
          return { command, reply: errorReply('internal', 'This command has no answer yet.'), cached: false };
        return { command, ...(await lookup(invocation, prepared.key, () => prepared.run())) };
      }
    }
  }

  return {
    definitions: () => definitions,
    async handle(invocation) {
      let outcome: { command: string; reply: CommandReply; cached: boolean };
      try {
        outcome = await answer(invocation);
      } catch (error) {
        // Store or upstream failures outside a lookup (subscriptions, status) still get an answer.
        const failure = upstreamFailureReply(error, { ledger: client.ledger, now: clock.now() });
        const word = invocation.text.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? '';
        outcome = {
          command: COMMAND_SPECS.some((s) => s.name === word) ? word : 'unknown',
          reply: failure.reply,
          cached: false,
        };
      }
      emit({
        command: outcome.command,
        platform: invocation.platform,
        result: outcome.cached ? 'cached' : resultOf(outcome.reply),
      });
      return outcome.reply;
    },
    async complete(command, option, partial) {
      const prefix = partial.trim().toLowerCase();
      const pick = (values: readonly string[]) =>
        values.filter((v) => v.startsWith(prefix)).slice(0, MAX_COMPLETIONS);
      if (command === 'help' && option === 'command') return pick(COMMAND_SPECS.map((s) => s.name));
      if (
        (command === 'unsubscribe' && option === 'target') ||
        (command === 'subscribe' && option === 'feed')
      ) {
        return pick(FEED_NAMES);
      }
      return [];
    },
  };
}
