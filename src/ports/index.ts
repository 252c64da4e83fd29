/**
 * The core's public surface for adapters. `adapters/*` import from here and nowhere else in
 * `src/` (an architecture test enforces it).
 */
export type {
  AdapterContext,
  AdapterHealth,
  ChatAdapter,
  DeliveryOptions,
  DeliveryPacing,
  DeliveryOutcome,
  Destination,
  HttpHandler,
  HttpMount,
  RateLimit,
} from './chat-adapter.js';
export type { KeyValueStore } from './key-value-store.js';
export type {
  Actor,
  CommandDefinition,
  CommandHandler,
  CommandInvocation,
  CommandOptionDefinition,
  CommandReply,
} from './commands.js';
export type { LogFn, Logger } from './logger.js';
export type { ItemKind, Message, MessageAuthor, MessageField } from './message.js';
export { BotError, type BotErrorCode, isBotError } from '../errors.js';
export { truncate, sanitizeUrl } from '../text/limits.js';
