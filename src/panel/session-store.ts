import session from 'express-session';
import type { KeyValueStore } from '../ports/index.js';

/** Store keys of sessions: `panel-session:<id>` (docs/privacy.md). */
export const SESSION_KEY_PREFIX = 'panel-session:';

/**
 * express-session's store over the bot's own store (SQLite, Redis or PostgreSQL), so a session
 * made on one web instance is read by any other. Each session expires with its cookie.
 */
export class BotSessionStore extends session.Store {
  readonly #store: KeyValueStore;
  readonly #fallbackTtlMs: number;

  constructor(store: KeyValueStore, fallbackTtlMs: number) {
    super();
    this.#store = store;
    this.#fallbackTtlMs = fallbackTtlMs;
  }

  #ttl(data: session.SessionData): number {
    const expires = data.cookie?.expires;
    const left = expires ? new Date(expires).getTime() - Date.now() : this.#fallbackTtlMs;
    return Math.max(1000, left);
  }

  override get(sid: string, callback: (err: unknown, session?: session.SessionData | null) => void): void {
    this.#store.get<session.SessionData>(SESSION_KEY_PREFIX + sid).then(
      (data) => callback(null, data ?? null),
      (error: unknown) => callback(error),
    );
  }

  override set(sid: string, data: session.SessionData, callback?: (err?: unknown) => void): void {
    // Stored as plain JSON (express-session restores the cookie from it).
    const plain = JSON.parse(JSON.stringify(data)) as session.SessionData;
    this.#store.set(SESSION_KEY_PREFIX + sid, plain, this.#ttl(data)).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  override destroy(sid: string, callback?: (err?: unknown) => void): void {
    this.#store.delete(SESSION_KEY_PREFIX + sid).then(
      () => callback?.(),
      (error: unknown) => callback?.(error),
    );
  }

  override touch(sid: string, data: session.SessionData, callback?: () => void): void {
    this.set(sid, data, () => callback?.());
  }
}
