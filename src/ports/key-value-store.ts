/**
 * The durable key-value store as adapters see it (a keyv instance satisfies it). Used for
 * e.g. Slack's OAuth installation store; values are JSON-serialisable.
 */
export interface KeyValueStore {
  get<T>(key: string): Promise<T | undefined>;
  /** `ttlMs` omitted = keep forever. */
  set<T>(key: string, value: T, ttlMs?: number): Promise<unknown>;
  delete(key: string): Promise<boolean>;
}
