import type { LeaseBackend } from '../../src/store/leases.js';

/** Leases every caller always gets: for tests of one instance, where no one competes for a lock. */
export const freeLeases: LeaseBackend = {
  acquire: async () => true,
  release: async () => {},
  holder: async () => undefined,
};
