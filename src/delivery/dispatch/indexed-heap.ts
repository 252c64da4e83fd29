/**
 * A binary min-heap of distinct keys that also knows where each key sits, so that any key can be
 * taken out (its priority changed) in O(log n), not only the smallest. `before(a, b)` < 0 when `a`
 * comes first; it must not change for a key while the key is in the heap.
 */
export class IndexedHeap<K> {
  readonly #keys: K[] = [];
  readonly #index = new Map<K, number>();
  readonly #before: (a: K, b: K) => number;

  constructor(before: (a: K, b: K) => number) {
    this.#before = before;
  }

  get size(): number {
    return this.#keys.length;
  }

  has(key: K): boolean {
    return this.#index.has(key);
  }

  peek(): K | undefined {
    return this.#keys[0];
  }

  push(key: K): void {
    this.#keys.push(key);
    this.#index.set(key, this.#keys.length - 1);
    this.#up(this.#keys.length - 1);
  }

  pop(): K | undefined {
    const top = this.#keys[0];
    if (top !== undefined) this.delete(top);
    return top;
  }

  /** Takes `key` out wherever it is; false when it was not in the heap. */
  delete(key: K): boolean {
    const at = this.#index.get(key);
    if (at === undefined) return false;
    this.#index.delete(key);
    const last = this.#keys.pop() as K;
    if (at < this.#keys.length) {
      this.#keys[at] = last;
      this.#index.set(last, at);
      this.#down(this.#up(at));
    }
    return true;
  }

  /** Moves the key at `at` towards the root while it comes before its parent; returns where it stopped. */
  #up(at: number): number {
    let i = at;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.#before(this.#keys[i] as K, this.#keys[parent] as K) >= 0) break;
      this.#swap(i, parent);
      i = parent;
    }
    return i;
  }

  #down(at: number): void {
    let i = at;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let first = i;
      if (left < this.#keys.length && this.#before(this.#keys[left] as K, this.#keys[first] as K) < 0)
        first = left;
      if (right < this.#keys.length && this.#before(this.#keys[right] as K, this.#keys[first] as K) < 0)
        first = right;
      if (first === i) return;
      this.#swap(i, first);
      i = first;
    }
  }

  #swap(a: number, b: number): void {
    const keyA = this.#keys[a] as K;
    const keyB = this.#keys[b] as K;
    this.#keys[a] = keyB;
    this.#keys[b] = keyA;
    this.#index.set(keyB, a);
    this.#index.set(keyA, b);
  }
}
