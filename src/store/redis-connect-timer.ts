import type KeyvRedis from '@keyv/redis';

/**
 * @keyv/redis 5.1 races its first connect against a `connectionTimeout` timer it never clears
 * (keyv issue #2070, fixed after the last 5.x release our registry carries), so every one-shot
 * command on a Redis store stayed alive for that timeout after closing the store. This keeps
 * the same deadline on a timer that cannot hold the process open by itself; an open socket
 * still does, so a connect in progress is waited for as before.
 */
export function releaseConnectTimer(adapter: KeyvRedis<unknown>): void {
  (adapter as unknown as { createTimeoutPromise(ms: number): Promise<never> }).createTimeoutPromise = (ms) =>
    new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error(`Redis timed out after ${ms}ms`)), ms).unref();
    });
}
