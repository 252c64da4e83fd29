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
  /**
   * The surface can open a form (a Slack or Discord modal): a command that has one answers its
   * bare name (`subscribe`) with `reply.form` instead of a usage error.
   */
  canOpenForm?: boolean;
  /**
   * `button`: a message button ran the equivalent command (see message-actions.ts), so an answer
   * about the record the button names (a subscription since deleted) says so in those words.
   * `home`: a button on the home surface; `panel`: the control panel in the browser. Absent for a
   * typed command. Recorded in the channel's history; never changes who may do what.
   */
  via?: 'button' | 'home' | 'panel';
}

/** One input of a command's form; it fills the command option of the same name. */
export interface FormField {
  /** The option this input fills (`feed`, `keyword`, …). */
  option: string;
  /** At most 45 characters (Discord's label limit). */
  label: string;
  /** What the input takes, in the option's own words. */
  hint: string;
  type: 'string' | 'integer' | 'boolean';
  required: boolean;
  choices?: readonly string[];
  maxLength?: number;
  /** Grey text inside an empty input. At most 100 characters. */
  placeholder?: string;
}

/**
 * A form a command opens instead of being typed. What is submitted goes through the same parser,
 * permission check and command as the typed text (`CommandHandler.submitForm`).
 */
export interface CommandForm {
  /** The command the form submits, e.g. `subscribe`. */
  command: string;
  /** At most 24 characters (Slack's modal title limit). */
  title: string;
  /** The submit button; at most 24 characters. */
  submitLabel: string;
  /** In order of usefulness: a surface that shows fewer (Discord: 5) keeps the first ones. */
  fields: readonly FormField[];
}

/** What a person entered in a command's form, by option name; empty inputs may be left out. */
export interface FormSubmission extends Omit<CommandInvocation, 'text' | 'canOpenForm'> {
  command: string;
  values: Readonly<Record<string, string | boolean | undefined>>;
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
  /**
   * Set when the command failed: a bad argument, a refused change, an upstream problem.
   * `option` names the option the problem is about, when one is (a form shows it by that input).
   */
  error?: { code: string; usage?: string; option?: string };
  /** Open this form rather than showing `text` (only when the invocation `canOpenForm`). */
  form?: CommandForm;
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
  /**
   * The bare command opens a form where the surface can show one, so a surface that enforces
   * required options itself (Discord) must let them be left out.
   */
  opensForm?: boolean;
}

/** A link someone pasted in a conversation, which the platform offers to preview (Slack `link_shared`). */
export interface LinkPreviewRequest {
  platform: string;
  /** Who pasted it: the lookup it causes counts against their per-person limit, like a command. */
  userId: string;
  workspaceId?: string;
  url: string;
}

/**
 * What a pasted link previews as: the card the bot would post for the record it names, or why
 * there is none. `other_site`: not the directory's; `not_an_item`: a page of the directory's site
 * that names no post, collection, user or live event; `not_found`: no such record (removed);
 * `rate_limited`: the paster's lookup allowance is spent; `failed`: the directory did not answer.
 */
export type LinkPreview =
  | { status: 'found'; message: Message }
  | {
      status: 'none';
      reason: 'other_site' | 'not_an_item' | 'not_found' | 'rate_limited' | 'failed';
    };

export interface CommandHandler {
  definitions(): readonly CommandDefinition[];
  handle(invocation: CommandInvocation): Promise<CommandReply>;
  /**
   * The card a pasted directory link unfurls into, looked up like the command naming the same
   * record: the same cache, the same per-person limit, the quota's lookup reserve. Never throws.
   */
  preview?(request: LinkPreviewRequest): Promise<LinkPreview>;
  /**
   * Runs a submitted form exactly as the typed command with those values would run: same
   * parser, messages, permission check and reply.
   */
  submitForm?(submission: FormSubmission): Promise<CommandReply>;
  /** Suggestions for an option being typed (slugs, usernames). Empty when none are cheap. */
  complete?(command: string, option: string, partial: string): Promise<readonly string[]>;
}
