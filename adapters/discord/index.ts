/** The Discord adapter's public surface: what the composition root and the CLI wire up. */
export { type BuildCommandsOptions, buildDiscordCommands, ROOT_COMMAND } from './build-commands.js';
export { nonceFor } from './deliver.js';
export { createDiscordAdapter, DISCORD_PACING, type DiscordAdapterOptions } from './discord-adapter.js';
export { escapeMarkdown } from './escape-markdown.js';
export { INTERACTIONS_PATH } from './http-interactions.js';
export { DISCORD_LIMITS } from './limits.js';
export { DISCORD_MENTIONS, type DiscordMentions, discordMentions } from './mentions.js';
export { type RegisterCommandsOptions, registerDiscordCommands } from './register-commands.js';
export type { DiscordEmbed } from './render-embed.js';
export {
  type DiscordMessageBody,
  type RenderReplyOptions,
  renderDiscordMessage,
  renderDiscordReply,
} from './render-message.js';
export type { DiscordRestEvent } from './rest-client.js';
