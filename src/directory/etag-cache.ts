/**
 * Remembers, per request URL, the ETag of the last successful list response and the items
 * parsed from it, so a 304 answer costs neither parsing nor quota for re-delivery logic.
 * Bounded (least recently used entries go first) because cursors make URLs unbounded.
 */
export interface EtagCache {
  get(url: string): CachedList | undefined;
  set(url: string, entry: CachedList): void;
  readonly size: number;
}

export interface CachedList {
  etag: string;
  items: readonly unknown[];
  /** Records of that answer left out as invalid. */
  skipped: number;
}

export function createEtagCache(maxEntries = 256): EtagCache {
  const entries = new Map<string, CachedList>();
  return {
    get(url) {
      const entry = entries.get(url);
      if (entry) {
        // Re-insert to mark as most recently used (Map keeps insertion order).
        entries.delete(url);
        entries.set(url, entry);
      }
      return entry;
    },
    set(url, entry) {
      entries.delete(url);
      entries.set(url, entry);
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
    get size() {
      return entries.size;
    },
  };
}
