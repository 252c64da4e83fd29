import type { Config } from '../config/config.js';
import { createDirectoryClient } from '../directory/index.js';
import { ConfigError, isBotError } from '../errors.js';
import { withDeadline } from '../ports/index.js';
import { USER_AGENT } from '../version.js';

/**
 * How long start-up waits for the directory's answer. A directory that does not answer in time
 * is not a configuration error (it may be down, and come back): the bot starts, says so once,
 * and reports itself degraded until the directory answers.
 */
export const TOKEN_CHECK_MS = 10_000;

/**
 * The start-up check of DIRECTORY_TOKEN: one `GET /v2/oauth/token` (one request of the V2
 * quota, as `doctor` spends). A token the directory refuses is a configuration error, like a
 * Slack or Discord token refused at start-up: without it nothing is ever posted, and a bot that
 * starts anyway looks healthy. Any other failure leaves the start to go on; the client's
 * connection state (logged once, `/readyz`'s `degraded`, `/directory status`) says what is wrong.
 */
export async function checkDirectoryToken(
  directory: Pick<Config['directory'], 'token'> & { baseUrl: string },
): Promise<void> {
  const { baseUrl } = directory;
  // A client of its own: what it finds is said here, once, not again by the bot's client, whose
  // connection state starts with its first poll.
  const client = createDirectoryClient({ baseUrl, token: directory.token ?? '', userAgent: USER_AGENT });
  const refused = await withDeadline(
    client.tokenInfo().then(
      () => undefined,
      (error: unknown) => (isBotError(error, 'upstream_unauthorized') ? error : undefined),
    ),
    TOKEN_CHECK_MS,
    () => undefined,
  ).finally(() => {
    // Not awaited: a call still waiting on a silent directory must not hold up the start.
    void client.close().catch(() => {});
  });
  if (refused === undefined) return;
  // The message reads `GET <url> → 401: unauthorized_oauth: …`; the URL is named once, below.
  const answer = /→ (.*)$/.exec(refused.message)?.[1] ?? refused.message;
  throw new ConfigError(
    `DIRECTORY_TOKEN: refused by the directory at ${baseUrl} (${answer.replace(/^(\d+): /, '$1 ')}); set the access token the directory issued for this application`,
  );
}
