import type { KeyValueStore } from '../../src/ports/index.js';

/** The KeyValueStore port over a Map (TTLs ignored: tests never outlive them). */
export function createMemoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: async <T>(key: string) => data.get(key) as T | undefined,
    set: async <T>(key: string, value: T) => {
      data.set(key, structuredClone(value));
      return true;
    },
    delete: async (key: string) => data.delete(key),
  };
}
