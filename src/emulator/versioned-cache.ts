/**
 * Answers kept for one version of the store's content: every mutation bumps the version, so
 * an answer computed once is served until something changes, then all are dropped together.
 * Bounded, so requests with ever-new parameters (a cursor, an id) cannot grow it without end.
 */
export class VersionedCache<T> {
  private readonly entries = new Map<string, T>();
  private version = -1;

  constructor(
    private readonly currentVersion: () => number,
    private readonly max: number,
  ) {}

  get(key: string): T | undefined {
    this.sync();
    return this.entries.get(key);
  }

  set(key: string, value: T): void {
    this.sync();
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(key, value);
  }

  private sync(): void {
    const version = this.currentVersion();
    if (version === this.version) return;
    this.entries.clear();
    this.version = version;
  }
}
