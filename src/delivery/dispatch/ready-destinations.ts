import type { OutboxEntry } from '../outbox.js';
import { DeliveryTurns, type Turn } from './delivery-turns.js';
import { IndexedHeap } from './indexed-heap.js';
import { type PaceWaits, workspaceKey } from './pacer.js';

/**
 * The destinations with something to send and nothing in flight, kept in order as they change so
 * that starting a delivery costs O(log n) in the number n of queued destinations, not a sort of
 * all of them. Each is in exactly one place: ready (per platform, in turn order: see
 * DeliveryTurns), waiting until a moment (its entry's `notBefore`, or its own pace), or set aside
 * behind its workspace's pace. Of those set aside one is let back per moment its workspace may
 * send again, the one whose turn came first, so a workspace with many channels costs one look per
 * send, not one per channel.
 */
export class ReadyDestinations {
  readonly #turns = new DeliveryTurns();
  readonly #head = new Map<string, OutboxEntry>();
  readonly #turn = new Map<string, Turn>();
  readonly #byTurn = (a: string, b: string) =>
    this.#turns.compare(this.#turn.get(a) as Turn, this.#turn.get(b) as Turn);
  /** Per platform. */
  readonly #ready = new Map<string, IndexedHeap<string>>();
  readonly #dueAt = new Map<string, number>();
  readonly #waiting = new IndexedHeap<string>(
    (a, b) => (this.#dueAt.get(a) ?? 0) - (this.#dueAt.get(b) ?? 0),
  );
  /** Per workspace, the destinations held by its pace. */
  readonly #held = new Map<string, IndexedHeap<string>>();
  readonly #workspaceDueAt = new Map<string, number>();
  readonly #workspaces = new IndexedHeap<string>(
    (a, b) => (this.#workspaceDueAt.get(a) ?? 0) - (this.#workspaceDueAt.get(b) ?? 0),
  );
  /** Which heap each destination is in. */
  readonly #place = new Map<string, IndexedHeap<string>>();

  /** Platforms with destinations ready now or later. */
  platforms(): Iterable<string> {
    return this.#ready.keys();
  }

  /** The ready destination of `platform` whose turn came first. */
  next(platform: string): OutboxEntry | undefined {
    const key = this.#ready.get(platform)?.peek();
    return key === undefined ? undefined : this.#head.get(key);
  }

  /**
   * Puts a destination where its next entry `head` belongs (none: its queue is empty), after
   * its queue changed while it was not in flight.
   */
  update(destinationKey: string, head: OutboxEntry | undefined, now: number): void {
    this.#leave(destinationKey);
    if (head === undefined) {
      this.#head.delete(destinationKey);
      this.#turn.delete(destinationKey);
      return;
    }
    this.#head.set(destinationKey, head);
    this.#turn.set(destinationKey, this.#turns.turn(head));
    if (head.notBefore > now) this.#wait(destinationKey, head.notBefore);
    else this.#enter(destinationKey, head);
  }

  /** A delivery to the destination starts: it is nowhere until `finished`. */
  started(destinationKey: string): void {
    this.#leave(destinationKey);
  }

  /** Its delivery finished at `now`; `head`: what it sends next, if anything. */
  finished(destinationKey: string, head: OutboxEntry | undefined, now: number): void {
    this.#turns.finished(destinationKey, head !== undefined, now);
    this.update(destinationKey, head, now);
  }

  /** A ready destination may not send yet (`waits` > 0 for itself or its workspace). */
  hold(entry: OutboxEntry, waits: PaceWaits, now: number): void {
    const key = entry.destinationKey;
    if (waits.destination >= waits.workspace) {
      this.#leave(key);
      this.#wait(key, now + waits.destination);
      return;
    }
    this.#leave(key, false);
    const workspace = workspaceKey(entry);
    this.#push(key, this.#held, workspace);
    this.#workspaces.delete(workspace);
    this.#workspaceDueAt.set(workspace, now + waits.workspace);
    this.#workspaces.push(workspace);
  }

  /** Makes ready what was waiting until `now` or earlier. */
  advance(now: number): void {
    for (let key = this.#waiting.peek(); key !== undefined && (this.#dueAt.get(key) ?? 0) <= now; ) {
      this.#leave(key, false);
      this.#enter(key, this.#head.get(key) as OutboxEntry);
      key = this.#waiting.peek();
    }
    for (let ws = this.#workspaces.peek(); ws !== undefined && (this.#workspaceDueAt.get(ws) ?? 0) <= now; ) {
      this.#workspaces.pop();
      this.#workspaceDueAt.delete(ws);
      this.#release(ws);
      ws = this.#workspaces.peek();
    }
  }

  /** The earliest moment something waiting or held may become ready; Infinity when nothing is. */
  nextDue(): number {
    const destination = this.#waiting.peek();
    const workspace = this.#workspaces.peek();
    return Math.min(
      destination === undefined ? Number.POSITIVE_INFINITY : (this.#dueAt.get(destination) ?? 0),
      workspace === undefined ? Number.POSITIVE_INFINITY : (this.#workspaceDueAt.get(workspace) ?? 0),
    );
  }

  #enter(key: string, head: OutboxEntry): void {
    this.#push(key, this.#ready, head.destination.platform);
  }

  /** Puts the destination `key` in the turn-ordered heap `heaps` keeps under `group`. */
  #push(key: string, heaps: Map<string, IndexedHeap<string>>, group: string): void {
    let heap = heaps.get(group);
    if (!heap) {
      heap = new IndexedHeap(this.#byTurn);
      heaps.set(group, heap);
    }
    heap.push(key);
    this.#place.set(key, heap);
  }

  #wait(key: string, until: number): void {
    this.#dueAt.set(key, until);
    this.#waiting.push(key);
    this.#place.set(key, this.#waiting);
  }

  /**
   * Takes the destination out of wherever it is. One that leaves to start, to wait for its own
   * pace or because its queue changed may have left its workspace a send, so (`release`) the
   * next one held there, if the workspace is not already waiting for its pace, is let back to try.
   */
  #leave(key: string, release = true): void {
    const place = this.#place.get(key);
    if (place === undefined) return;
    place.delete(key);
    this.#place.delete(key);
    this.#dueAt.delete(key);
    const head = this.#head.get(key);
    if (!release || head === undefined) return;
    const workspace = workspaceKey(head);
    if (!this.#workspaces.has(workspace)) this.#release(workspace);
  }

  /** Lets the held destination of `workspace` whose turn came first try again. */
  #release(workspace: string): void {
    const held = this.#held.get(workspace);
    const key = held?.pop();
    if (key === undefined) return;
    this.#place.delete(key);
    if (held?.size === 0) this.#held.delete(workspace);
    this.#enter(key, this.#head.get(key) as OutboxEntry);
  }
}
