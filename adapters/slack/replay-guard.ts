import { createHash } from 'node:crypto';
import type { App } from '@slack/bolt';
import type { KeyValueStore, Logger } from '../../src/ports/index.js';
import type { SlackAdapterEvent } from './events.js';

/**
 * How long an interaction's key is kept. Bolt accepts a request signed up to five minutes from
 * its clock in either direction, so a copy of one request stays valid for at most ten minutes
 * after the original arrived.
 */
export const REPLAY_WINDOW_MS = 10 * 60_000;

export type ReplayKind = 'command' | 'button' | 'form';

/**
 * Where handled interactions are remembered. The rest of the key is a hash of who did what
 * (user, trigger_id, action_ts): enough to spot a copy, and no user id for the store to hold.
 */
export const REPLAY_KEY_PREFIX = 'slack:replay:';

const storeKey = (key: string) =>
  `${REPLAY_KEY_PREFIX}${createHash('sha256').update(key).digest('base64url').slice(0, 32)}`;

/**
 * What makes one interaction itself: Slack gives every slash command, click and submission its
 * own `trigger_id` (a click also its `action_ts`), and never sends the same one twice; a
 * request carrying one already seen is a copy. Undefined for anything else (Events API events
 * are retried by Slack on purpose and acked before any work).
 */
export function replayKey(body: unknown): { kind: ReplayKind; key: string } | undefined {
  const b = body as Record<string, unknown> & {
    user?: { id?: unknown };
    actions?: { action_ts?: unknown }[];
  };
  const trigger = b['trigger_id'];
  if (typeof trigger !== 'string' || trigger === '') return undefined;
  if (typeof b['command'] === 'string' && typeof b['user_id'] === 'string') {
    return { kind: 'command', key: `command:${b['user_id']}:${trigger}` };
  }
  const userId = b.user?.id;
  if (typeof userId !== 'string') return undefined;
  if (b['type'] === 'block_actions') {
    const actionTs = b.actions?.[0]?.action_ts;
    return { kind: 'button', key: `button:${userId}:${trigger}:${String(actionTs ?? '')}` };
  }
  if (b['type'] === 'view_submission') return { kind: 'form', key: `form:${userId}:${trigger}` };
  return undefined;
}

/** A store that forgets: replay keys of one process when the bot is given no store. */
export function memoryReplayStore(now: () => number = Date.now): KeyValueStore {
  const entries = new Map<string, { value: unknown; until: number }>();
  return {
    async get<T>(key: string) {
      const entry = entries.get(key);
      if (entry === undefined || entry.until <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value as T;
    },
    async set(key, value, ttlMs) {
      // Dropping the expired ones here keeps the map to one window's interactions.
      for (const [k, entry] of entries) if (entry.until <= now()) entries.delete(k);
      entries.set(key, { value, until: ttlMs === undefined ? Number.POSITIVE_INFINITY : now() + ttlMs });
      return true;
    },
    async delete(key) {
      return entries.delete(key);
    },
  };
}

export interface ReplayGuardDeps {
  app: App;
  store: KeyValueStore;
  logger: Logger;
  emit(event: SlackAdapterEvent): void;
}

/**
 * Runs every slash command, button click and form submission once. A copy of a signed request
 * re-sent inside the signature window passes Bolt's checks, so without this it would pause,
 * subscribe or remind a second time; the copy is acked with an empty 200 and nothing runs.
 * Keys live in the bot's store, so instances sharing it refuse each other's copies too, once
 * the first is written: the store has no set-if-absent, so two copies reaching two instances in
 * the same few milliseconds could both run (the leases' atomic take would close that, at a row
 * per interaction in the SQL stores' lease table, which nothing sweeps).
 */
export function bindReplayGuard(deps: ReplayGuardDeps): void {
  const { app, store, logger } = deps;
  // Two copies arriving together would both miss the store before either is written.
  const arriving = new Set<string>();
  app.use(async ({ body, ack, next }) => {
    const found = replayKey(body);
    if (found === undefined) {
      await next();
      return;
    }
    const key = storeKey(found.key);
    let seen = arriving.has(key);
    if (!seen) {
      arriving.add(key);
      try {
        seen = (await store.get<boolean>(key)) !== undefined;
        if (!seen) await store.set(key, true, REPLAY_WINDOW_MS);
      } catch (error) {
        // The signature still holds; a store that cannot answer should not silence every command.
        logger.warn({ err: error }, 'could not check a Slack interaction for replay; running it');
      } finally {
        arriving.delete(key);
      }
    }
    if (seen) {
      logger.warn({ kind: found.kind }, 'ignored a replayed Slack request (already handled)');
      deps.emit({ type: 'replayed', kind: found.kind });
      await ack?.();
      return;
    }
    await next();
  });
}
