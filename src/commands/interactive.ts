/** A person is waiting: lookups may spend the quota reserve the feeds leave alone. */
export const INTERACTIVE = { priority: 'interactive' } as const;
