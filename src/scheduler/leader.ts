import { randomBytes } from 'node:crypto';
import type { LeaseBackend } from '../store/leases.js';

export type LeaderEvent =
  | { type: 'acquired'; owner: string }
  | { type: 'lost'; owner: string; reason: string }
  | { type: 'released'; owner: string }
  | { type: 'lease-error'; owner: string; error: unknown };

export interface LeaderOptions {
  leases: LeaseBackend;
  /** Lease name shared by every instance of the bot on the store. */
  name?: string;
  ttlMs?: number;
  renewEveryMs?: number;
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
export class LeaderElection {
  readonly owner = `${process.pid}-${randomBytes(4).toString('hex')}`;
  readonly #options: Required<Omit<LeaderOptions, 'onEvent'>> & Pick<LeaderOptions, 'onEvent'>;
  #leading = false;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #transition: Promise<void> = Promise.resolve();

  constructor(options: LeaderOptions) {
    this.#options = { name: 'poller', ttlMs: 30_000, renewEveryMs: 10_000, ...options };
  }

  get isLeader(): boolean {
    return this.#leading;
  }

  start(): void {
    this.#running = true;
    void this.#round();
  }

  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#timer);
    await this.#transition;
    if (this.#leading) {
      this.#leading = false;
      await this.#options.onFollow();
      await this.#options.leases.release(this.#options.name, this.owner).catch(() => {});
      this.#options.onEvent?.({ type: 'released', owner: this.owner });
    }
  }

  async #round(): Promise<void> {
    if (!this.#running) return;
    const { leases, name, ttlMs, renewEveryMs } = this.#options;
    let holds = false;
    let reason = 'another instance holds the lease';
    try {
      holds = await leases.acquire(name, this.owner, ttlMs);
    } catch (error) {
      reason = `the store did not answer: ${error instanceof Error ? error.message : String(error)}`;
      this.#options.onEvent?.({ type: 'lease-error', owner: this.owner, error });
    }
    if (holds && !this.#leading) {
      this.#leading = true;
      this.#transition = this.#transition.then(() => this.#options.onLead());
      this.#options.onEvent?.({ type: 'acquired', owner: this.owner });
    } else if (!holds && this.#leading) {
      // Could not renew: another instance may take over once the lease lapses, so stop now.
      this.#leading = false;
      this.#transition = this.#transition.then(() => this.#options.onFollow());
      this.#options.onEvent?.({ type: 'lost', owner: this.owner, reason });
    }
    await this.#transition.catch(() => {});
    if (!this.#running) return;
    // Followers check more often than the TTL so takeover happens soon after a lapse.
    this.#timer = setTimeout(
      () => void this.#round(),
      this.#leading ? renewEveryMs : Math.min(renewEveryMs, ttlMs / 3),
    );
  }
}
