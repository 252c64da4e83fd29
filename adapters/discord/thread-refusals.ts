import type { Destination, ThreadOpening } from '../../src/ports/index.js';

type OpenThread = (destination: Destination, parentMessageId: string, name: string) => Promise<ThreadOpening>;
type Refused = Extract<ThreadOpening, { status: 'refused' }>;

/** How long a channel's refusal to start threads is believed before the bot asks again. */
export const THREAD_REFUSAL_MEMORY_MS = 60 * 60 * 1000;
/** Channels remembered before the memory starts over (each then costs one more refused start). */
const MAX_REMEMBERED = 10_000;
/** Refusals about the channel (its permissions, its type), not about one post's message. */
const CHANNEL_WIDE = new Set(['cannot_create_threads', 'threads_not_supported']);

/**
 * Remembers, per channel, that Discord refused to start a thread there (no Create Public Threads,
 * or a channel without threads), so the next comments go straight to the channel with the same
 * note instead of each asking again: every refused start is a 403 that counts toward Discord's
 * invalid-request limit (10,000 per 10 minutes, then the bot's IP is banned for a while). Asked
 * again after an hour, or when the bot restarts, so a permission granted later is noticed.
 */
export function rememberThreadRefusals(open: OpenThread, now: () => number): OpenThread {
  const refused = new Map<string, { opening: Refused; until: number }>();
  return async (destination, parentMessageId, name) => {
    const known = refused.get(destination.channelId);
    if (known !== undefined && known.until > now()) return known.opening;
    refused.delete(destination.channelId);
    const opening = await open(destination, parentMessageId, name);
    if (opening.status === 'refused' && CHANNEL_WIDE.has(opening.code)) {
      if (refused.size >= MAX_REMEMBERED) refused.clear();
      refused.set(destination.channelId, { opening, until: now() + THREAD_REFUSAL_MEMORY_MS });
    }
    return opening;
  };
}
