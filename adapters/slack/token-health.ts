/**
 * What the adapter knows about its own bot token from the answers Slack gave, so readiness can
 * say "the token was refused" instead of every channel quietly failing.
 */
export interface TokenHealth {
  /** Slack refused the bot token with `code` (`token_revoked`, `invalid_auth`, …). */
  refused(code: string): void;
  /** A call with the token went through, so whatever was wrong with it is fixed. */
  accepted(): void;
  /** Why the token is not usable, for /readyz; undefined while it works. */
  problem(): string | undefined;
}

/** Creates the token health tracker of a single-workspace adapter. */
export function createTokenHealth(): TokenHealth {
  let refusedWith: string | undefined;
  return {
    refused(code) {
      refusedWith = code;
    },
    accepted() {
      refusedWith = undefined;
    },
    problem() {
      return refusedWith === undefined ? undefined : `Slack rejected the bot token (${refusedWith})`;
    },
  };
}
