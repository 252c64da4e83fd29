import { randomBytes } from 'node:crypto';
import { messageOf } from '../errors.js';
import { withDeadline } from '../ports/index.js';
import type { LeaseBackend } from '../store/index.js';

export type LeaderEvent =
  | { type: 'acquired'; owner: string }
  | { type: 'lost'; owner: string; reason: string }
  | { type: 'released'; owner: string }
  | { type: 'lease-error'; owner: string; error: unknown }
  | { type: 'transition-failed'; owner: string; to: 'lead' | 'follow'; error: unknown };

export interface LeaderOptions {
  leases: LeaseBackend;
  /** Lease name shared by every instance of the bot on the store. */
  name?: string;
  ttlMs?: number;
  renewEveryMs?: number;
  /**
   * Another lease this instance defers to: while anyone holds it, this instance neither takes
   * its own lease nor keeps working. For the `poller` lease of versions before per-directory
   * leases: during a deploy's overlap the old dyno polls under it, unaware of the new name.
   */
  deferTo?: string;
  /** Start polling and delivering. */
  onLead: () => Promise<void>;
  /** Stop polling and delivering (lost the lease, or shutting down). */
  onFollow: () => Promise<void>;
  onEvent?: (event: LeaderEvent) => void;
}

/**
 * Exactly one instance polls and delivers at a time. Heroku runs the old and new dyno
 * side by side on every deploy and daily restart; the lease makes the newcomer wait until
 * the old one releases it on SIGTERM, or until it lapses if the old one died.
 */
export class PollerLease {
  readonly owner = `${process.pid}-${randomBytes(4).toString('hex')}`;
  readonly #options: Required<Omit<LeaderOptions, 'onEvent'>> & Pick<LeaderOptions, 'onEvent'>;
  #leading = false;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #round: Promise<void> = Promise.resolve();
  #stopping: Promise<void> | undefined;

  constructor(options: LeaderOptions) {
    this.#options = { name: 'poller', ttlMs: 30_000, renewEveryMs: 10_000, deferTo: '', ...options };
  }

  get isLeader(): boolean {
    return this.#leading;
  }

  start(): void {
    this.#running = true;
    this.#stopping = undefined;
    this.#schedule(0);
  }

  /** Stops competing; when leading, stops the work and releases the lease. Never throws; safe to call twice. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      this.#running = false;
      clearTimeout(this.#timer);
      await this.#round;
      if (!this.#leading) return;
      this.#leading = false;
      await this.#follow();
      await this.#options.leases.release(this.#options.name, this.owner).catch(() => {});
      this.#options.onEvent?.({ type: 'released', owner: this.owner });
    })();
    return this.#stopping;
  }

  #schedule(delayMs: number): void {
    if (!this.#running) return;
    this.#timer = setTimeout(() => {
      this.#round = this.#compete().finally(() => {
        // Followers check more often than the TTL so takeover happens soon after a lapse.
        const { renewEveryMs, ttlMs } = this.#options;
        this.#schedule(this.#leading ? renewEveryMs : Math.min(renewEveryMs, ttlMs / 3));
      });
    }, delayMs);
  }

  async #compete(): Promise<void> {
    const { leases, name, ttlMs, deferTo } = this.#options;
    let holds = false;
    let reason = 'another instance holds the lease';
    try {
      // A store that hangs must not keep a leader working past its lease: give up after half of it.
      const deferred =
        deferTo !== '' && (await withDeadline(leases.holder(deferTo), ttlMs / 2)) !== undefined;
      if (deferred) reason = `an instance of an earlier version holds the lease "${deferTo}"`;
      else holds = await withDeadline(leases.acquire(name, this.owner, ttlMs), ttlMs / 2);
    } catch (error) {
      reason = `the store did not answer: ${messageOf(error)}`;
      this.#options.onEvent?.({ type: 'lease-error', owner: this.owner, error });
    }
    if (!this.#running) return;
    if (holds && !this.#leading) {
      this.#leading = true;
      try {
        await this.#options.onLead();
        this.#options.onEvent?.({ type: 'acquired', owner: this.owner });
      } catch (error) {
        // Could not start working (e.g. the store failed while loading the outbox): undo,
        // let go of the lease, and try again next round instead of holding it idle.
        this.#options.onEvent?.({ type: 'transition-failed', owner: this.owner, to: 'lead', error });
        this.#leading = false;
        await this.#follow();
        await leases.release(name, this.owner).catch(() => {});
      }
    } else if (!holds && this.#leading) {
      // Could not renew: another instance may take over once the lease lapses, so stop now.
      this.#leading = false;
      this.#options.onEvent?.({ type: 'lost', owner: this.owner, reason });
      await this.#follow();
    }
  }

  async #follow(): Promise<void> {
    try {
      await this.#options.onFollow();
    } catch (error) {
      this.#options.onEvent?.({ type: 'transition-failed', owner: this.owner, to: 'follow', error });
    }
  }
}
