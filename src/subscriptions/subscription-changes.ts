import type { Subscription } from './subscription.js';

/** Told the subscriptions one write added, removed or changed (a changed one appears before and after). */
export type SubscriptionChangeListener = (changed: readonly Subscription[]) => void;

/**
 * The subscriptions that differ between two versions of the list. A change keeps the objects it
 * leaves alone, so identity rules most out at once; one written back as it was (a second identical
 * subscribe) is compared by content, so it does not count.
 */
export function changedSubscriptions(
  before: readonly Subscription[],
  after: readonly Subscription[],
): Subscription[] {
  const kept = new Set(after);
  const old = new Set(before);
  const gone = before.filter((s) => !kept.has(s));
  const added = after.filter((s) => !old.has(s));
  const was = new Map(gone.map((s) => [s.id, JSON.stringify(s)]));
  const now = new Map(added.map((s) => [s.id, JSON.stringify(s)]));
  return [
    ...gone.filter((s) => now.get(s.id) !== was.get(s.id)),
    ...added.filter((s) => was.get(s.id) !== now.get(s.id)),
  ];
}

/** Tells every listener; one that throws never stops the write that already happened, nor the others. */
export function notifyChange(
  listeners: readonly SubscriptionChangeListener[],
  before: readonly Subscription[],
  after: readonly Subscription[],
): void {
  if (listeners.length === 0) return;
  const changed = changedSubscriptions(before, after);
  if (changed.length === 0) return;
  for (const listener of listeners) {
    try {
      listener(changed);
    } catch {
      // A listener (the home tab's republisher) owns its failures; the change is stored either way.
    }
  }
}
