/**
 * Discord's documented message limits (developers/resources/message.mdx). The OpenAPI spec says
 * 4000 for content; the docs say 2000 and the spec's README says the docs win.
 */
export const DISCORD_LIMITS = {
  content: 2000,
  embeds: 10,
  embedTotal: 6000,
  title: 256,
  description: 4096,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  author: 256,
  url: 2048,
} as const;

/** Message flag EPHEMERAL (1 << 6): only the person who ran the command sees the reply. */
export const EPHEMERAL_FLAG = 64;

/** `{ parse: [] }`: no text in any message the bot sends can ping @everyone, @here, a role or a user. */
export const NO_MENTIONS = Object.freeze({ parse: [] as never[] });

/**
 * What discord.js adds to every reset it learns from the headers (its default, stated here so the
 * outbox adds the same and never sends before discord.js's own bucket has refilled).
 */
export const RATE_LIMIT_OFFSET_MS = 50;
