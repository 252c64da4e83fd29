import type Keyv from 'keyv';
import { BotError } from '../errors.js';
import type { Clock, SecretSealer, WebhookDirectory, WebhookEndpoint } from '../ports/index.js';
import { type LeaseBackend, LockedDocument } from '../store/index.js';

/**
 * A webhook kept in the store (`directory-bot webhook add`, the control panel): its URL and
 * signing secret sealed under STORE_ENCRYPTION_KEY like the platforms' tokens, and beside them
 * only what may be shown: its kind and the URL with the credential masked.
 */
export interface StoredWebhook extends WebhookIdentity {
  /** Sealed. */
  url: string;
  /** Sealed; the generic JSON kind's signing secret. */
  secret?: string;
  addedAt: number;
  /** `cli`, or the person who added it. */
  addedBy: string;
}

/** What may be said of any webhook: never its URL or secret. */
export interface WebhookIdentity {
  name: string;
  /** `discord`, `slack`, `teams`, `mattermost` or `json` (WEBHOOK_KINDS in src/app/platforms.ts). */
  kind: string;
  /** Its destinations' platform: `teams-webhook`… */
  platform: string;
  /** The URL with its credential masked, as lists and exports show it. */
  shown: string;
  /** Where its pacing is shared (a Slack team, a Mattermost server), as its subscriptions carry it. */
  workspaceId?: string;
}

/** A webhook from the environment (`WEBHOOK_<NAME>_URL`), its kind known from its URL. */
export interface ConfiguredWebhook extends WebhookIdentity {
  url: string;
  secret?: string;
  /** The variable holding its URL, for lists and error messages. */
  variable: string;
}

/** One webhook as lists show it: never its URL or secret. */
export interface WebhookSummary extends WebhookIdentity {
  /** Where it is configured: the variable's name, or `store`. */
  source: string;
}

/** The store document holding every stored webhook (docs/privacy.md lists it). */
export const WEBHOOKS_KEY = 'webhooks';
const WEBHOOKS_WRITE_LOCK = 'webhooks-write';
/** How long a stored webhook's opened URL is reused before the store is read again. */
const CACHE_MS = 10_000;

export interface WebhookRegistryOptions {
  keyv: Keyv;
  leases: LeaseBackend;
  clock: Clock;
  /** Opens and seals stored URLs; undefined without STORE_ENCRYPTION_KEY (nothing can be stored). */
  sealer: SecretSealer | undefined;
  /** The webhooks of the environment, which win over a stored one of the same name. */
  configured: readonly ConfiguredWebhook[];
}

/**
 * Every webhook the bot may post to, from the environment and from the store, by name. It is the
 * webhook adapters' `WebhookDirectory`: a delivery asks for its endpoint by name, so a webhook
 * stored by another process (the CLI) is found without a restart. Opened URLs live in memory only.
 */
export class WebhookRegistry implements WebhookDirectory {
  readonly #document: LockedDocument<StoredWebhook[]>;
  readonly #options: WebhookRegistryOptions;
  #cache: { at: number; endpoints: Map<string, WebhookEndpoint & { platform: string }> } | undefined;

