import { DiscordAPIError, type REST, Routes } from 'discord.js';
import { BotError, type Logger } from '../../src/ports/index.js';

/**
 * Asks Discord who the bot token belongs to (`GET /users/@me`) before the bot goes live. A 401
 * is a configuration error: the operator set a token Discord does not accept (reset, or copied
 * wrong), and no retry will fix it. Anything else (network, 5xx, a timeout) is Discord's passing
 * trouble: logged, and deliveries retry as usual.
 */
export async function verifyDiscordToken(rest: REST, logger: Logger): Promise<void> {
  try {
    await rest.get(Routes.user());
  } catch (error) {
    if (error instanceof DiscordAPIError && error.status === 401) {
      throw new BotError(
        'config_invalid',
        "DISCORD_TOKEN: refused by Discord (401 Unauthorized); reset the token on the application's Bot page in the Developer Portal and set the new one",
        { cause: error },
      );
    }
    logger.warn({ err: error }, 'could not verify the Discord bot token; continuing');
  }
}
