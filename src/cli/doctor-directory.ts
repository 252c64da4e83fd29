import { storeNamespace } from '../app/sandbox.js';
import { connectionDegradation, savedDirectoryReport } from '../app/wiring.js';
import type { Config } from '../config/config.js';
import { createDirectoryClient } from '../directory/index.js';
import { isBotError, messageOf } from '../errors.js';
import { withDeadline } from '../ports/index.js';
import { createStore } from '../store/index.js';
import { USER_AGENT } from '../version.js';

export interface DirectoryCheck {
  name: string;
  status: 'ok' | 'warning' | 'failed';
  detail: string;
}

/** One cheap authenticated call (GET /v2/oauth/token): reachable, token accepted, quota left. */
export async function checkDirectory(config: Config): Promise<DirectoryCheck> {
  const name = 'directory';
  const baseUrl = config.directory.baseUrl;
  if (!baseUrl) {
    return {
      name,
      status: 'ok',
      detail:
        'not configured: the embedded emulator serves sandbox data (set DIRECTORY_BASE_URL and DIRECTORY_TOKEN to go live)',
    };
  }
  const client = createDirectoryClient({
    baseUrl,
    token: config.directory.token ?? '',
    userAgent: USER_AGENT,
    retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
  });
  try {
    await client.tokenInfo();
    const quotas = client.ledger.snapshot();
    return {
      name,
      status: 'ok',
      detail: `${baseUrl} accepted the token; V2 requests left this window: ${quotas['v2-requests'].remaining} of ${quotas['v2-requests'].limit}`,
    };
  } catch (error) {
    const detail = isBotError(error, 'upstream_unauthorized')
      ? `${baseUrl} refused DIRECTORY_TOKEN (${messageOf(error)}): set the access token the directory issued for this application`
      : `${baseUrl}: ${messageOf(error)}`;
    return { name, status: 'failed', detail };
  } finally {
    await client.close();
  }
}

/** A report older than this means no instance is polling the directory right now. */
const STALE_REPORT_MS = 10 * 60_000;

/**
 * What the running bot found: the report its polling instance saves in the store each round
 * (connection and quota). `doctor` checks with its own call too, but a bot started with another
 * token, or during an outage that has since ended, may see something else.
 */
export async function checkRunningBot(config: Config, now = Date.now()): Promise<DirectoryCheck> {
  const name = 'running bot';
  const store = createStore({ url: config.store.url, ...storeNamespace(config) });
  try {
    const report = await withDeadline(savedDirectoryReport(store, config), 3000);
    if (report === undefined)
      return { name, status: 'ok', detail: 'none has polled this directory from this store yet' };
    const ago = Math.round((now - report.at) / 1000);
    if (now - report.at > STALE_REPORT_MS)
      return {
        name,
        status: 'warning',
        detail: `no instance has polled this directory for ${Math.round(ago / 60)} min (is the bot running?)`,
      };
    const problem = connectionDegradation(report.connection);
    if (problem !== undefined)
      return { name, status: 'failed', detail: `${problem} (reported ${ago} s ago)` };
    if (report.connection.state === 'unknown')
      return {
        name,
        status: 'ok',
        detail: `its polling instance had not heard from the directory yet ${ago} s ago`,
      };
    const v2 = report.quotas['v2-requests'];
    return {
      name,
      status: 'ok',
      detail: `its polling instance reached the directory, which took the token (reported ${ago} s ago); V2 requests left: ${v2.remaining} of ${v2.limit}`,
    };
  } catch (error) {
    return { name, status: 'warning', detail: `could not read its report: ${messageOf(error)}` };
  } finally {
    await store.close().catch(() => {});
  }
}
