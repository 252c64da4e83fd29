import type { Clock, CommandReply } from '../ports/index.js';

export interface LookupCache {
  get(key: string): CommandReply | undefined;
  set(key: string, reply: CommandReply): void;
}

/**
 * Answers kept for a short time so that identical lookups (the same normalised command,
 * from anyone, on any platform) cost no quota. Bounded: the oldest entry goes first.
 */
export function createLookupCache(options: {
  clock: Clock;
  ttlMs: number;
  maxEntries?: number;
}): LookupCache {
  const maxEntries = options.maxEntries ?? 500;
  const entries = new Map<string, { reply: CommandReply; expiresAt: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= options.clock.now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.reply;
    },
    set(key, reply) {
      if (options.ttlMs <= 0) return;
      entries.delete(key);
      entries.set(key, { reply, expiresAt: options.clock.now() + options.ttlMs });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest === undefined) break;
        entries.delete(oldest);
      }
    },
  };
}
