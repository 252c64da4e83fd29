import { formatUtc } from '../schedule/index.js';
import type { Subscription } from './subscription.js';
import { USER_PAUSE_CODE } from './subscription-repository.js';

/**
 * Why a subscription is paused, in words: the platform's refusal as recorded, or who paused it
 * and when. A user id is shown as plain text (the renderers escape it: it never pings).
 */
export function describePause(paused: NonNullable<Subscription['paused']>, now: number): string {
  if (paused.code !== USER_PAUSE_CODE) return paused.reason;
  const who = paused.by === undefined ? '' : `user ${paused.by}, `;
  return `${paused.reason} (${who}${formatUtc(paused.at, now)})`;
}
