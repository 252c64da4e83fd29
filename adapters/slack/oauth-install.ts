import type { HTTPReceiverOptions, InstallationStore, webApi } from '@slack/bolt';
import type { KeyValueStore, SecretSealer } from '../../src/ports/index.js';
import { SLACK_BOT_SCOPES } from './scopes.js';

export interface SlackOAuthOptions {
  clientId: string;
  clientSecret: string;
  /** Signs the OAuth `state` so a redirect cannot be forged. */
  stateSecret: string;
  /** The bot's durable store; installs are kept under `slack:installation:*`. */
  installationStore: KeyValueStore;
  /** Seals the installs' tokens before they are stored (STORE_ENCRYPTION_KEY). */
  secrets: SecretSealer;
}

type OAuthReceiverOptions = Pick<
  HTTPReceiverOptions,
  'clientId' | 'clientSecret' | 'stateSecret' | 'scopes' | 'installationStore' | 'installerOptions'
>;

/**
 * The HTTP receiver's options for the multi-workspace install: `/slack/install` sends the
 * visitor to Slack's consent page, `/slack/oauth_redirect` stores the installation.
 */
export function oauthInstallOptions(
  oauth: SlackOAuthOptions,
  installationStore: InstallationStore,
  clientOptions: webApi.WebClientOptions,
): OAuthReceiverOptions {
  return {
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    stateSecret: oauth.stateSecret,
    scopes: [...SLACK_BOT_SCOPES],
    installationStore,
    installerOptions: {
      installPath: '/slack/install',
      redirectUriPath: '/slack/oauth_redirect',
      // Visiting /slack/install goes straight to Slack's consent page.
      directInstall: true,
      clientOptions,
    },
  };
}

/** The bot token a workspace's install gave us, or undefined when it never installed the app. */
export async function installedBotToken(
  installationStore: InstallationStore,
  workspaceId: string,
): Promise<string | undefined> {
  try {
    const installation = await installationStore.fetchInstallation({
      teamId: workspaceId,
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    return installation.bot?.token;
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('No Slack installation')) return undefined;
    throw error;
  }
}
