import type { QuotaClass, QuotaLedger } from '../directory/index.js';
import { isBotError } from '../errors.js';
import type { CommandReply } from '../ports/index.js';
import { errorReply } from './replies.js';
import { formatDuration, formatUtc } from './time-text.js';
import type { CommandResult } from './types.js';

const NOT_ANSWERING = 'The directory is not answering right now; try again in a minute.';

/** When the budget that refused a call comes back: the error's hint, else the ledger's reset. */
function resetTime(error: unknown, ledger: QuotaLedger, now: number): number | undefined {
  if (isBotError(error) && error.retryAfterMs !== undefined && error.retryAfterMs > 0) {
    return now + error.retryAfterMs;
  }
  const snapshot = ledger.snapshot();
  const named = isBotError(error) ? (error.details?.['quotaClass'] as QuotaClass | undefined) : undefined;
  const candidates = (named && snapshot[named] ? [snapshot[named]] : Object.values(snapshot))
    .filter((q) => q.paused || q.remaining <= 0)
    .map((q) => q.resetAt)
    .filter((at): at is number => at !== null && at > now);
  return candidates.length > 0 ? Math.max(...candidates) : undefined;
}

/**
 * Turns a failed lookup into a private, friendly answer: what happened and what to do, never
 * a stack trace. A spent quota says when it comes back.
 */
export function upstreamFailureReply(
  error: unknown,
  deps: { ledger: QuotaLedger; now: number },
): { reply: CommandReply; result: CommandResult } {
  if (isBotError(error, 'quota_exhausted') || isBotError(error, 'upstream_rate_limited')) {
    const at = resetTime(error, deps.ledger, deps.now);
    const when =
      at === undefined
        ? 'Try again in a few minutes.'
        : `It resets at ${formatUtc(at, deps.now)} (in ${formatDuration(at - deps.now)}); try again then.`;
    return {
      reply: errorReply(error.code, `The directory lookup budget is used up for now. ${when}`),
      result: 'quota',
    };
  }
  if (isBotError(error, 'upstream_unauthorized')) {
    return {
      reply: errorReply(
        error.code,
        "The directory refused the bot's access token; ask whoever runs the bot to check DIRECTORY_TOKEN.",
      ),
      result: 'upstream_error',
    };
  }
  if (isBotError(error, 'upstream_not_found')) {
    return { reply: errorReply(error.code, 'The directory has no such thing.'), result: 'not_found' };
  }
  if (isBotError(error) && error.code.startsWith('upstream_')) {
    return { reply: errorReply(error.code, NOT_ANSWERING), result: 'upstream_error' };
  }
  return {
    reply: errorReply('internal', 'Something went wrong while answering; try again in a minute.'),
    result: 'error',
  };
}
