import { BotError } from '../../src/ports/index.js';
import type { SlackAdapterOptions } from './adapter-options.js';

/** Refuses a Slack configuration that cannot work, with the variable to fix. */
export function validate(options: SlackAdapterOptions): void {
  if (options.signingSecret === '' && options.appToken === undefined) {
    throw new BotError('config_invalid', 'Slack needs SLACK_SIGNING_SECRET to verify requests');
  }
  if (options.botToken === undefined && options.oauth === undefined) {
    throw new BotError('config_invalid', 'Slack needs either SLACK_BOT_TOKEN or the OAuth settings');
  }
  if (options.botToken !== undefined && options.oauth !== undefined) {
    throw new BotError('config_invalid', 'Set SLACK_BOT_TOKEN or the Slack OAuth settings, not both');
  }
  if (options.botToken?.startsWith('xoxe.') === true) {
    // A rotating token dies within 12 hours, and only an OAuth install keeps its refresh token.
    throw new BotError(
      'config_invalid',
      'SLACK_BOT_TOKEN is a rotating token (xoxe.…), which expires within 12 hours: use the multi-workspace OAuth settings, or an app with token_rotation_enabled: false',
    );
  }
  if (options.appToken !== undefined && options.oauth !== undefined) {
    // Socket Mode has no request URLs of ours, and Bolt would open a second HTTP server for OAuth.
    throw new BotError(
      'config_invalid',
      'Slack Socket Mode works with a single workspace (SLACK_BOT_TOKEN) only',
    );
  }
}
