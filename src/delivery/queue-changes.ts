/**
 * Who follows which destinations' queues changed (the dispatcher), so that after a delivery it
 * re-reads only those heads instead of every destination's. Each watcher has its own set.
 */
export class QueueChanges {
  readonly #watchers: Set<string>[] = [];

  /** A new watcher: `take` returns the destinations changed since the last `take` (at first, `current`). */
  watch(current: Iterable<string>): { take(): string[] } {
    const changed = new Set(current);
    this.#watchers.push(changed);
    return {
      take: () => {
        const destinations = [...changed];
        changed.clear();
        return destinations;
      },
    };
  }

  changed(destinations: Iterable<string>): void {
    for (const destination of destinations) for (const changed of this.#watchers) changed.add(destination);
  }
}
