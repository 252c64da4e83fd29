import { createSlackAdapter } from '../../adapters/slack/index.js';
import type { ChatAdapter, KeyValueStore, Logger, SecretSealer } from '../../src/ports/index.js';
import { createSecretSealer, type StoreSealer } from '../../src/store/sealed-values.js';
import { createCapturingLogger } from './capturing-logger.js';
import { FakeCommandHandler } from './fake-command-handler.js';
import type { MountServer } from './mount-server.js';
import { slackScript } from './slack-command-script.js';

/** Seals installs' tokens as the app does, under a fixed test key. */
export function createTestSealer(key = Buffer.alloc(32, 7)): StoreSealer {
  return createSecretSealer({ current: key });
}

/** A Slack adapter with multi-workspace install, its installs in `installationStore`. */
export function createOAuthSlackAdapter(
  apiUrl: string,
  installationStore: KeyValueStore,
  secrets: SecretSealer,
  signingSecret = 'signing-secret',
  extra: { now?: () => number; logger?: Logger } = {},
): ChatAdapter {
  return createSlackAdapter({
    signingSecret,
    apiUrl,
    logger: extra.logger ?? createCapturingLogger(),
    ...(extra.now === undefined ? {} : { now: extra.now }),
    oauth: {
      clientId: 'client-id',
      clientSecret: 'client-secret',
      stateSecret: 'state-secret',
      installationStore,
      secrets,
    },
  });
}

/**
 * The app installed in each workspace of `tokens` (team id → bot token) as an OAuth install
 * leaves it: the token known to the fake Slack and the installation in `installationStore`.
 */
export async function storeInstallations(
  slack: { addToken(token: string, teamId: string): void },
  installationStore: KeyValueStore,
  tokens: Readonly<Record<string, string>>,
): Promise<void> {
  for (const [team, token] of Object.entries(tokens)) {
    slack.addToken(token, team);
    await installationStore.set(`slack:installation:team:${team}`, {
      team: { id: team, name: team },
      enterprise: undefined,
      isEnterpriseInstall: false,
      bot: { token, scopes: ['chat:write'], id: `B${team}`, userId: `U${team}` },
    });
  }
}

/**
 * Goes through /slack/install and /slack/oauth_redirect on the bot's server as a browser would,
 * with `code` as the fake consent page's answer; resolves with the redirect's response.
 */
export async function completeOAuthInstall(serverUrl: string, code = 'code-1'): Promise<Response> {
  const start = await fetch(`${serverUrl}/slack/install`, { redirect: 'manual' });
  const state = new URL(start.headers.get('location') ?? '').searchParams.get('state') ?? '';
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return fetch(`${serverUrl}/slack/oauth_redirect?code=${code}&state=${encodeURIComponent(state)}`, {
    headers: { cookie },
    redirect: 'manual',
  });
}

/**
 * Starts `adapter` on `server` with the scripted command handler, then installs it into a
 * workspace through the fake consent page's `code`; throws when the install is refused.
 */
export async function startAndInstall(
  adapter: ChatAdapter,
  server: MountServer,
  code = 'code-1',
): Promise<void> {
  await adapter.start({
    http: server.http,
    commands: new FakeCommandHandler(slackScript),
    logger: createCapturingLogger(),
  });
  const done = await completeOAuthInstall(server.url, code);
  if (done.status !== 200) throw new Error(`the OAuth install answered ${done.status}`);
}
