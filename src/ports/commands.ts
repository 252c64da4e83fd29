import type { Message } from './message.js';

/** Who ran a command, as the adapter established it from the platform. */
export interface Actor {
  /** Platform user id (Slack `U…`, Discord snowflake, `console`). */
  userId: string;
  displayName?: string;
  /**
   * The platform says this person may change channel settings: Slack workspace admin or
   * owner; Discord member with Manage Channels. The core also honours ADMIN_USER_IDS.
   */
  canManageChannel: boolean;
}

/** One `/directory …` invocation, parsed by the core from `text`. */
export interface CommandInvocation {
  platform: string;
  channelId: string;
  workspaceId?: string;
  actor: Actor;
  /** Everything after `/directory`, e.g. `post 42` or `subscribe comments --keyword ai`. */
  text: string;
}

export interface CommandReply {
  /** Ephemeral (only the asker sees it) or in the channel. Lookups default to ephemeral. */
  visibility: 'ephemeral' | 'in_channel';
  /** Plain text lead line (escaped by renderers like any other text). */
  text: string;
  /** Rich results, rendered like feed messages. May be empty. */
  messages: Message[];
  /** Offer a "Share in channel" action that re-posts `messages` to the channel. */
  shareable: boolean;
  /** Set when the command failed: a bad argument, a refused change, an upstream problem. */
  error?: { code: string; usage?: string };
}

/** Typed description of a command, so adapters can build native UIs (Discord options). */
export interface CommandOptionDefinition {
  name: string;
  description: string;
  type: 'string' | 'integer' | 'boolean';
  required: boolean;
  /** Positional arguments are passed in order; others as `--name value` (booleans as `--name`). */
  positional: boolean;
  choices?: readonly string[];
  minValue?: number;
  maxValue?: number;
  maxLength?: number;
  /** Cheap server-side completions are available for this option. */
  autocomplete?: boolean;
}

export interface CommandDefinition {
  name: string;
  description: string;
  usage: string;
  examples: readonly string[];
  options: readonly CommandOptionDefinition[];
  /** Changes channel state; restricted to people allowed to manage the channel. */
  managesChannel: boolean;
}

export interface CommandHandler {
  definitions(): readonly CommandDefinition[];
  handle(invocation: CommandInvocation): Promise<CommandReply>;
  /** Suggestions for an option being typed (slugs, usernames). Empty when none are cheap. */
  complete?(command: string, option: string, partial: string): Promise<readonly string[]>;
}
