/**
 * Buttons on a delivered message. Every button is the equivalent of a `/directory` command run
 * by the person who clicks it, in the message's channel, and is authorised exactly as that
 * command: the core composes the action, the adapter renders it, and a click comes back as the
 * command's text to the same command handler.
 *
 * A button's id (Slack `action_id`, Discord `custom_id`) carries only a verb and a record id,
 * never state, and is versioned: `dirbot:v1:follow:123`. The version pins what the verb means,
 * so a message posted before a deploy keeps working after it; an id of a version this build no
 * longer knows is answered as expired, never guessed at.
 */

/** What a command button does; each maps to one command in {@link ACTION_COMMANDS_V1}. */
export type ActionVerb = 'comments' | 'follow' | 'remind' | 'mute';

/** A button that runs a command as the clicker. `command` is the equivalent command text. */
export interface CommandAction {
  kind: 'command';
  /** Plain text; renderers escape and cut it to the platform's label limit. */
  label: string;
  verb: ActionVerb;
  /** The record the verb acts on: a post id or a subscription id. */
  target: string;
  /** The `/directory` text a click runs, e.g. `subscribe comments --post 42`. */
  command: string;
}

/** A button that opens a URL; platforms need no round trip for it. */
export interface LinkAction {
  kind: 'link';
  label: string;
  url: string;
}

export type MessageAction = CommandAction | LinkAction;

/** Every button id of ours starts with this; anything else is not a message button. */
export const ACTION_ID_PREFIX = 'dirbot:';
const VERSION = 'v1';

/** What each verb ran when version 1 was current. A new meaning is a new version, never an edit. */
const ACTION_COMMANDS_V1: Readonly<Record<ActionVerb, (target: string) => string>> = {
  comments: (postId) => `comments ${postId}`,
  follow: (postId) => `subscribe comments --post ${postId}`,
  remind: (liveEventId) => `remind ${liveEventId}`,
  mute: (subscriptionId) => `pause ${subscriptionId}`,
};

/**
 * A target is an id the directory or the bot made: letters, digits, dashes, underscores. Anything
 * else (spaces, quotes, `--flags`) could smuggle extra arguments into the command, so it is refused
 * when composing and when decoding.
 */
const TARGET = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

function isVerb(value: string): value is ActionVerb {
  return Object.hasOwn(ACTION_COMMANDS_V1, value);
}

/** A command button for `verb` on `target`, or undefined when the target is not a plain id. */
export function commandAction(verb: ActionVerb, target: string, label: string): CommandAction | undefined {
  if (!TARGET.test(target)) return undefined;
  return { kind: 'command', label, verb, target, command: ACTION_COMMANDS_V1[verb](target) };
}

/** The platform id of a command button: `dirbot:v1:<verb>:<target>` (at most 82 characters). */
export function encodeActionId(action: Pick<CommandAction, 'verb' | 'target'>): string {
  return `${ACTION_ID_PREFIX}${VERSION}:${action.verb}:${action.target}`;
}

/**
 * What a clicked button id means: the command to run as the clicker, or `expired` for an id of
 * ours this build cannot read (an old version, an unknown verb, a malformed target). Undefined
 * for ids that are not ours.
 */
export type DecodedAction = { status: 'command'; verb: ActionVerb; command: string } | { status: 'expired' };

export function decodeActionId(id: string): DecodedAction | undefined {
  if (!id.startsWith(ACTION_ID_PREFIX)) return undefined;
  const [version, verb, target, ...rest] = id.slice(ACTION_ID_PREFIX.length).split(':');
  if (
    version !== VERSION ||
    verb === undefined ||
    !isVerb(verb) ||
    target === undefined ||
    rest.length > 0 ||
    !TARGET.test(target)
  ) {
    return { status: 'expired' };
  }
  return { status: 'command', verb, command: ACTION_COMMANDS_V1[verb](target) };
}

/** What a click on an unreadable button answers, on every platform. */
export const EXPIRED_ACTION_TEXT =
  'This button has expired: it comes from an older version of the bot. Use the /directory command instead (/directory help lists them).';
