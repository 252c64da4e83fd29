import { createHash } from 'node:crypto';
import type { App } from '@slack/bolt';
import type { Logger } from '../../src/ports/index.js';
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

/**
 * Where interactions are claimed: the first claim of a key within `ttlMs` wins, every later one
 * (from any instance sharing it) loses. The bot's store leases do this atomically (Redis `SET`
 * under a script, an SQL upsert), so two copies reaching two instances at once cannot both run.
 */
export interface ReplayClaims {
  claim(key: string, ttlMs: number): Promise<boolean>;
}

/** Claims that live in this process: for a bot given no store. */
export function memoryReplayClaims(now: () => number = Date.now): ReplayClaims {
  const until = new Map<string, number>();
  return {
    async claim(key, ttlMs) {
      const at = now();
      // Dropping the expired ones here keeps the map to one window's interactions.
      for (const [k, expiry] of until) if (expiry <= at) until.delete(k);
      if (until.has(key)) return false;
      until.set(key, at + ttlMs);
      return true;
    },
  };
}

export interface ReplayGuardDeps {
  app: App;
  claims: ReplayClaims;
  logger: Logger;
  emit(event: SlackAdapterEvent): void;
}

/**
 * Runs every slash command, button click and form submission once. A copy of a signed request
 * re-sent inside the signature window passes Bolt's checks, so without this it would pause,
 * subscribe or remind a second time; the copy is acked with an empty 200 and nothing runs.
 * Keys are claimed in the bot's store, so instances sharing it refuse each other's copies too,
 * even two arriving at the same moment.
 */
export function bindReplayGuard(deps: ReplayGuardDeps): void {
  const { app, claims, logger } = deps;
  app.use(async ({ body, ack, next }) => {
    const found = replayKey(body);
    if (found === undefined) {
      await next();
      return;
    }
    let seen = false;
    try {
      seen = !(await claims.claim(storeKey(found.key), REPLAY_WINDOW_MS));
    } catch (error) {
      // The signature still holds; a store that cannot answer should not silence every command.
      logger.warn({ err: error }, 'could not check a Slack interaction for replay; running it');
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