  constructor(options: WebhookRegistryOptions) {
    this.#options = options;
    this.#document = new LockedDocument<StoredWebhook[]>({
      keyv: options.keyv,
      leases: options.leases,
      key: WEBHOOKS_KEY,
      lockName: WEBHOOKS_WRITE_LOCK,
      empty: () => [],
    });
  }

  async endpoint(platform: string, name: string): Promise<WebhookEndpoint | undefined> {
    const configured = this.#options.configured.find((w) => w.name === name);
    if (configured !== undefined) {
      if (configured.platform !== platform) return undefined;
      return {
        name,
        url: configured.url,
        ...(configured.secret === undefined ? {} : { secret: configured.secret }),
      };
    }
    const now = this.#options.clock.now();
    let found =
      this.#cache !== undefined && now - this.#cache.at < CACHE_MS
        ? this.#cache.endpoints.get(name)
        : undefined;
    if (found === undefined) {
      this.#cache = { at: now, endpoints: await this.#openAll() };
      found = this.#cache.endpoints.get(name);
    }
    if (found === undefined || found.platform !== platform) return undefined;
    const { platform: _platform, ...endpoint } = found;
    return endpoint;
  }

  /** Every webhook, the environment's first, without URLs. */
  async list(): Promise<WebhookSummary[]> {
    const summaries = this.#options.configured.map((w) => summary(w, w.variable));
    for (const stored of await this.#document.read()) {
      if (!summaries.some((s) => s.name === stored.name)) summaries.push(summary(stored, 'store'));
    }
    return summaries.sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The webhook named `name`, without its URL; undefined when there is none. */
  async find(name: string): Promise<WebhookSummary | undefined> {
    return (await this.list()).find((w) => w.name === name);
  }

  /**
   * Stores a webhook, sealed. Refused without STORE_ENCRYPTION_KEY (a webhook URL is never kept in
   * plain text), for a name the environment configures, and for a name stored with another URL
   * (remove it first): resolves to whether anything was written (false: the same URL is stored).
   */
  async add(input: {
    name: string;
    kind: string;
    platform: string;
    url: string;
    secret?: string;
    shown: string;
    workspaceId?: string;
    addedBy: string;
  }): Promise<boolean> {
    const sealer = this.#options.sealer;
    if (sealer === undefined) {
      throw new BotError(
        'config_invalid',
        'STORE_ENCRYPTION_KEY: required to keep a webhook URL in the store (it is a secret, sealed like tokens); generate one with openssl rand -base64 32',
      );
    }
    const configured = this.#options.configured.find((w) => w.name === input.name);
    if (configured !== undefined) {
      throw new BotError(
        'command_usage',
        `the webhook "${input.name}" is configured by ${configured.variable}`,
      );
    }
    const added = await this.#document.update((all) => {
      const existing = all.find((w) => w.name === input.name);
      if (existing !== undefined) {
        if (sealer.open(existing.url).plaintext === input.url) return { result: false };
        throw new BotError(
          'command_usage',
          `a webhook named "${input.name}" is already stored with another URL: remove it first (directory-bot webhook remove ${input.name})`,
        );
      }
      const stored: StoredWebhook = {
        name: input.name,
        kind: input.kind,
        platform: input.platform,
        url: sealer.seal(input.url),
        ...(input.secret === undefined ? {} : { secret: sealer.seal(input.secret) }),
        shown: input.shown,
        ...(input.workspaceId === undefined ? {} : { workspaceId: input.workspaceId }),
        addedAt: this.#options.clock.now(),
        addedBy: input.addedBy,
      };
      return { next: [...all, stored], result: true };
    });
    this.#cache = undefined;
    return added;
  }

  /** Forgets a stored webhook; the stored record (without URL) when there was one. */
  async remove(name: string): Promise<Omit<StoredWebhook, 'url' | 'secret'> | undefined> {
    const removed = await this.#document.update((all) => {
      const found = all.find((w) => w.name === name);
      if (found === undefined) return { result: undefined };
      return { next: all.filter((w) => w !== found), result: found };
    });
    this.#cache = undefined;
    if (removed === undefined) return undefined;
    const { url: _url, secret: _secret, ...shown } = removed;
    return shown;
  }

  async #openAll(): Promise<Map<string, WebhookEndpoint & { platform: string }>> {
    const endpoints = new Map<string, WebhookEndpoint & { platform: string }>();
    const sealer = this.#options.sealer;
    if (sealer === undefined) return endpoints;
    for (const stored of await this.#document.read()) {
      endpoints.set(stored.name, {
        name: stored.name,
        platform: stored.platform,
        url: sealer.open(stored.url).plaintext,
        ...(stored.secret === undefined ? {} : { secret: sealer.open(stored.secret).plaintext }),
      });
    }
    return endpoints;
  }
}

function summary(webhook: WebhookIdentity, source: string): WebhookSummary {
  const { name, kind, platform, shown, workspaceId } = webhook;
  return { name, kind, platform, shown, source, ...(workspaceId === undefined ? {} : { workspaceId }) };
}
