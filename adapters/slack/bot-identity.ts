import type { Authorize, webApi } from '@slack/bolt';
import type { Logger } from '../../src/ports/index.js';
import { BotError } from '../../src/ports/index.js';
import { isTokenError, slackErrorCode } from './error-mapping.js';

/** The bot's own ids, as auth.test reports them. */
export interface SlackBotIdentity {
  botId: string;
  botUserId: string;
  /** The workspace's address (`https://acme.slack.com/`), for links to messages. */
  workspaceUrl?: string;
}

/**
 * Checks the configured token with auth.test and returns the bot's ids, or undefined when Slack
 * could not be asked. A refusal is a configuration error: the operator set a token Slack does
 * not accept, and no amount of retrying will fix it.
 */
export async function verifySlackBotToken(
  client: webApi.WebClient,
  botToken: string,
  logger: Logger,
): Promise<SlackBotIdentity | undefined> {
  try {
    const result = await client.auth.test({ token: botToken });
    return typeof result.bot_id === 'string' && typeof result.user_id === 'string'
      ? {
          botId: result.bot_id,
          botUserId: result.user_id,
          ...(typeof result.url === 'string' ? { workspaceUrl: result.url } : {}),
        }
      : undefined;
  } catch (error) {
    const code = slackErrorCode(error);
    if (isTokenError(code)) {
      throw new BotError(
        'config_invalid',
        `SLACK_BOT_TOKEN: refused by Slack (${code}); copy the current Bot User OAuth Token (xoxb-…) from the app's Install App page`,
        { cause: error },
      );
    }
    // Slack unreachable at boot is not a config error: deliveries fail transiently and retry.
    logger.warn({ err: error }, 'could not verify the Slack bot token; continuing');
    return undefined;
  }
}

/**
 * Bolt's authorization for the single token. Given a token, Bolt would call auth.test itself
 * (in the constructor, or per request when told not to), so a request arriving while Slack is
 * slow would wait on it past Slack's 3 s deadline. The ids only serve Bolt's "ignore my own
 * events" check, which slash commands and button presses never need, so requests go on with
 * the token alone until our own start-up check has learnt them (`identity()`).
 */
export function singleTokenAuthorize(
  botToken: string,
  identity: () => SlackBotIdentity | undefined,
): Authorize<boolean> {
  return async ({ isEnterpriseInstall }) => ({ isEnterpriseInstall, botToken, ...identity() });
}
