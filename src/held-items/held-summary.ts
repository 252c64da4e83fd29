import type Keyv from 'keyv';
import { nextDigestAt } from '../schedule/index.js';
import type { Subscription } from '../subscriptions/index.js';
import { HeldItems } from './held-item-store.js';

/** What one subscription's schedule holds now, and when it goes. */
export interface HeldSummary {
  subscriptionId: string;
  count: number;
  /** `digest`, `quiet hours` or `volume cap`. */
  reason: string;
  /** When they go (epoch ms): the next digest slot, the end of quiet hours or of the cap window. */
  releaseAt?: number;
}

const WORDS = { digest: 'digest', quiet: 'quiet hours', cap: 'volume cap' } as const;

/**
 * The items the scheduled subscriptions among `subscriptions` hold, by why, with when they go:
 * read from the held-item documents the poller writes (one read for all). `zoneOf` is the zone
 * each schedule runs in (a digest's next slot is local).
 */
export async function heldSummaries(
  keyv: Keyv,
  directoryId: string,
  subscriptions: readonly Subscription[],
  zoneOf: (subscription: Subscription) => Promise<string>,
  now: number,
): Promise<HeldSummary[]> {
  const scheduled = subscriptions.filter((s) => s.schedule !== undefined);
  const states = await new HeldItems({ keyv, directoryId }).read(scheduled.map((s) => s.id));
  const out: HeldSummary[] = [];
  for (const s of scheduled) {
    const state = states.get(s.id);
    if (state === undefined || state.items.length === 0) continue;
    for (const reason of ['digest', 'quiet', 'cap'] as const) {
      const count = state.items.filter((item) => item.reason === reason).length;
      if (count === 0) continue;
      const digest = s.schedule?.digest;
      const releaseAt =
        reason === 'digest'
          ? digest === undefined
            ? undefined
            : nextDigestAt(digest, await zoneOf(s), now)
          : reason === 'quiet'
            ? state.quietUntil
            : state.capUntil;
      out.push({
        subscriptionId: s.id,
        count,
        reason: WORDS[reason],
        ...(releaseAt === undefined ? {} : { releaseAt }),
      });
    }
  }
  return out;
}
